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

from core.text import is_cjk
from evaluation.formats import AnswerSet, Question, QuestionText
from evaluation.harness import EvalItem
from evaluation.splits import split_of
from kg.client import KG, fetch_labels
from kg.sparql import RDFS_LABEL, SKOS_ALT, entity_iri
from lang import SUPPORTED
from lang import get as language

DATASET = "synthetic"
LANGS: tuple[str, ...] = tuple(code for code in SUPPORTED if language(code).complex_templates)
"""The languages with templates (``lang/<code>/templates.py``)."""
LATIN = {code for code in LANGS if language(code).script == "latin"}  # may fall back to the English name
HUMAN, COUNTRY = "Q5", "Q6256"

SHAPES: tuple[str, ...] = ("older", "younger", "taller", "heavier", "more_people", "fewer_people", "larger_area",
                          "founded_earlier", "born_in", "born_before", "people_over", "taller_than", "capital",
                          "count_languages", "count_neighbours", "most_populous_neighbour", "smallest_neighbour",
                          "oldest_of_three", "largest_of_three", "fewer_people_than", "founded_after")
"""The templated shapes; each language's templates are in ``lang/<code>/templates.py``."""

# shape -> lang -> templates ({a}, {b}, {c}: entity names; {n}: number; {y}: year)
TEMPLATES: dict[str, dict[str, tuple[str, ...]]] = {
    shape: {code: templates for code in SUPPORTED if (templates := language(code).complex_templates.get(shape))}
    for shape in SHAPES}

# two-entity comparisons: shape -> (class, property, direction)
COMPARISONS = {"older": (HUMAN, "P569", "ASC"), "younger": (HUMAN, "P569", "DESC"),
               "taller": (HUMAN, "P2048", "DESC"), "heavier": (HUMAN, "P2067", "DESC"),
               "more_people": (COUNTRY, "P1082", "DESC"), "fewer_people": (COUNTRY, "P1082", "ASC"),
               "larger_area": (COUNTRY, "P2046", "DESC"), "founded_earlier": (COUNTRY, "P571", "ASC")}
_SCALE = {code: language(code).million for code in SUPPORTED if language(code).million}
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
    cjk = any(is_cjk(ch) for ch in alias)
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
                              lambda e: ({"a": e[0]}, f"SELECT (COUNT(DISTINCT ?answer) AS ?count) WHERE "
                                                      f"{{ wd:{e[0]} wdt:P37 ?answer }}"))
    out["count_neighbours"] = (list(_tuples(list(facts.neighbours), 1, n, rng)),
                               lambda e: ({"a": e[0]}, f"SELECT (COUNT(DISTINCT ?answer) AS ?count) WHERE "
                                                       f"{{ wd:{e[0]} wdt:P47 ?answer . "
                                                       f"?answer wdt:P31 wd:{COUNTRY} }}"))
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
