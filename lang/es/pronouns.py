"""Spanish words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns, words

PRONOUNS = Pronouns(
    person=words('él ella'),
    thing=frozenset(),
    place=words('allí allá ahí'),
    possessive=words('su sus'),
    of='de',
    openers=('y qué hay de', 'qué hay de', 'y qué pasa con', 'y'),
    joiners=words('y e'),
    second_starts=words('cuándo dónde quién quiénes qué cuál cuáles cuántos cuántas cómo'),
    who="¿Quién es {}?", what="¿Cuál es {}?",
)
