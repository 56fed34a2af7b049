"""Italian words of a number filter ("more than 20 million", "before 1990"): each group of
words, the comparison it makes, and whether it compares dates (:mod:`backends.local.numbers`)."""

FILTER_WORDS_BEFORE: tuple[tuple[tuple[str, ...], str, bool], ...] = (
    (("più di", "oltre"), ">", False),
    (("meno di",), "<", False),
    (("prima del", "prima di"), "<", True),
    (("dopo il", "dopo"), ">", True),
    (("dal",), ">=", True),
    (("nel",), "year", True),
)
"""Words placed before the number."""
