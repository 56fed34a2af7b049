"""Ukrainian words of a number filter ("more than 20 million", "before 1990"): each group of
words, the comparison it makes, and whether it compares dates (:mod:`qa.reading.numbers`)."""

from decimal import Decimal

from lang.base import NumberWords

FILTER_WORDS_BEFORE: tuple[tuple[tuple[str, ...], str, bool], ...] = (
    (("більше", "більш ніж", "понад", "вище"), ">", False),
    (("щонайменше", "не менше"), ">=", False),
    (("менше", "менш ніж", "нижче"), "<", False),
    (("до", "раніше"), "<", True),
    (("після", "пізніше"), ">", True),
    (("з", "від"), ">=", True),
    (("у", "в"), "year", True),
)
"""Words placed before the number."""

NUMBER_WORDS = NumberWords(
    scales={
        "тисяч": Decimal(1000),
        "тисячі": Decimal(1000),
        "мільйон": Decimal(10) ** 6,
        "мільйони": Decimal(10) ** 6,
        "мільйонів": Decimal(10) ** 6,
        "мільярд": Decimal(10) ** 9,
        "мільярдів": Decimal(10) ** 9,
    },
    units={
        "м": ("m", Decimal(1)),
        "метр": ("m", Decimal(1)),
        "метрів": ("m", Decimal(1)),
        "см": ("m", Decimal("0.01")),
        "км": ("m", Decimal(1000)),
        "кг": ("kg", Decimal(1)),
        "км2": ("m2", Decimal(10) ** 6),
        "км²": ("m2", Decimal(10) ** 6),
    },
    year_words=("року", "рік"),
)
"""Scale and unit words, year and decade marks, the decimal separator (:class:`~lang.base.NumberWords`)."""
