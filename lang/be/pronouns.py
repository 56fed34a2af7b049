"""Belarusian words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns, words

PRONOUNS = Pronouns(
    person=words('ён яна яго яе яму ёй'),
    thing=words('яно'),
    place=words('там'),
    possessive=words('яго яе іх'),
    owner_after=True,
    openers=('а', 'і'),
    joiners=words('і а'),
    second_starts=words('калі дзе хто што які якая якое якія колькі як чаму'),
)
