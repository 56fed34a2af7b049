"""Ukrainian words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns, words

PRONOUNS = Pronouns(
    person=words('він вона його її йому їй нього неї ньому ній'),
    thing=words('воно'),
    place=words('там'),
    possessive=words('його її їх їхній їхня їхнє'),
    owner_after=True,
    openers=('а як щодо', 'а що щодо', 'що щодо', 'а', 'і', 'й'),
    joiners=words('і й та а'),
    second_starts=words('коли де хто що який яка яке які скільки як чому куди звідки'),
    who="Хто {}?", what="Яка {}?",
)
