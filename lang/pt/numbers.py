"""Portuguese words of a number filter ("more than 20 million", "before 1990"): each group of
words, the comparison it makes, and whether it compares dates (:mod:`backends.local.numbers`)."""

FILTER_WORDS_BEFORE: tuple[tuple[tuple[str, ...], str, bool], ...] = (
    (("mais de", "acima de"), ">", False),
    (("menos de", "abaixo de"), "<", False),
    (("antes de",), "<", True),
    (("depois de",), ">", True),
    (("desde",), ">=", True),
    (("em",), "year", True),
)
"""Words placed before the number."""
