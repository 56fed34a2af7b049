"""Japanese words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


PRONOUNS = Pronouns(
    person=_words('彼女 彼'),
    thing=_words('それ'),
    place=_words('そこ'),
    possessive=frozenset(),
    openers=('それでは', 'それで', 'では', 'じゃあ', 'そして'),
    attached=True,
    not_pronouns=('彼方', '彼岸'),
)
