"""French words of a number filter ("more than 20 million", "before 1990"): each group of
words, the comparison it makes, and whether it compares dates (:mod:`backends.local.numbers`)."""

FILTER_WORDS_BEFORE: tuple[tuple[tuple[str, ...], str, bool], ...] = (
    (("plus de", "plus que", "au-dessus de", "supérieur à", "supérieure à"), ">", False),
    (("au moins",), ">=", False),
    (("moins de", "moins que", "en dessous de", "inférieur à"), "<", False),
    (("avant",), "<", True),
    (("après",), ">", True),
    (("depuis",), ">=", True),
    (("jusqu'en",), "<=", True),
    (("en",), "year", True),
)
"""Words placed before the number."""
