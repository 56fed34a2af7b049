"""Chinese templates of complex questions (counts, superlatives, comparisons, yes/no, filters)
over the KG's literals: training data for the validator (:mod:`training.synthetic`).
``{a}``, ``{b}``, ``{c}``: entity names; ``{n}``: a number; ``{y}``: a year."""

COMPLEX_TEMPLATES: dict[str, tuple[str, ...]] = {
    "older": ("{a}和{b}谁更年长？",),
    "younger": ("{a}和{b}谁更年轻？",),
    "taller": ("{a}和{b}谁更高？",),
    "heavier": ("{a}和{b}谁更重？",),
    "more_people": ("{a}和{b}哪个国家人口更多？",),
    "fewer_people": ("{a}和{b}哪个国家人口更少？",),
    "larger_area": ("{a}和{b}哪个国家面积更大？",),
    "founded_earlier": ("{a}和{b}哪个国家成立得更早？",),
    "born_in": ("{a}是{y}年出生的吗？",),
    "born_before": ("{a}是在{y}年以前出生的吗？",),
    "people_over": ("{a}的人口超过{n}吗？",),
    "taller_than": ("{a}比{b}更高吗？",),
    "capital": ("{a}是{b}的首都吗？",),
    "count_languages": ("{a}有几种官方语言？",),
    "count_neighbours": ("{a}与多少个国家接壤？",),
    "most_populous_neighbour": ("{a}的邻国中哪个人口最多？",),
    "smallest_neighbour": ("{a}的邻国中哪个面积最小？",),
    "oldest_of_three": ("{a}、{b}和{c}中谁最年长？",),
    "largest_of_three": ("{a}、{b}和{c}中哪个国家面积最大？",),
    "fewer_people_than": ("哪些国家的人口少于{n}？",),
    "founded_after": ("哪些国家是{y}年以后成立的？",),
}
"""Question shape -> its templates in this language."""
