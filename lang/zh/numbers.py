"""Chinese words of a number filter ("more than 20 million", "before 1990"): each group of
words, the comparison it makes, and whether it compares dates (:mod:`qa.reading.numbers`)."""

from decimal import Decimal

from lang.base import NumberWords

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

NUMBER_WORDS = NumberWords(
    scales={
        "万": Decimal(10) ** 4,
        "萬": Decimal(10) ** 4,
        "亿": Decimal(10) ** 8,
        "億": Decimal(10) ** 8,
        "千": Decimal(1000),
        "百万": Decimal(10) ** 6,
    },
    units={
        "米": ("m", Decimal(1)),
        "厘米": ("m", Decimal("0.01")),
        "公分": ("m", Decimal("0.01")),
        "公里": ("m", Decimal(1000)),
        "千米": ("m", Decimal(1000)),
        "公斤": ("kg", Decimal(1)),
        "千克": ("kg", Decimal(1)),
        "平方公里": ("m2", Decimal(10) ** 6),
        "平方千米": ("m2", Decimal(10) ** 6),
    },
    year_words=("年",),
    decade_endings=(r"年代",),
    decimal_comma=False,
)
"""Scale and unit words, year and decade marks, the decimal separator (:class:`~lang.base.NumberWords`)."""
