"""Portuguese templates of complex questions (counts, superlatives, comparisons, yes/no, filters)
over the KG's literals: training data for the validator (:mod:`training.synthetic`).
``{a}``, ``{b}``, ``{c}``: entity names; ``{n}``: a number; ``{y}``: a year."""

COMPLEX_TEMPLATES: dict[str, tuple[str, ...]] = {
    "older": ("Quem é mais velho, {a} ou {b}?",),
    "younger": ("Quem é mais novo, {a} ou {b}?",),
    "taller": ("Quem é mais alto, {a} ou {b}?",),
    "more_people": ("Qual país tem mais habitantes, {a} ou {b}?",),
    "born_in": ("{a} nasceu em {y}?",),
    "capital": ("{a} é a capital de {b}?",),
    "count_languages": ("Quantas línguas oficiais tem {a}?",),
}
"""Question shape -> its templates in this language."""
