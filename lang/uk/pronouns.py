"""Ukrainian words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


PRONOUNS = Pronouns(
    person=_words('він вона його її йому їй нього неї ньому ній'),
    thing=_words('воно'),
    place=_words('там'),
    possessive=_words('його її їх їхній їхня їхнє'),
    owner_after=True,
    openers=('а як щодо', 'а що щодо', 'що щодо', 'а', 'і', 'й'),
    joiners=_words('і й та а'),
    second_starts=_words('коли де хто що який яка яке які скільки як чому куди звідки'),
    who="Хто {}?", what="Яка {}?",
)
