"""Japanese words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns, words

PRONOUNS = Pronouns(
    person=words('彼女 彼'),
    thing=words('それ'),
    place=words('そこ'),
    possessive=frozenset(),
    openers=('それでは', 'それで', 'では', 'じゃあ', 'そして'),
    attached=True,
    not_pronouns=('彼方', '彼岸'),
)
