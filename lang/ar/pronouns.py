"""Arabic words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns, words

PRONOUNS = Pronouns(
    person=words('هو هي'),
    thing=frozenset(),
    place=words('هناك'),
    possessive=frozenset(),
    openers=('وماذا عن', 'و'),
    joiners=words('و'),
    second_starts=words('متى أين من ما ماذا كم كيف'),
)
