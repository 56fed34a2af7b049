"""English words of a number filter ("more than 20 million", "before 1990"): each group of
words, the comparison it makes, and whether it compares dates (:mod:`qa.reading.numbers`)."""

from decimal import Decimal

from lang.base import NumberWords

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

NUMBER_WORDS = NumberWords(
    scales={
        "thousand": Decimal(1000),
        "million": Decimal(10) ** 6,
        "millions": Decimal(10) ** 6,
        "billion": Decimal(10) ** 9,
        "billions": Decimal(10) ** 9,
        "trillion": Decimal(10) ** 12,
    },
    units={
        "meter": ("m", Decimal(1)),
        "meters": ("m", Decimal(1)),
        "metre": ("m", Decimal(1)),
        "metres": ("m", Decimal(1)),
        "centimeters": ("m", Decimal("0.01")),
        "kilometers": ("m", Decimal(1000)),
        "kilometres": ("m", Decimal(1000)),
        "kilometer": ("m", Decimal(1000)),
        "kilograms": ("kg", Decimal(1)),
        "square kilometers": ("m2", Decimal(10) ** 6),
        "square kilometres": ("m2", Decimal(10) ** 6),
    },
    year_words=("year",),
    one_words=("one", "a", "an"),
    one_scale_words=("million", "billion", "thousand"),
    decade_endings=(r"'s", r"s"),
    decimal_comma=False,
)
"""Scale and unit words, year and decade marks, the decimal separator (:class:`~lang.base.NumberWords`)."""
