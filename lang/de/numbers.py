"""German words of a number filter ("more than 20 million", "before 1990"): each group of
words, the comparison it makes, and whether it compares dates (:mod:`qa.reading.numbers`)."""

from decimal import Decimal

from lang.base import NumberWords

FILTER_WORDS_BEFORE: tuple[tuple[tuple[str, ...], str, bool], ...] = (
    (("mehr als", "über", "größer als", "höher als", "länger als", "schwerer als"), ">", False),
    (("mindestens", "wenigstens"), ">=", False),
    (("weniger als", "unter", "kleiner als", "niedriger als", "kürzer als", "leichter als"), "<", False),
    (("höchstens",), "<=", False),
    (("vor", "früher als"), "<", True),
    (("nach", "später als"), ">", True),
    (("seit", "ab"), ">=", True),
    (("bis",), "<=", True),
    (("im jahr", "im jahre", "in", "im"), "year", True),
)
"""Words placed before the number."""

NUMBER_WORDS = NumberWords(
    scales={
        "tausend": Decimal(1000),
        "million.": Decimal(10) ** 6,
        "mio": Decimal(10) ** 6,
        "millionen": Decimal(10) ** 6,
        "milliarde": Decimal(10) ** 9,
        "milliarden": Decimal(10) ** 9,
        "mrd": Decimal(10) ** 9,
    },
    units={
        "meter": ("m", Decimal(1)),
        "metern": ("m", Decimal(1)),
        "zentimeter": ("m", Decimal("0.01")),
        "kilogramm": ("kg", Decimal(1)),
        "quadratkilometer": ("m2", Decimal(10) ** 6),
    },
    year_words=("jahr", "jahre"),
    one_words=("ein", "eine", "einer"),
    one_scale_words=("millionen", "million", "milliarde"),
    decade_endings=(r" ?er jahre", r"er"),
)
"""Scale and unit words, year and decade marks, the decimal separator (:class:`~lang.base.NumberWords`)."""
