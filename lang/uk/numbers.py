"""Ukrainian words of a number filter ("more than 20 million", "before 1990"): each group of
words, the comparison it makes, and whether it compares dates (:mod:`backends.local.numbers`)."""

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
