"""English templates of complex questions (counts, superlatives, comparisons, yes/no, filters)
over the KG's literals: training data for the validator (:mod:`training.synthetic`).
``{a}``, ``{b}``, ``{c}``: entity names; ``{n}``: a number; ``{y}``: a year."""

COMPLEX_TEMPLATES: dict[str, tuple[str, ...]] = {
    "older": ("Who is older, {a} or {b}?", "Who was born first, {a} or {b}?"),
    "younger": ("Who is younger, {a} or {b}?",),
    "taller": ("Who is taller, {a} or {b}?",),
    "heavier": ("Who is heavier, {a} or {b}?",),
    "more_people": ("Which country has more inhabitants, {a} or {b}?", "Which has the larger population, {a} or {b}?"),
    "fewer_people": ("Which country has fewer inhabitants, {a} or {b}?",),
    "larger_area": ("Which country is larger by area, {a} or {b}?",),
    "founded_earlier": ("Which country was founded earlier, {a} or {b}?",),
    "born_in": ("Was {a} born in {y}?",),
    "born_before": ("Was {a} born before {y}?",),
    "people_over": ("Does {a} have more than {n} inhabitants?",),
    "taller_than": ("Is {a} taller than {b}?",),
    "capital": ("Is {a} the capital of {b}?",),
    "count_languages": ("How many official languages does {a} have?",),
    "count_neighbours": ("How many countries share a border with {a}?",),
    "most_populous_neighbour": ("Which neighbouring country of {a} has the largest population?",),
    "smallest_neighbour": ("Which country bordering {a} has the smallest area?",),
    "oldest_of_three": ("Who is the oldest of {a}, {b} and {c}?",),
    "largest_of_three": ("Which of {a}, {b} and {c} has the largest area?",),
    "fewer_people_than": ("Which countries have fewer than {n} inhabitants?",),
    "founded_after": ("Which countries were founded after {y}?",),
}
"""Question shape -> its templates in this language."""

MILLION = "{} million"
"""How a number of millions is written ("{} million")."""
