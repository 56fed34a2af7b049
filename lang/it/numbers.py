"""Italian words of a number filter ("more than 20 million", "before 1990"): each group of
words, the comparison it makes, and whether it compares dates (:mod:`qa.reading.numbers`)."""

from decimal import Decimal

from lang.base import NumberWords

FILTER_WORDS_BEFORE: tuple[tuple[tuple[str, ...], str, bool], ...] = (
    (("più di", "oltre"), ">", False),
    (("meno di",), "<", False),
    (("prima del", "prima di"), "<", True),
    (("dopo il", "dopo"), ">", True),
    (("dal",), ">=", True),
    (("nel",), "year", True),
)
"""Words placed before the number."""

NUMBER_WORDS = NumberWords(
    scales={
        "mille": Decimal(1000),
        "milione": Decimal(10) ** 6,
        "milioni": Decimal(10) ** 6,
    },
    units={
        "metro": ("m", Decimal(1)),
    },
    one_words=("un", "uno", "una"),
    one_scale_words=("milione",),
)
"""Scale and unit words, year and decade marks, the decimal separator (:class:`~lang.base.NumberWords`)."""
