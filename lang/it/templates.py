"""Italian templates of complex questions (counts, superlatives, comparisons, yes/no, filters)
over the KG's literals: training data for the validator (:mod:`training.synthetic`).
``{a}``, ``{b}``, ``{c}``: entity names; ``{n}``: a number; ``{y}``: a year."""

COMPLEX_TEMPLATES: dict[str, tuple[str, ...]] = {
    "older": ("Chi è più vecchio, {a} o {b}?",),
    "younger": ("Chi è più giovane, {a} o {b}?",),
    "taller": ("Chi è più alto, {a} o {b}?",),
    "more_people": ("Quale paese ha più abitanti, {a} o {b}?",),
    "born_in": ("{a} è nato nel {y}?",),
    "capital": ("{a} è la capitale di {b}?",),
    "count_languages": ("Quante lingue ufficiali ha {a}?",),
}
"""Question shape -> its templates in this language."""
