"""Templated complex questions over the KG's literals: training data for the complex shapes.

The dev benchmarks hold only a handful of answerable complex questions (counts,
superlatives, comparisons, yes/no, filters), so the validator never learns what a
correct complex verbalization looks like.  This module writes such questions from
templates in nine languages over the entities the KG has values for, computes their
gold by running a gold query on the KG, and hands them to the usual candidate
collection (:func:`validator.data.collect`): the real backend answers them, and every
candidate is labelled by executing it, as for the benchmark questions.

Splits are by **entity**: every entity falls into train / dev / test by a stable hash
(:func:`evaluation.splits.split_of` of ``"entity:" + QID``), and a question combines
entities of one split only, so no entity of a dev question was seen in training.
Entities named in ``exclude`` (the written test questions' entities) are never used.

A candidate of a synthetic question counts as correct only when its answer matches
*and* it mentions the gold query's entities and properties (:func:`mentions_gold`): a
yes/no or two-way question is otherwise right by chance half of the time.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from evaluation.formats import AnswerSet, Question, QuestionText
from evaluation.harness import EvalItem
from evaluation.splits import split_of
from kg.client import KG, fetch_labels
from kg.sparql import RDFS_LABEL, SKOS_ALT, entity_iri

DATASET = "synthetic"
LANGS = ("en", "de", "ru", "zh", "fr", "es", "uk", "it", "pt")
LATIN = {"en", "de", "fr", "es", "it", "pt"}  # may fall back to the English name
HUMAN, COUNTRY = "Q5", "Q6256"

# shape -> lang -> templates ({a}, {b}, {c}: entity names; {n}: number; {y}: year)
TEMPLATES: dict[str, dict[str, tuple[str, ...]]] = {
    "older": {
        "en": ("Who is older, {a} or {b}?", "Who was born first, {a} or {b}?"),
        "de": ("Wer ist älter, {a} oder {b}?",), "ru": ("Кто старше, {a} или {b}?",),
        "zh": ("{a}和{b}谁更年长？",), "fr": ("Qui est le plus âgé, {a} ou {b} ?",),
        "es": ("¿Quién es mayor, {a} o {b}?",), "uk": ("Хто старший, {a} чи {b}?",),
        "it": ("Chi è più vecchio, {a} o {b}?",), "pt": ("Quem é mais velho, {a} ou {b}?",)},
    "younger": {
        "en": ("Who is younger, {a} or {b}?",), "de": ("Wer ist jünger, {a} oder {b}?",),
        "ru": ("Кто моложе, {a} или {b}?",), "zh": ("{a}和{b}谁更年轻？",),
        "fr": ("Qui est le plus jeune, {a} ou {b} ?",), "es": ("¿Quién es más joven, {a} o {b}?",),
        "uk": ("Хто молодший, {a} чи {b}?",), "it": ("Chi è più giovane, {a} o {b}?",),
        "pt": ("Quem é mais novo, {a} ou {b}?",)},
    "taller": {
        "en": ("Who is taller, {a} or {b}?",), "de": ("Wer hat die größere Körpergröße, {a} oder {b}?",),
        "ru": ("Кто выше ростом, {a} или {b}?",), "zh": ("{a}和{b}谁更高？",),
        "fr": ("Qui est le plus grand, {a} ou {b} ?",), "es": ("¿Quién es más alto, {a} o {b}?",),
        "it": ("Chi è più alto, {a} o {b}?",), "pt": ("Quem é mais alto, {a} ou {b}?",)},
    "heavier": {
        "en": ("Who is heavier, {a} or {b}?",), "de": ("Wer ist schwerer, {a} oder {b}?",),
        "ru": ("Кто тяжелее, {a} или {b}?",), "zh": ("{a}和{b}谁更重？",),
        "fr": ("Qui est le plus lourd, {a} ou {b} ?",), "es": ("¿Quién es más pesado, {a} o {b}?",),
        "uk": ("Хто важчий, {a} чи {b}?",)},
    "more_people": {
        "en": ("Which country has more inhabitants, {a} or {b}?", "Which has the larger population, {a} or {b}?"),
        "de": ("Welches Land hat mehr Einwohner, {a} oder {b}?",),
        "ru": ("В какой стране больше жителей: {a} или {b}?",), "zh": ("{a}和{b}哪个国家人口更多？",),
        "fr": ("Quel pays a le plus d'habitants, {a} ou {b} ?",),
        "es": ("¿Qué país tiene más habitantes, {a} o {b}?",),
        "uk": ("У якій країні більше населення: {a} чи {b}?",),
        "it": ("Quale paese ha più abitanti, {a} o {b}?",), "pt": ("Qual país tem mais habitantes, {a} ou {b}?",)},
    "fewer_people": {
        "en": ("Which country has fewer inhabitants, {a} or {b}?",),
        "de": ("Welches Land hat weniger Einwohner, {a} oder {b}?",),
        "ru": ("В какой стране меньше жителей: {a} или {b}?",), "zh": ("{a}和{b}哪个国家人口更少？",),
        "fr": ("Quel pays a le moins d'habitants, {a} ou {b} ?",),
        "es": ("¿Qué país tiene menos habitantes, {a} o {b}?",)},
    "larger_area": {
        "en": ("Which country is larger by area, {a} or {b}?",),
        "de": ("Welches Land hat die größere Fläche, {a} oder {b}?",),
        "ru": ("Какая страна больше по площади: {a} или {b}?",), "zh": ("{a}和{b}哪个国家面积更大？",),
        "fr": ("Quel pays a la plus grande superficie, {a} ou {b} ?",),
        "es": ("¿Qué país tiene mayor superficie, {a} o {b}?",),
        "uk": ("Яка країна має більшу площу: {a} чи {b}?",)},
    "founded_earlier": {
        "en": ("Which country was founded earlier, {a} or {b}?",),
        "de": ("Welches Land wurde früher gegründet, {a} oder {b}?",),
        "ru": ("Какая страна была основана раньше: {a} или {b}?",), "zh": ("{a}和{b}哪个国家成立得更早？",),
        "fr": ("Quel pays a été fondé plus tôt, {a} ou {b} ?",),
        "es": ("¿Qué país fue fundado antes, {a} o {b}?",)},
    "born_in": {
        "en": ("Was {a} born in {y}?",), "de": ("Wurde {a} {y} geboren?",), "ru": ("{a} родился в {y} году?",),
        "zh": ("{a}是{y}年出生的吗？",), "fr": ("{a} est-il né en {y} ?",), "es": ("¿{a} nació en {y}?",),
        "uk": ("Чи народився {a} у {y} році?",), "it": ("{a} è nato nel {y}?",), "pt": ("{a} nasceu em {y}?",)},
    "born_before": {
        "en": ("Was {a} born before {y}?",), "de": ("Wurde {a} vor {y} geboren?",),
        "ru": ("{a} родился до {y} года?",), "zh": ("{a}是在{y}年以前出生的吗？",),
        "fr": ("{a} est-il né avant {y} ?",), "es": ("¿{a} nació antes de {y}?",)},
    "people_over": {
        "en": ("Does {a} have more than {n} inhabitants?",), "de": ("Hat {a} mehr als {n} Einwohner?",),
        "ru": ("Население {a} больше {n}?",), "zh": ("{a}的人口超过{n}吗？",),
        "fr": ("{a} a-t-il plus de {n} habitants ?",), "es": ("¿{a} tiene más de {n} habitantes?",)},
    "taller_than": {
        "en": ("Is {a} taller than {b}?",), "ru": ("{a} выше ростом, чем {b}?",), "zh": ("{a}比{b}更高吗？",),
        "fr": ("{a} est-il plus grand que {b} ?",), "es": ("¿Es {a} más alto que {b}?",)},
    "capital": {
        "en": ("Is {a} the capital of {b}?",), "de": ("Ist {a} die Hauptstadt von {b}?",),
        "ru": ("Является ли {a} столицей {b}?",), "zh": ("{a}是{b}的首都吗？",),
        "fr": ("{a} est-elle la capitale de {b} ?",), "es": ("¿Es {a} la capital de {b}?",),
        "uk": ("Чи є {a} столицею {b}?",), "it": ("{a} è la capitale di {b}?",), "pt": ("{a} é a capital de {b}?",)},
    "count_languages": {
        "en": ("How many official languages does {a} have?",), "de": ("Wie viele Amtssprachen hat {a}?",),
        "ru": ("Сколько официальных языков в {a}?",), "zh": ("{a}有几种官方语言？",),
        "fr": ("Combien de langues officielles a {a} ?",), "es": ("¿Cuántos idiomas oficiales tiene {a}?",),
        "uk": ("Скільки офіційних мов має {a}?",), "it": ("Quante lingue ufficiali ha {a}?",),
        "pt": ("Quantas línguas oficiais tem {a}?",)},
    "count_neighbours": {
        "en": ("How many countries share a border with {a}?",), "de": ("Wie viele Nachbarländer hat {a}?",),
        "ru": ("Со сколькими странами граничит {a}?",), "zh": ("{a}与多少个国家接壤？",),
        "fr": ("Avec combien de pays {a} a-t-il une frontière ?",), "es": ("¿Con cuántos países limita {a}?",)},
    "most_populous_neighbour": {
        "en": ("Which neighbouring country of {a} has the largest population?",),
        "de": ("Welches Nachbarland von {a} hat die meisten Einwohner?",),
        "ru": ("Какая соседняя с {a} страна имеет самое большое население?",), "zh": ("{a}的邻国中哪个人口最多？",),
        "fr": ("Quel pays voisin de {a} a la plus grande population ?",),
        "es": ("¿Qué país vecino de {a} tiene la mayor población?",)},
    "smallest_neighbour": {
        "en": ("Which country bordering {a} has the smallest area?",),
        "de": ("Welches Nachbarland von {a} hat die kleinste Fläche?",),
        "ru": ("Какая соседняя с {a} страна самая маленькая по площади?",), "zh": ("{a}的邻国中哪个面积最小？",),
        "fr": ("Quel pays voisin de {a} a la plus petite superficie ?",),
        "es": ("¿Qué país vecino de {a} tiene la menor superficie?",)},
    "oldest_of_three": {
        "en": ("Who is the oldest of {a}, {b} and {c}?",), "de": ("Wer ist der Älteste von {a}, {b} und {c}?",),
        "ru": ("Кто старше всех: {a}, {b} или {c}?",), "zh": ("{a}、{b}和{c}中谁最年长？",),
        "fr": ("Qui est le plus âgé parmi {a}, {b} et {c} ?",), "es": ("¿Quién es el mayor de {a}, {b} y {c}?",)},
    "largest_of_three": {
        "en": ("Which of {a}, {b} and {c} has the largest area?",),
        "de": ("Welches Land hat die größte Fläche: {a}, {b} oder {c}?",),
        "ru": ("Какая из стран {a}, {b} и {c} самая большая по площади?",),
        "zh": ("{a}、{b}和{c}中哪个国家面积最大？",),
        "fr": ("Lequel de {a}, {b} et {c} a la plus grande superficie ?",),
        "es": ("¿Cuál de {a}, {b} y {c} tiene la mayor superficie?",)},
    "fewer_people_than": {
        "en": ("Which countries have fewer than {n} inhabitants?",),
        "de": ("Welche Länder haben weniger als {n} Einwohner?",),
        "ru": ("Какие страны имеют население меньше {n}?",), "zh": ("哪些国家的人口少于{n}？",),
        "fr": ("Quels pays ont moins de {n} habitants ?",), "es": ("¿Qué países tienen menos de {n} habitantes?",)},
    "founded_after": {
        "en": ("Which countries were founded after {y}?",), "de": ("Welche Länder wurden nach {y} gegründet?",),
        "ru": ("Какие страны были основаны после {y} года?",), "zh": ("哪些国家是{y}年以后成立的？",),
        "fr": ("Quels pays ont été fondés après {y} ?",), "es": ("¿Qué países fueron fundados después de {y}?",)},
}

# two-entity comparisons: shape -> (class, property, direction)
COMPARISONS = {"older": (HUMAN, "P569", "ASC"), "younger": (HUMAN, "P569", "DESC"),
               "taller": (HUMAN, "P2048", "DESC"), "heavier": (HUMAN, "P2067", "DESC"),
               "more_people": (COUNTRY, "P1082", "DESC"), "fewer_people": (COUNTRY, "P1082", "ASC"),
               "larger_area": (COUNTRY, "P2046", "DESC"), "founded_earlier": (COUNTRY, "P571", "ASC")}
_SCALE = {"en": "{} million", "de": "{} Millionen", "ru": "{} миллионов", "fr": "{} millions", "es": "{} millones"}
_GOLD_TOKEN = re.compile(r"wd:Q\d+|wdt:P\d+")


@dataclass(frozen=True)
class Synthetic:
    """One templated question: its text, gold query and the split of its entities."""

    id: str
    lang: str
    text: str
    shape: str
    gold_sparql: str
    split: str


@dataclass
class Facts:
    """The values the templates draw on, per entity (QIDs, values as KG terms' text)."""

    values: dict[str, dict[str, str]]  # pid -> {qid: lexical value}
    capital: dict[str, str]  # country -> capital
    neighbours: dict[str, list[str]]
    languages: dict[str, int]
    labels: dict[str, dict[str, list[str]]]  # qid -> {lang: names, the English label first}


def entity_split(qid: str) -> str:
    """The split every question about ``qid`` belongs to."""
    return split_of(f"entity:{qid}")


def load_facts(kg: KG, exclude: Iterable[str] = (), *, timeout_s: float = 60.0) -> Facts:
    """Every value the templates use, from the KG; entities in ``exclude`` are left out."""
    banned = set(exclude)

    def pairs(sparql: str) -> list[tuple[str, str]]:
        rows = kg.query(sparql, timeout_s=timeout_s, max_rows=200_000).rows
        return [(r["s"].value.rsplit("/", 1)[-1], r["o"].value.rsplit("/", 1)[-1]) for r in rows]

    def typed(cls: str, pid: str) -> dict[str, str]:
        found = pairs(f"SELECT ?s ?o WHERE {{ ?s wdt:P31 wd:{cls} . ?s wdt:{pid} ?o }}")
        return {s: o for s, o in found if s not in banned}

    values = {pid: typed(cls, pid) for cls, pid, _ in COMPARISONS.values()}
    capital = {s: o for s, o in pairs(f"SELECT ?s ?o WHERE {{ ?s wdt:P31 wd:{COUNTRY} . ?s wdt:P36 ?o }}")
               if s not in banned and o not in banned}
    neighbours: dict[str, list[str]] = {}
    for s, o in pairs(f"SELECT ?s ?o WHERE {{ ?s wdt:P31 wd:{COUNTRY} . ?s wdt:P47 ?o . ?o wdt:P31 wd:{COUNTRY} }}"):
        if s not in banned and o not in banned:
            neighbours.setdefault(s, []).append(o)
    languages: dict[str, int] = {}
    for s, _ in pairs(f"SELECT ?s ?o WHERE {{ ?s wdt:P31 wd:{COUNTRY} . ?s wdt:P37 ?o }}"):
        if s not in banned:
            languages[s] = languages.get(s, 0) + 1
    qids = {q for table in values.values() for q in table} | set(capital) | set(capital.values()) | set(neighbours)
    qids |= {o for ns in neighbours.values() for o in ns}
    return Facts(values, capital, neighbours, languages, entity_names(kg, qids, timeout_s))


def entity_names(kg: KG, qids: Iterable[str], timeout_s: float) -> dict[str, dict[str, list[str]]]:
    """``{qid: {lang: names}}``: the ``rdfs:label`` first (English in this KG), then the
    aliases (``skos:altLabel``, the only non-English names this KG has) that read like names."""
    iris = [entity_iri(q) for q in qids]
    labels = fetch_labels(kg, iris, timeout_s=timeout_s, properties=(RDFS_LABEL,))
    aliases = fetch_labels(kg, iris, timeout_s=timeout_s, properties=(SKOS_ALT,))
    out: dict[str, dict[str, list[str]]] = {}
    for iri, by_lang in labels.items():
        names = {lang: list(values) for lang, values in by_lang.items()}
        for lang, values in aliases[iri].items():
            kept = names.setdefault(lang, [])
            kept += [a for a in values if a not in kept and _reads_like_a_name(a)]
        out[iri.rsplit("/", 1)[-1]] = names
    return out


def _reads_like_a_name(alias: str) -> bool:
    """Not a code ("KE", "KEN"), flag, number or one-character abbreviation."""
    cjk = any("\u3040" <= ch <= "\u9fff" for ch in alias)
    return (len(alias) >= (2 if cjk else 3) and not (alias.isascii() and alias.isupper())
            and all(ch.isalpha() or ch in " -'.’·" for ch in alias))


def name_in(facts: Facts, qid: str, lang: str, rng: random.Random) -> str | None:
    """A name of the entity for a question in ``lang``: the English label for English,
    else one of the language's aliases (Latin-script languages may use the English label)."""
    names = facts.labels.get(qid, {})
    if lang != "en" and names.get(lang):
        return rng.choice(names[lang])
    english = names.get("en")
    return english[0] if english and (lang == "en" or lang in LATIN) else None


def _year(value: str) -> int | None:
    m = re.match(r"^(\d{4})-", value)
    return int(m.group(1)) if m else None


def _number(value: str) -> Decimal | None:
    try:
        return Decimal(value)
    except ArithmeticError:
        return None


def _millions(n: int, lang: str) -> str:
    """``n`` millions written the way people type it in ``lang``."""
    if lang == "zh":
        return f"{n * 100}万"
    if lang in _SCALE:
        return _SCALE[lang].format(n)
    return f"{n * 1_000_000:,}".replace(",", " ")


def _group_by_split(qids: Iterable[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for q in sorted(qids):
        out.setdefault(entity_split(q), []).append(q)
    return out


TRAIN_FACTOR = 3  # the train split gets this many times the tuples of dev and test


def _tuples(qids: Sequence[str], size: int, per_split: int, rng: random.Random) -> Iterator[tuple[str, ...]]:
    """Distinct random ``size``-tuples of distinct entities of one split: ``per_split`` for
    dev and test, :data:`TRAIN_FACTOR` times as many for train."""
    for split, group in sorted(_group_by_split(qids).items()):
        if len(group) < size:
            continue
        n = per_split * (TRAIN_FACTOR if split == "train" else 1)
        seen: set[tuple[str, ...]] = set()
        for _ in range(n * 4):
            pick = tuple(rng.sample(group, size))
            if pick not in seen:
                seen.add(pick)
                yield pick
            if len(seen) >= n:
                break


Make = Callable[[tuple[str, ...]], tuple[dict[str, object], str] | None]


def generate(facts: Facts, *, per_template: int = 4, seed: int = 13,
             langs: Sequence[str] = LANGS) -> list[Synthetic]:
    """Every templated question: ``per_template`` entity tuples per shape and language for the
    dev and test splits (:data:`TRAIN_FACTOR` times as many for train)."""
    rng = random.Random(seed)
    out: list[Synthetic] = []
    for shape, (tuples, make) in _recipes(facts, per_template, rng).items():
        for entities in tuples:
            made = make(entities)
            if made is None:
                continue
            slots, gold = made
            split = entity_split(entities[0]) if entities and entities[0].startswith("Q") else split_of(
                f"{shape}:{entities}")
            for lang in langs:
                for t, template in enumerate(TEMPLATES[shape].get(lang, ())):
                    text = _fill(template, slots, facts, lang, rng)
                    if text is not None:
                        out.append(Synthetic(f"synthetic:{shape}:{'-'.join(entities)}:{t}", lang, text, shape, gold,
                                             split))
    return out


def _fill(template: str, slots: Mapping[str, object], facts: Facts, lang: str, rng: random.Random) -> str | None:
    names: dict[str, str] = {}
    for key, value in slots.items():
        if isinstance(value, str) and value.startswith("Q"):
            name = name_in(facts, value, lang, rng)
            if name is None:
                return None
            names[key] = name
        elif key == "n":
            names[key] = _millions(int(value), lang)  # type: ignore[call-overload]
        else:
            names[key] = str(value)
    return template.format(**names)


def _recipes(facts: Facts, n: int, rng: random.Random) -> dict[str, tuple[Iterable[tuple[str, ...]], Make]]:
    """shape -> (entity tuples, the function making slots and gold for a tuple)."""
    v = facts.values
    out: dict[str, tuple[Iterable[tuple[str, ...]], Make]] = {}
    for shape, (_, pid, direction) in COMPARISONS.items():
        out[shape] = (list(_tuples(list(v[pid]), 2, n, rng)), _comparison(v[pid], pid, direction))
    born = v["P569"]
    out["born_in"] = (list(_tuples(list(born), 1, n, rng)), lambda e: _born(born, e, rng, before=False))
    out["born_before"] = (list(_tuples(list(born), 1, n, rng)), lambda e: _born(born, e, rng, before=True))
    people = v["P1082"]
    out["people_over"] = (list(_tuples(list(people), 1, n, rng)), lambda e: _people_over(people, e, rng))
    heights = v["P2048"]
    out["taller_than"] = (list(_tuples(list(heights), 2, n, rng)), lambda e: _taller(heights, e))
    out["capital"] = (list(_tuples(list(facts.capital), 2, n, rng)), lambda e: _capital(facts.capital, e, rng))
    out["count_languages"] = (list(_tuples(list(facts.languages), 1, n, rng)),
                              lambda e: ({"a": e[0]}, f"SELECT (COUNT(DISTINCT ?x) AS ?answer) WHERE "
                                                      f"{{ wd:{e[0]} wdt:P37 ?x }}"))
    out["count_neighbours"] = (list(_tuples(list(facts.neighbours), 1, n, rng)),
                               lambda e: ({"a": e[0]}, f"SELECT (COUNT(DISTINCT ?x) AS ?answer) WHERE "
                                                       f"{{ wd:{e[0]} wdt:P47 ?x . ?x wdt:P31 wd:{COUNTRY} }}"))
    for shape, pid, direction in (("most_populous_neighbour", "P1082", "DESC"), ("smallest_neighbour", "P2046", "ASC")):
        described = [c for c, ns in facts.neighbours.items() if len(ns) >= 2 and all(o in v[pid] for o in ns)]
        out[shape] = (list(_tuples(described, 1, n, rng)), _neighbour_superlative(pid, direction))
    out["oldest_of_three"] = (list(_tuples(list(born), 3, n, rng)), _of_three(born, "P569", "ASC"))
    out["largest_of_three"] = (list(_tuples(list(v["P2046"]), 3, n, rng)), _of_three(v["P2046"], "P2046", "DESC"))
    out["fewer_people_than"] = ([(str(m),) for m in (1, 2, 5)], _fewer_people_than)
    out["founded_after"] = ([(str(y),) for y in (1960, 1975, 1991, 1999)], _founded_after)
    return out


def _fewer_people_than(e: tuple[str, ...]) -> tuple[dict[str, object], str]:
    millions = int(e[0])
    return ({"n": millions}, f"SELECT DISTINCT ?answer WHERE {{ ?answer wdt:P31 wd:{COUNTRY} . "
                             f"?answer wdt:P1082 ?v FILTER(?v < {millions * 1_000_000}) }}")


def _founded_after(e: tuple[str, ...]) -> tuple[dict[str, object], str]:
    year = int(e[0])
    return ({"y": year}, f"SELECT DISTINCT ?answer WHERE {{ ?answer wdt:P31 wd:{COUNTRY} . ?answer wdt:P571 ?v "
                         f'FILTER(?v >= "{year + 1}-01-01T00:00:00Z"^^xsd:dateTime) }}')


def _comparison(values: Mapping[str, str], pid: str, direction: str) -> Make:
    def make(e: tuple[str, ...]) -> tuple[dict[str, object], str] | None:
        if values[e[0]] == values[e[1]]:
            return None
        return ({"a": e[0], "b": e[1]}, f"SELECT ?answer WHERE {{ VALUES ?answer {{ wd:{e[0]} wd:{e[1]} }} "
                                        f"?answer wdt:{pid} ?value }} ORDER BY {direction}(?value) LIMIT 1")
    return make


def _born(born: Mapping[str, str], e: tuple[str, ...], rng: random.Random, *, before: bool
          ) -> tuple[dict[str, object], str] | None:
    year = _year(born[e[0]])
    if year is None:
        return None
    asked = year + rng.choice((0, 0, -2, -1, 1, 3)) if not before else year + rng.choice((-3, -1, 1, 2, 5))
    if before:
        return ({"a": e[0], "y": asked}, f'ASK {{ wd:{e[0]} wdt:P569 ?v FILTER(?v < "{asked}-01-01T00:00:00Z"'
                                         f'^^xsd:dateTime) }}')
    return {"a": e[0], "y": asked}, f"ASK {{ wd:{e[0]} wdt:P569 ?v FILTER(YEAR(?v) = {asked}) }}"


def _people_over(people: Mapping[str, str], e: tuple[str, ...], rng: random.Random
                 ) -> tuple[dict[str, object], str] | None:
    value = _number(people[e[0]])
    if value is None or value < 2_000_000:
        return None
    millions = int(value / 1_000_000 * Decimal(rng.choice((0.5, 0.7, 1.4, 2.0))))
    if millions < 1:
        return None
    return ({"a": e[0], "n": millions},
            f"ASK {{ wd:{e[0]} wdt:P1082 ?v FILTER(?v > {millions * 1_000_000}) }}")


def _taller(heights: Mapping[str, str], e: tuple[str, ...]) -> tuple[dict[str, object], str] | None:
    if heights[e[0]] == heights[e[1]]:
        return None
    return ({"a": e[0], "b": e[1]},
            f"ASK {{ wd:{e[0]} wdt:P2048 ?a . wd:{e[1]} wdt:P2048 ?b FILTER(?a > ?b) }}")


def _capital(capital: Mapping[str, str], e: tuple[str, ...], rng: random.Random
             ) -> tuple[dict[str, object], str] | None:
    country, other = e
    city = capital[country] if rng.random() < 0.5 else capital[other]
    if entity_split(city) != entity_split(country):  # the city is named too: same split only
        return None
    return {"a": city, "b": country}, f"ASK {{ wd:{country} wdt:P36 wd:{city} }}"


def _neighbour_superlative(pid: str, direction: str) -> Make:
    def make(e: tuple[str, ...]) -> tuple[dict[str, object], str]:
        return ({"a": e[0]}, f"SELECT ?answer WHERE {{ wd:{e[0]} wdt:P47 ?answer . ?answer wdt:P31 wd:{COUNTRY} . "
                             f"?answer wdt:{pid} ?value }} ORDER BY {direction}(?value) LIMIT 1")
    return make


def _of_three(values: Mapping[str, str], pid: str, direction: str) -> Make:
    def make(e: tuple[str, ...]) -> tuple[dict[str, object], str] | None:
        if len({values[q] for q in e}) < 3:
            return None
        return ({"a": e[0], "b": e[1], "c": e[2]},
                f"SELECT ?answer WHERE {{ VALUES ?answer {{ {' '.join('wd:' + q for q in e)} }} "
                f"?answer wdt:{pid} ?value }} ORDER BY {direction}(?value) LIMIT 1")
    return make


def gold_tokens(sparql: str) -> set[str]:
    """The entities and properties a correct candidate must mention (``wd:Q…``, ``wdt:P…``),
    leaving out class constraints (``wdt:P31`` and its objects)."""
    classes = set(re.findall(r"wdt:P31 (wd:Q\d+)", sparql))
    return {t for t in _GOLD_TOKEN.findall(sparql) if t != "wdt:P31" and t not in classes}


def mentions_gold(candidate_sparql: str, gold_sparql: str) -> bool:
    """Whether a candidate names every entity and property of the gold query."""
    return gold_tokens(gold_sparql) <= set(_GOLD_TOKEN.findall(candidate_sparql))


def to_items(kg: KG, questions: Iterable[Synthetic], *, timeout_s: float = 30.0) -> list[EvalItem]:
    """Evaluation items with gold from running each gold query; questions whose gold is
    empty (nothing to check against) are dropped."""
    gold_cache: dict[str, AnswerSet | None] = {}
    items = []
    for s in questions:
        if s.gold_sparql not in gold_cache:
            result = kg.query(s.gold_sparql, timeout_s=timeout_s)
            answers = AnswerSet(list(result.vars), list(result.rows), result.boolean)
            gold_cache[s.gold_sparql] = None if answers.is_empty() else answers
        answers = gold_cache[s.gold_sparql]
        if answers is None:
            continue
        question = Question(s.id, [QuestionText(s.lang, s.text)], {"sparql": s.gold_sparql}, answers,
                            extra={"kind": "answerable", "source": DATASET, "shape": s.shape, "split": s.split})
        items.append(EvalItem(question, s.lang, s.text, DATASET))
    return items
