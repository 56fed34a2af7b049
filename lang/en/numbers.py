"""English words of a number filter ("more than 20 million", "before 1990"): each group of
words, the comparison it makes, and whether it compares dates (:mod:`backends.local.numbers`)."""

FILTER_WORDS_BEFORE: tuple[tuple[tuple[str, ...], str, bool], ...] = (
    (("more than", "over", "above", "greater than", "larger than", "bigger than", "higher than", "taller than",
      "heavier than", "longer than", "exceeding"), ">", False),
    (("at least",), ">=", False),
    (("less than", "fewer than", "under", "below", "smaller than", "lower than", "shorter than", "lighter than"),
     "<", False),
    (("at most", "no more than"), "<=", False),
    (("before", "prior to", "earlier than"), "<", True),
    (("after", "later than"), ">", True),
    (("since", "from"), ">=", True),
    (("until", "till", "up to"), "<=", True),
    (("in",), "year", True),
)
"""Words placed before the number."""

FILTER_WORDS_AFTER: tuple[tuple[tuple[str, ...], str, bool], ...] = (
    (("or more",), ">=", False),
    (("or less", "or fewer"), "<=", False),
)
"""Words placed after the number ("or more", 以上)."""
