"""Japanese words of a number filter ("more than 20 million", "before 1990"): each group of
words, the comparison it makes, and whether it compares dates (:mod:`qa.reading.numbers`)."""

from decimal import Decimal

from lang.base import NumberWords

FILTER_WORDS_AFTER: tuple[tuple[tuple[str, ...], str, bool], ...] = (
    (("以上",), ">=", False),
    (("以下",), "<=", False),
    (("以前", "前"), "<", True),
    (("以後", "後", "以降"), ">", True),
)
"""Words placed after the number ("or more", 以上)."""

NUMBER_WORDS = NumberWords(
    scales={
        "万": Decimal(10) ** 4,
        "億": Decimal(10) ** 8,
        "千": Decimal(1000),
        "百万": Decimal(10) ** 6,
    },
    year_words=("年",),
    decade_endings=(r"年代",),
    decimal_comma=False,
)
"""Scale and unit words, year and decade marks, the decimal separator (:class:`~lang.base.NumberWords`)."""
