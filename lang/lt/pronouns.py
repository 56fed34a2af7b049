"""Lithuanian words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


PRONOUNS = Pronouns(
    person=_words('jis ji jį ją jam jai'),
    thing=frozenset(),
    place=_words('ten'),
    possessive=_words('jo jos'),
    owner_after=True,
    openers=('o', 'ir'),
    joiners=_words('ir'),
    second_starts=_words('kada kur kas koks kokia kiek kodėl kuris'),
)
