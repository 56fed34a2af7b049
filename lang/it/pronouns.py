"""Italian words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


PRONOUNS = Pronouns(
    person=_words('lui lei egli ella'),
    thing=frozenset(),
    place=_words('lì là'),
    possessive=_words('suo sua suoi sue'),
    of='di',
    openers=('e invece', 'e che dire di', 'e'),
    joiners=_words('e ed'),
    second_starts=_words('quando dove chi che cosa quale quali quanti quante come perché'),
    who="Chi è {}?", what="Qual è {}?",
    articles=(("suo", "il"), ("sua", "la"), ("suoi", "i"), ("sue", "le")),
)
