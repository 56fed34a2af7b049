"""Spanish words of a number filter ("more than 20 million", "before 1990"): each group of
words, the comparison it makes, and whether it compares dates (:mod:`qa.reading.numbers`)."""

from decimal import Decimal

from lang.base import NumberWords

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

NUMBER_WORDS = NumberWords(
    scales={
        "mil": Decimal(1000),
        "millón": Decimal(10) ** 6,
        "millones": Decimal(10) ** 6,
    },
    units={
        "metro": ("m", Decimal(1)),
        "metros": ("m", Decimal(1)),
    },
    year_words=("año",),
    one_words=("un", "uno", "una"),
    one_scale_words=("millón",),
)
"""Scale and unit words, year and decade marks, the decimal separator (:class:`~lang.base.NumberWords`)."""
