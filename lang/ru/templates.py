"""Russian templates of complex questions (counts, superlatives, comparisons, yes/no, filters)
over the KG's literals: training data for the validator (:mod:`training.synthetic`).
``{a}``, ``{b}``, ``{c}``: entity names; ``{n}``: a number; ``{y}``: a year."""

COMPLEX_TEMPLATES: dict[str, tuple[str, ...]] = {
    "older": ("Кто старше, {a} или {b}?",),
    "younger": ("Кто моложе, {a} или {b}?",),
    "taller": ("Кто выше ростом, {a} или {b}?",),
    "heavier": ("Кто тяжелее, {a} или {b}?",),
    "more_people": ("В какой стране больше жителей: {a} или {b}?",),
    "fewer_people": ("В какой стране меньше жителей: {a} или {b}?",),
    "larger_area": ("Какая страна больше по площади: {a} или {b}?",),
    "founded_earlier": ("Какая страна была основана раньше: {a} или {b}?",),
    "born_in": ("{a} родился в {y} году?",),
    "born_before": ("{a} родился до {y} года?",),
    "people_over": ("Население {a} больше {n}?",),
    "taller_than": ("{a} выше ростом, чем {b}?",),
    "capital": ("Является ли {a} столицей {b}?",),
    "count_languages": ("Сколько официальных языков в {a}?",),
    "count_neighbours": ("Со сколькими странами граничит {a}?",),
    "most_populous_neighbour": ("Какая соседняя с {a} страна имеет самое большое население?",),
    "smallest_neighbour": ("Какая соседняя с {a} страна самая маленькая по площади?",),
    "oldest_of_three": ("Кто старше всех: {a}, {b} или {c}?",),
    "largest_of_three": ("Какая из стран {a}, {b} и {c} самая большая по площади?",),
    "fewer_people_than": ("Какие страны имеют население меньше {n}?",),
    "founded_after": ("Какие страны были основаны после {y} года?",),
}
"""Question shape -> its templates in this language."""

MILLION = "{} миллионов"
"""How a number of millions is written ("{} million")."""
