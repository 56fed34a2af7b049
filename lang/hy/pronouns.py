"""Armenian words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns, words

PRONOUNS = Pronouns(
    person=words('նա նրան'),
    thing=frozenset(),
    place=words('այնտեղ'),
    possessive=words('նրա'),
    openers=('իսկ', 'և'),
    joiners=words('և'),
    second_starts=words('երբ որտեղ ով ինչ որ քանի ինչպես'),
)
