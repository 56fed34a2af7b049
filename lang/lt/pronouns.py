"""Lithuanian words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns, words

PRONOUNS = Pronouns(
    person=words('jis ji jį ją jam jai'),
    thing=frozenset(),
    place=words('ten'),
    possessive=words('jo jos'),
    owner_after=True,
    openers=('o', 'ir'),
    joiners=words('ir'),
    second_starts=words('kada kur kas koks kokia kiek kodėl kuris'),
)
