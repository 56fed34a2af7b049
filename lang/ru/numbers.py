"""Russian words of a number filter ("more than 20 million", "before 1990"): each group of
words, the comparison it makes, and whether it compares dates (:mod:`qa.reading.numbers`)."""

from decimal import Decimal

from lang.base import NumberWords

FILTER_WORDS_BEFORE: tuple[tuple[tuple[str, ...], str, bool], ...] = (
    (("больше", "более", "свыше", "выше", "длиннее", "тяжелее", "больше чем"), ">", False),
    (("не менее", "не меньше", "как минимум"), ">=", False),
    (("меньше", "менее", "ниже", "короче", "легче"), "<", False),
    (("не более", "не больше"), "<=", False),
    (("до", "раньше", "ранее"), "<", True),
    (("после", "позже", "позднее"), ">", True),
    (("с", "начиная с"), ">=", True),
    (("в", "во"), "year", True),
)
"""Words placed before the number."""

NUMBER_WORDS = NumberWords(
    scales={
        "тысяч": Decimal(1000),
        "тысячи": Decimal(1000),
        "тысяча": Decimal(1000),
        "тыс": Decimal(1000),
        "миллион": Decimal(10) ** 6,
        "миллиона": Decimal(10) ** 6,
        "миллионов": Decimal(10) ** 6,
        "млн": Decimal(10) ** 6,
        "миллиард": Decimal(10) ** 9,
        "миллиарда": Decimal(10) ** 9,
        "миллиардов": Decimal(10) ** 9,
        "млрд": Decimal(10) ** 9,
    },
    units={
        "м": ("m", Decimal(1)),
        "метра": ("m", Decimal(1)),
        "метр": ("m", Decimal(1)),
        "метров": ("m", Decimal(1)),
        "см": ("m", Decimal("0.01")),
        "сантиметров": ("m", Decimal("0.01")),
        "км": ("m", Decimal(1000)),
        "километров": ("m", Decimal(1000)),
        "кг": ("kg", Decimal(1)),
        "килограммов": ("kg", Decimal(1)),
        "км2": ("m2", Decimal(10) ** 6),
        "км²": ("m2", Decimal(10) ** 6),
        "квадратных километров": ("m2", Decimal(10) ** 6),
    },
    year_words=("года", "году", "год", "г"),
    one_words=("один", "одна", "одного", "одной"),
    one_scale_words=("миллион", "миллиард", "тысяч"),
    decade_endings=(r"-х", r"-е"),
)
"""Scale and unit words, year and decade marks, the decimal separator (:class:`~lang.base.NumberWords`)."""
