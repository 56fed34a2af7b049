"""Amharic words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


PRONOUNS = Pronouns(
    person=_words('እሱ እሷ እርሱ'),
    thing=frozenset(),
    place=_words('እዚያ'),
    possessive=frozenset(),
    openers=('እና',),
    joiners=_words('እና'),
    second_starts=_words('መቼ የት ማን ምን ስንት'),
)
