"""Dutch words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns, words

PRONOUNS = Pronouns(
    person=words('hij hem zij'),
    thing=words('het'),
    place=words('daar'),
    possessive=words("z'n haar hun"),
    of='van',
    openers=('en wat dacht je van', 'en', 'wat met'),
    joiners=words('en'),
    second_starts=words('wanneer waar wie wat welke welk hoeveel hoe waarom'),
    who="Wie is {}?", what="Wat is {}?",
    fixed=('is er', 'zijn er', 'er is'),
)
