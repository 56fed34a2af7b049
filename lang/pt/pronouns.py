"""Portuguese words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


PRONOUNS = Pronouns(
    person=_words('ele ela'),
    thing=frozenset(),
    place=_words('lá ali aí'),
    possessive=_words('seu sua seus suas'),
    of='de',
    of_pronouns=_words('dele dela'),
    openers=('e quanto a', 'e sobre', 'e'),
    joiners=_words('e'),
    second_starts=_words('quando onde quem que qual quais quantos quantas como'),
    who="Quem é {}?", what="Qual é {}?",
    articles=(("seu", "o"), ("sua", "a"), ("seus", "os"), ("suas", "as")),
)
