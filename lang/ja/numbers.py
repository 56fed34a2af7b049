"""Japanese words of a number filter ("more than 20 million", "before 1990"): each group of
words, the comparison it makes, and whether it compares dates (:mod:`backends.local.numbers`)."""

FILTER_WORDS_AFTER: tuple[tuple[tuple[str, ...], str, bool], ...] = (
    (("以上",), ">=", False),
    (("以下",), "<=", False),
    (("以前", "前"), "<", True),
    (("以後", "後", "以降"), ">", True),
)
"""Words placed after the number ("or more", 以上)."""
