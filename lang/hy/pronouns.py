"""Armenian words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


PRONOUNS = Pronouns(
    person=_words('նա նրան'),
    thing=frozenset(),
    place=_words('այնտեղ'),
    possessive=_words('նրա'),
    openers=('իսկ', 'և'),
    joiners=_words('և'),
    second_starts=_words('երբ որտեղ ով ինչ որ քանի ինչպես'),
)
