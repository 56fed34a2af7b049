"""Bashkir words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns, words

PRONOUNS = Pronouns(
    person=words('ул уны уға'),
    thing=frozenset(),
    place=words('унда'),
    possessive=words('уның'),
    openers=('ә',),
    joiners=words('һәм'),
    second_starts=words('ҡасан ҡайҙа кем нимә ниндәй нисә'),
)
