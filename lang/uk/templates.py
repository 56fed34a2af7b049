"""Ukrainian templates of complex questions (counts, superlatives, comparisons, yes/no, filters)
over the KG's literals: training data for the validator (:mod:`training.synthetic`).
``{a}``, ``{b}``, ``{c}``: entity names; ``{n}``: a number; ``{y}``: a year."""

COMPLEX_TEMPLATES: dict[str, tuple[str, ...]] = {
    "older": ("Хто старший, {a} чи {b}?",),
    "younger": ("Хто молодший, {a} чи {b}?",),
    "heavier": ("Хто важчий, {a} чи {b}?",),
    "more_people": ("У якій країні більше населення: {a} чи {b}?",),
    "larger_area": ("Яка країна має більшу площу: {a} чи {b}?",),
    "born_in": ("Чи народився {a} у {y} році?",),
    "capital": ("Чи є {a} столицею {b}?",),
    "count_languages": ("Скільки офіційних мов має {a}?",),
}
"""Question shape -> its templates in this language."""
