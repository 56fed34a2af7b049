"""German templates of complex questions (counts, superlatives, comparisons, yes/no, filters)
over the KG's literals: training data for the validator (:mod:`training.synthetic`).
``{a}``, ``{b}``, ``{c}``: entity names; ``{n}``: a number; ``{y}``: a year."""

COMPLEX_TEMPLATES: dict[str, tuple[str, ...]] = {
    "older": ("Wer ist älter, {a} oder {b}?",),
    "younger": ("Wer ist jünger, {a} oder {b}?",),
    "taller": ("Wer hat die größere Körpergröße, {a} oder {b}?",),
    "heavier": ("Wer ist schwerer, {a} oder {b}?",),
    "more_people": ("Welches Land hat mehr Einwohner, {a} oder {b}?",),
    "fewer_people": ("Welches Land hat weniger Einwohner, {a} oder {b}?",),
    "larger_area": ("Welches Land hat die größere Fläche, {a} oder {b}?",),
    "founded_earlier": ("Welches Land wurde früher gegründet, {a} oder {b}?",),
    "born_in": ("Wurde {a} {y} geboren?",),
    "born_before": ("Wurde {a} vor {y} geboren?",),
    "people_over": ("Hat {a} mehr als {n} Einwohner?",),
    "capital": ("Ist {a} die Hauptstadt von {b}?",),
    "count_languages": ("Wie viele Amtssprachen hat {a}?",),
    "count_neighbours": ("Wie viele Nachbarländer hat {a}?",),
    "most_populous_neighbour": ("Welches Nachbarland von {a} hat die meisten Einwohner?",),
    "smallest_neighbour": ("Welches Nachbarland von {a} hat die kleinste Fläche?",),
    "oldest_of_three": ("Wer ist der Älteste von {a}, {b} und {c}?",),
    "largest_of_three": ("Welches Land hat die größte Fläche: {a}, {b} oder {c}?",),
    "fewer_people_than": ("Welche Länder haben weniger als {n} Einwohner?",),
    "founded_after": ("Welche Länder wurden nach {y} gegründet?",),
}
"""Question shape -> its templates in this language."""

MILLION = "{} Millionen"
"""How a number of millions is written ("{} million")."""
