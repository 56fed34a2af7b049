"""Arabic words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


PRONOUNS = Pronouns(
    person=_words('هو هي'),
    thing=frozenset(),
    place=_words('هناك'),
    possessive=frozenset(),
    openers=('وماذا عن', 'و'),
    joiners=_words('و'),
    second_starts=_words('متى أين من ما ماذا كم كيف'),
)
