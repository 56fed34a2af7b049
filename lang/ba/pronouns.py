"""Bashkir words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


PRONOUNS = Pronouns(
    person=_words('ул уны уға'),
    thing=frozenset(),
    place=_words('унда'),
    possessive=_words('уның'),
    openers=('ә',),
    joiners=_words('һәм'),
    second_starts=_words('ҡасан ҡайҙа кем нимә ниндәй нисә'),
)
