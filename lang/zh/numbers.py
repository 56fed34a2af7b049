"""Chinese words of a number filter ("more than 20 million", "before 1990"): each group of
words, the comparison it makes, and whether it compares dates (:mod:`backends.local.numbers`)."""

FILTER_WORDS_BEFORE: tuple[tuple[tuple[str, ...], str, bool], ...] = (
    (("超过", "多于", "大于", "高于", "逾"), ">", False),
    (("至少", "不少于", "不低于"), ">=", False),
    (("少于", "小于", "低于", "不到", "不足"), "<", False),
    (("不超过", "至多"), "<=", False),
    (("早于",), "<", True),
    (("晚于",), ">", True),
    (("自", "从"), ">=", True),
    (("在", "于"), "year", True),
)
"""Words placed before the number."""

FILTER_WORDS_AFTER: tuple[tuple[tuple[str, ...], str, bool], ...] = (
    (("以上", "多"), ">", False),
    (("以下",), "<", False),
    (("之前", "以前", "前"), "<", True),
    (("之后", "以后", "后"), ">", True),
    (("以来",), ">=", True),
)
"""Words placed after the number ("or more", 以上)."""
