"""Spanish words of a number filter ("more than 20 million", "before 1990"): each group of
words, the comparison it makes, and whether it compares dates (:mod:`backends.local.numbers`)."""

FILTER_WORDS_BEFORE: tuple[tuple[tuple[str, ...], str, bool], ...] = (
    (("más de", "más que", "por encima de", "superior a"), ">", False),
    (("al menos", "por lo menos"), ">=", False),
    (("menos de", "menos que", "por debajo de", "inferior a"), "<", False),
    (("antes de",), "<", True),
    (("después de",), ">", True),
    (("desde",), ">=", True),
    (("hasta",), "<=", True),
    (("en",), "year", True),
)
"""Words placed before the number."""
