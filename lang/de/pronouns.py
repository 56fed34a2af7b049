"""German words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns, words

PRONOUNS = Pronouns(
    person=words('er ihn ihm sie'),
    thing=words('es'),
    place=words('dort'),
    possessive=words('sein seine seinen seinem seiner seines ihr ihre ihren ihrem ihrer ihres'),
    of='von',
    openers=('und was ist mit', 'was ist mit', 'und wie ist es mit', 'und'),
    joiners=words('und'),
    second_starts=words('wann wo wer was welche welcher welches wie warum woher wohin ist war hat hatte wurde'),
    fixed=('gibt es', 'es gibt', 'ist es', 'war es'),
)
