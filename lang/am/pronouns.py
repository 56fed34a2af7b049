"""Amharic words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns, words

PRONOUNS = Pronouns(
    person=words('እሱ እሷ እርሱ'),
    thing=frozenset(),
    place=words('እዚያ'),
    possessive=frozenset(),
    openers=('እና',),
    joiners=words('እና'),
    second_starts=words('መቼ የት ማን ምን ስንት'),
)
