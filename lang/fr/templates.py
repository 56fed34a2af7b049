"""French templates of complex questions (counts, superlatives, comparisons, yes/no, filters)
over the KG's literals: training data for the validator (:mod:`training.synthetic`).
``{a}``, ``{b}``, ``{c}``: entity names; ``{n}``: a number; ``{y}``: a year."""

COMPLEX_TEMPLATES: dict[str, tuple[str, ...]] = {
    "older": ("Qui est le plus âgé, {a} ou {b} ?",),
    "younger": ("Qui est le plus jeune, {a} ou {b} ?",),
    "taller": ("Qui est le plus grand, {a} ou {b} ?",),
    "heavier": ("Qui est le plus lourd, {a} ou {b} ?",),
    "more_people": ("Quel pays a le plus d'habitants, {a} ou {b} ?",),
    "fewer_people": ("Quel pays a le moins d'habitants, {a} ou {b} ?",),
    "larger_area": ("Quel pays a la plus grande superficie, {a} ou {b} ?",),
    "founded_earlier": ("Quel pays a été fondé plus tôt, {a} ou {b} ?",),
    "born_in": ("{a} est-il né en {y} ?",),
    "born_before": ("{a} est-il né avant {y} ?",),
    "people_over": ("{a} a-t-il plus de {n} habitants ?",),
    "taller_than": ("{a} est-il plus grand que {b} ?",),
    "capital": ("{a} est-elle la capitale de {b} ?",),
    "count_languages": ("Combien de langues officielles a {a} ?",),
    "count_neighbours": ("Avec combien de pays {a} a-t-il une frontière ?",),
    "most_populous_neighbour": ("Quel pays voisin de {a} a la plus grande population ?",),
    "smallest_neighbour": ("Quel pays voisin de {a} a la plus petite superficie ?",),
    "oldest_of_three": ("Qui est le plus âgé parmi {a}, {b} et {c} ?",),
    "largest_of_three": ("Lequel de {a}, {b} et {c} a la plus grande superficie ?",),
    "fewer_people_than": ("Quels pays ont moins de {n} habitants ?",),
    "founded_after": ("Quels pays ont été fondés après {y} ?",),
}
"""Question shape -> its templates in this language."""

MILLION = "{} millions"
"""How a number of millions is written ("{} million")."""
