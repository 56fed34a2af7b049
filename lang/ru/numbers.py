"""Russian words of a number filter ("more than 20 million", "before 1990"): each group of
words, the comparison it makes, and whether it compares dates (:mod:`backends.local.numbers`)."""

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
