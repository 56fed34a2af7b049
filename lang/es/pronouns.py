"""Spanish words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


PRONOUNS = Pronouns(
    person=_words('él ella'),
    thing=frozenset(),
    place=_words('allí allá ahí'),
    possessive=_words('su sus'),
    of='de',
    openers=('y qué hay de', 'qué hay de', 'y qué pasa con', 'y'),
    joiners=_words('y e'),
    second_starts=_words('cuándo dónde quién quiénes qué cuál cuáles cuántos cuántas cómo'),
    who="¿Quién es {}?", what="¿Cuál es {}?",
)
