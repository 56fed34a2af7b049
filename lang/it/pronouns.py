"""Italian words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns, words

PRONOUNS = Pronouns(
    person=words('lui lei egli ella'),
    thing=frozenset(),
    place=words('lì là'),
    possessive=words('suo sua suoi sue'),
    of='di',
    openers=('e invece', 'e che dire di', 'e'),
    joiners=words('e ed'),
    second_starts=words('quando dove chi che cosa quale quali quanti quante come perché'),
    who="Chi è {}?", what="Qual è {}?",
    articles=(("suo", "il"), ("sua", "la"), ("suoi", "i"), ("sue", "le")),
)
