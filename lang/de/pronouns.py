"""German words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


PRONOUNS = Pronouns(
    person=_words('er ihn ihm sie'),
    thing=_words('es'),
    place=_words('dort'),
    possessive=_words('sein seine seinen seinem seiner seines ihr ihre ihren ihrem ihrer ihres'),
    of='von',
    openers=('und was ist mit', 'was ist mit', 'und wie ist es mit', 'und'),
    joiners=_words('und'),
    second_starts=_words('wann wo wer was welche welcher welches wie warum woher wohin ist war hat hatte wurde'),
    fixed=('gibt es', 'es gibt', 'ist es', 'war es'),
)
