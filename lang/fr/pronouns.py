"""French words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns, words

PRONOUNS = Pronouns(
    person=words('il elle lui'),
    thing=frozenset(),
    place=words('là'),
    possessive=words('son sa ses leur leurs'),
    of='de',
    openers=("et qu'en est-il de", "qu'en est-il de", 'et pour', 'et'),
    joiners=words('et'),
    second_starts=words('quand où qui que quel quelle quels quelles combien comment pourquoi est'),
    who="Qui est {} ?", what="Quel est {} ?",
    articles=(("sa", "la"), ("son", "le"), ("ses", "les"), ("leur", "le"), ("leurs", "les")),
    fixed=('il y a', 'y a-t-il', 'y a t il', 'il faut'),
)
