"""Portuguese words of a number filter ("more than 20 million", "before 1990"): each group of
words, the comparison it makes, and whether it compares dates (:mod:`qa.reading.numbers`)."""

from decimal import Decimal

from lang.base import NumberWords

FILTER_WORDS_BEFORE: tuple[tuple[tuple[str, ...], str, bool], ...] = (
    (("mais de", "acima de"), ">", False),
    (("menos de", "abaixo de"), "<", False),
    (("antes de",), "<", True),
    (("depois de",), ">", True),
    (("desde",), ">=", True),
    (("em",), "year", True),
)
"""Words placed before the number."""

NUMBER_WORDS = NumberWords(
    scales={
        "mil": Decimal(1000),
        "milhão": Decimal(10) ** 6,
        "milhões": Decimal(10) ** 6,
    },
    units={
        "metro": ("m", Decimal(1)),
        "metros": ("m", Decimal(1)),
    },
    one_words=("um", "uma"),
    one_scale_words=("milhão",),
)
"""Scale and unit words, year and decade marks, the decimal separator (:class:`~lang.base.NumberWords`)."""
