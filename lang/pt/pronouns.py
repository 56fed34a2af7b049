"""Portuguese words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns, words

PRONOUNS = Pronouns(
    person=words('ele ela'),
    thing=frozenset(),
    place=words('lá ali aí'),
    possessive=words('seu sua seus suas'),
    of='de',
    of_pronouns=words('dele dela'),
    openers=('e quanto a', 'e sobre', 'e'),
    joiners=words('e'),
    second_starts=words('quando onde quem que qual quais quantos quantas como'),
    who="Quem é {}?", what="Qual é {}?",
    articles=(("seu", "o"), ("sua", "a"), ("seus", "os"), ("suas", "as")),
)
