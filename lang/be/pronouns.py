"""Belarusian words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


PRONOUNS = Pronouns(
    person=_words('ён яна яго яе яму ёй'),
    thing=_words('яно'),
    place=_words('там'),
    possessive=_words('яго яе іх'),
    owner_after=True,
    openers=('а', 'і'),
    joiners=_words('і а'),
    second_starts=_words('калі дзе хто што які якая якое якія колькі як чаму'),
)
