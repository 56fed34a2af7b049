"""Dutch words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


PRONOUNS = Pronouns(
    person=_words('hij hem zij'),
    thing=_words('het'),
    place=_words('daar'),
    possessive=_words("z'n haar hun"),
    of='van',
    openers=('en wat dacht je van', 'en', 'wat met'),
    joiners=_words('en'),
    second_starts=_words('wanneer waar wie wat welke welk hoeveel hoe waarom'),
    who="Wie is {}?", what="Wat is {}?",
    fixed=('is er', 'zijn er', 'er is'),
)
