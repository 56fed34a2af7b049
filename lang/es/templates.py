"""Spanish templates of complex questions (counts, superlatives, comparisons, yes/no, filters)
over the KG's literals: training data for the validator (:mod:`training.synthetic`).
``{a}``, ``{b}``, ``{c}``: entity names; ``{n}``: a number; ``{y}``: a year."""

COMPLEX_TEMPLATES: dict[str, tuple[str, ...]] = {
    "older": ("¿Quién es mayor, {a} o {b}?",),
    "younger": ("¿Quién es más joven, {a} o {b}?",),
    "taller": ("¿Quién es más alto, {a} o {b}?",),
    "heavier": ("¿Quién es más pesado, {a} o {b}?",),
    "more_people": ("¿Qué país tiene más habitantes, {a} o {b}?",),
    "fewer_people": ("¿Qué país tiene menos habitantes, {a} o {b}?",),
    "larger_area": ("¿Qué país tiene mayor superficie, {a} o {b}?",),
    "founded_earlier": ("¿Qué país fue fundado antes, {a} o {b}?",),
    "born_in": ("¿{a} nació en {y}?",),
    "born_before": ("¿{a} nació antes de {y}?",),
    "people_over": ("¿{a} tiene más de {n} habitantes?",),
    "taller_than": ("¿Es {a} más alto que {b}?",),
    "capital": ("¿Es {a} la capital de {b}?",),
    "count_languages": ("¿Cuántos idiomas oficiales tiene {a}?",),
    "count_neighbours": ("¿Con cuántos países limita {a}?",),
    "most_populous_neighbour": ("¿Qué país vecino de {a} tiene la mayor población?",),
    "smallest_neighbour": ("¿Qué país vecino de {a} tiene la menor superficie?",),
    "oldest_of_three": ("¿Quién es el mayor de {a}, {b} y {c}?",),
    "largest_of_three": ("¿Cuál de {a}, {b} y {c} tiene la mayor superficie?",),
    "fewer_people_than": ("¿Qué países tienen menos de {n} habitantes?",),
    "founded_after": ("¿Qué países fueron fundados después de {y}?",),
}
"""Question shape -> its templates in this language."""

MILLION = "{} millones"
"""How a number of millions is written ("{} million")."""
