"""French words of a number filter ("more than 20 million", "before 1990"): each group of
words, the comparison it makes, and whether it compares dates (:mod:`qa.reading.numbers`)."""

from decimal import Decimal

from lang.base import NumberWords

FILTER_WORDS_BEFORE: tuple[tuple[tuple[str, ...], str, bool], ...] = (
    (("plus de", "plus que", "au-dessus de", "supérieur à", "supérieure à"), ">", False),
    (("au moins",), ">=", False),
    (("moins de", "moins que", "en dessous de", "inférieur à"), "<", False),
    (("avant",), "<", True),
    (("après",), ">", True),
    (("depuis",), ">=", True),
    (("jusqu'en",), "<=", True),
    (("en",), "year", True),
)
"""Words placed before the number."""

NUMBER_WORDS = NumberWords(
    scales={
        "mille": Decimal(1000),
        "million": Decimal(10) ** 6,
        "millions": Decimal(10) ** 6,
        "milliard": Decimal(10) ** 9,
        "milliards": Decimal(10) ** 9,
    },
    units={
        "mètre": ("m", Decimal(1)),
        "mètres": ("m", Decimal(1)),
    },
    year_words=("an", "année"),
    one_words=("un", "une"),
    one_scale_words=("million", "milliard"),
)
"""Scale and unit words, year and decade marks, the decimal separator (:class:`~lang.base.NumberWords`)."""
