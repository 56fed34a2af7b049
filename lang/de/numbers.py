"""German words of a number filter ("more than 20 million", "before 1990"): each group of
words, the comparison it makes, and whether it compares dates (:mod:`backends.local.numbers`)."""

FILTER_WORDS_BEFORE: tuple[tuple[tuple[str, ...], str, bool], ...] = (
    (("mehr als", "über", "größer als", "höher als", "länger als", "schwerer als"), ">", False),
    (("mindestens", "wenigstens"), ">=", False),
    (("weniger als", "unter", "kleiner als", "niedriger als", "kürzer als", "leichter als"), "<", False),
    (("höchstens",), "<=", False),
    (("vor", "früher als"), "<", True),
    (("nach", "später als"), ">", True),
    (("seit", "ab"), ">=", True),
    (("bis",), "<=", True),
    (("im jahr", "im jahre", "in", "im"), "year", True),
)
"""Words placed before the number."""
