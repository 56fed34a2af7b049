"""The complex layer's words: the literal properties with their words per language, the
gradable words with their (property, direction) readings, the cue words (count,
superlative, ordinal, question, alternative, list, "than", yes/no openers), the property
sets the trust rules rely on, and the matching of cue words in normalized text.

The direction of every gradable word lives in :data:`GRADABLES` / :data:`DIRECTION_WORDS`
and the literal properties in :data:`LITERAL_PROPERTIES`; the words themselves are each
language's, in ``lang/<code>/shape_words.py`` (:class:`lang.base.ShapeWords`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, TypeVar

from core.phrases import Phrase, PhraseMatcher, Word, non_overlapping
from core.text import CJK, CJK_CLASS, fold, normalize_cue_text
from lang import SUPPORTED
from lang import get as language
from lang.base import ShapeWords
from qa.candidate import Direction

ValueKind = Literal["date", "quantity"]
_Words = TypeVar("_Words", tuple[str, ...], str)

# --------------------------------------------------------------------------- tables


def _table(kind: Callable[[ShapeWords], _Words]) -> dict[str, _Words]:
    """One kind of word, per supported language that has it (``lang/<code>/shape_words.py``)."""
    return {code: words for code in SUPPORTED if (words := kind(language(code).shape_words))}


@dataclass(frozen=True)
class LiteralProperty:
    """A property with literal values: its kind, whether ORDER BY on it is safe in the
    embedded store, its SI unit (values are SI-normalized) and its words per language.
    A word ending in ``*`` is a stem (matches any ending)."""

    pid: str
    kind: ValueKind
    words: Mapping[str, tuple[str, ...]]
    unit: str | None = None
    orderable: bool = True


def _lp(pid: str, kind: ValueKind, unit: str | None = None, orderable: bool = True) -> LiteralProperty:
    """A literal property with its words in every language that has some (``lang/<code>/shape_words.py``)."""
    return LiteralProperty(pid, kind, _table(lambda words: words.literal_properties.get(pid, ())), unit, orderable)


# Properties whose values include decimals the embedded store cannot parse (more than
# 18 fraction digits, exponents) are not orderable: ORDER BY over them aborts the
# process in pyoxigraph.  Two-entity comparisons over them are still computed in Python.
LITERAL_PROPERTIES: dict[str, LiteralProperty] = {p.pid: p for p in (
    _lp("P569", "date"), _lp("P570", "date"), _lp("P571", "date"), _lp("P576", "date"), _lp("P580", "date"),
    _lp("P582", "date"), _lp("P577", "date"), _lp("P1082", "quantity"), _lp("P2046", "quantity", "m2"),
    _lp("P2048", "quantity", "m"), _lp("P2067", "quantity", "kg"), _lp("P2131", "quantity"), _lp("P2132", "quantity"),
    _lp("P1081", "quantity"), _lp("P2250", "quantity", "s", False), _lp("P4841", "quantity"),
    _lp("P1279", "quantity"), _lp("P1198", "quantity"), _lp("P2855", "quantity"), _lp("P2997", "quantity"),
    _lp("P3001", "quantity"), _lp("P3000", "quantity"), _lp("P2884", "quantity"), _lp("P2219", "quantity"),
    _lp("P2134", "quantity"), _lp("P3864", "quantity"), _lp("P6897", "quantity"), _lp("P1125", "quantity"),
    _lp("P1132", "quantity"), _lp("P1350", "quantity"), _lp("P1351", "quantity"), _lp("P3157", "quantity", "m"),
    _lp("P2043", "quantity", "m"), _lp("P2052", "quantity", "m/s", False), _lp("P1110", "quantity"),
    _lp("P1128", "quantity"), _lp("P3529", "quantity"),
)}

DATE_PROPERTIES: tuple[str, ...] = tuple(p for p, lp in LITERAL_PROPERTIES.items() if lp.kind == "date")


@dataclass(frozen=True)
class Gradable:
    """A gradable word ("older", "größer", "старше", "更大") and the (property,
    direction, weight) readings it can have; the winner of a comparison is the first
    value in ``direction`` order ("older" = ``P569 ASC``: the earlier birth date)."""

    name: str
    words: Mapping[str, tuple[str, ...]]
    readings: tuple[tuple[str, Direction, float], ...]


def _dated(direction: Direction) -> tuple[tuple[str, Direction, float], ...]:
    weights = {"P571": 0.9, "P569": 0.9, "P580": 0.8, "P577": 0.8, "P576": 0.5, "P582": 0.6, "P570": 0.6}
    return tuple((p, direction, w) for p, w in weights.items())


GRADABLES: tuple[Gradable, ...] = tuple(
    Gradable(name, _table(lambda words, name=name: words.gradables.get(name, ())), readings) for name, readings in (
        ("older", (("P569", "ASC", 1.0), ("P571", "ASC", 0.9), ("P580", "ASC", 0.4))),
        ("younger", (("P569", "DESC", 1.0), ("P571", "DESC", 0.9), ("P580", "DESC", 0.4))),
        ("taller", (("P2048", "DESC", 1.0),)),
        ("shorter", (("P2048", "ASC", 1.0), ("P3157", "ASC", 0.7), ("P2043", "ASC", 0.7))),
        ("longer", (("P3157", "DESC", 1.0), ("P2043", "DESC", 1.0))),
        ("heavier", (("P2067", "DESC", 1.0),)),
        ("lighter", (("P2067", "ASC", 1.0),)),
        ("bigger", (("P2046", "DESC", 1.0), ("P1082", "DESC", 0.9), ("P2048", "DESC", 0.5))),
        ("smaller", (("P2046", "ASC", 1.0), ("P1082", "ASC", 0.9), ("P2048", "ASC", 0.5))),
        ("earlier", _dated("ASC")),
        ("later", _dated("DESC")),
        ("richer", (("P2132", "DESC", 1.0), ("P2131", "DESC", 0.9))),
        ("poorer", (("P2132", "ASC", 1.0), ("P2131", "ASC", 0.9))),
        ("faster", (("P2052", "DESC", 1.0),)),
    ))

DIRECTION_WORDS: dict[Direction, Mapping[str, tuple[str, ...]]] = {
    "DESC": _table(lambda words: words.more), "ASC": _table(lambda words: words.less)}

SUPERLATIVE_WORDS: Mapping[str, tuple[str, ...]] = _table(lambda words: words.superlative)
# ordinals: "the first president", "the 4th largest" need an order the KG does not hold
# (qualifiers) or an offset, so simple candidates are not trusted for them
ORDINAL_WORDS: Mapping[str, tuple[str, ...]] = _table(lambda words: words.ordinal)

ORDINAL_FORMS: Mapping[str, str] = _table(lambda words: words.ordinal_form)
"""Ordinals past those :data:`ORDINAL_WORDS` lists, by their form ("fortieth", « cuadragésimo »,
« quarantesimo », « vierzigste »): a question about the n-th of something is no plain lookup."""

COUNT_WORDS: Mapping[str, tuple[str, ...]] = _table(lambda words: words.count)
# question words: a question that has one is not a yes/no question, whatever particle it carries
WH_WORDS: Mapping[str, tuple[str, ...]] = _table(lambda words: words.wh)

ALTERNATIVE_WORDS: Mapping[str, tuple[str, ...]] = _table(lambda words: words.alternative)

QUESTION_PARTICLES: Mapping[str, tuple[str, ...]] = _table(lambda words: words.question_particles)
"""Alternative words that also end a question without offering a choice (Japanese
「…生まれましたか？」 asks; 「AかBか」 chooses)."""

LIST_WORDS: Mapping[str, tuple[str, ...]] = _table(lambda words: words.lists)
QUESTION_WORDS: tuple[str, ...] = tuple(w for words in _table(lambda words: words.asking).values() for w in words)
"""Every language's words that ask for a thing (:attr:`lang.base.ShapeWords.asking`)."""

THAN_WORDS: Mapping[str, tuple[str, ...]] = _table(lambda words: words.than)

# the constraint shapes' cues (backends/local/constraints.py): a list asked for, what two
# things share, whether someone is still alive, an exclusion
LISTING_WORDS: Mapping[str, tuple[str, ...]] = _table(lambda words: words.listing)
BOTH_WORDS: Mapping[str, tuple[str, ...]] = _table(lambda words: words.both)
BOTH_AND: Mapping[str, tuple[tuple[str, str], ...]] = _table(lambda words: words.both_and)
ALIVE_WORDS: Mapping[str, tuple[str, ...]] = _table(lambda words: words.alive)
DEAD_WORDS: Mapping[str, tuple[str, ...]] = _table(lambda words: words.dead)
NEGATION_WORDS: Mapping[str, tuple[str, ...]] = _table(lambda words: words.negation)
CONTRAST_WORDS: Mapping[str, tuple[str, ...]] = _table(lambda words: words.contrast)
RELATIVE_WORDS: Mapping[str, tuple[str, ...]] = _table(lambda words: words.relative)

# words for an amount of things: a size word that grades one ("the largest number of
# lakes", « la mayor cantidad de lagos ») asks for the most things, not the largest entity
AMOUNT_WORDS: Mapping[str, tuple[str, ...]] = _table(lambda words: words.amount)

YES_NO_OPENERS: Mapping[str, tuple[str, ...]] = _table(lambda words: words.yes_no_openers)
YES_NO_ANYWHERE: Mapping[str, tuple[str, ...]] = _table(lambda words: words.yes_no_anywhere)
"""Marks of a yes/no question anywhere in it (« ли », 吗): particles a question word wins over."""

# Properties that have one value per subject, so a different value in the KG refutes an
# ASK ("Was Einstein born in Berlin?" -> no, the KG says Ulm).
FUNCTIONAL_PROPERTIES: frozenset[str] = frozenset({
    "P19", "P20", "P21", "P36", "P569", "P570", "P571", "P576", "P577",
})
# Properties for which the KG is known to hold every value of the subjects it describes;
# only for these may a count be 0 (no property of the bundled subset qualifies).
COMPLETE_PROPERTIES: frozenset[str] = frozenset()
# The properties that make a mention a class-like set ("country", "cyclist").
TYPE_PROPERTIES: tuple[str, ...] = ("P31", "P106")
# Share of a set's members that must have the ordering/filtered property: a superlative
# or a count over a set the KG only partly describes is a guess (the KG lacks the
# population of China, so "the most populous country" must not be India).
# symmetric relations: when the KG's two directions disagree, sets built on them are
# incomplete ("countries bordering Uganda" lacks Rwanda one way round)
SYMMETRIC_PROPERTIES: frozenset[str] = frozenset({"P47", "P26", "P3373", "P530", "P190"})
# facts only a dead person has: date, place, cause and manner of death, killed by (the date
# first: a "still alive" test always names it, and the verbalization says it as "alive")
DEATH_PROPERTIES: tuple[str, ...] = ("P570", "P20", "P509", "P1196", "P157")
# quantities that answer "how many …" directly ("how many inhabitants does Berlin have")
COUNTABLE_PROPERTIES: frozenset[str] = frozenset({"P1082", "P1132", "P1128", "P1110", "P1350", "P1351", "P1603"})
MIN_COVERAGE_ORDER = 0.9
MIN_COVERAGE_LIST = 0.7
COVERAGE_SAMPLE = 2000
# gradable words that fix the answer form ("who is older", "the bigger one")
STRONG_GRADABLES: frozenset[str] = frozenset({
    "older", "younger", "taller", "shorter", "longer", "heavier", "lighter", "bigger", "smaller", "richer",
    "poorer", "faster"})

# --------------------------------------------------------------------------- text matching

_LETTER_BEFORE = f"(?<![^\\W_{CJK_CLASS}])"
_LETTER_AFTER = f"(?![^\\W_{CJK_CLASS}])"


@lru_cache(maxsize=8192)
def word_pattern(word: str) -> re.Pattern[str]:
    """``foo`` (whole word), ``foo*`` (stem), ``*est`` (ending), ``am *sten`` (inner
    wildcard), or a CJK string (plain substring)."""
    w = normalize_cue_text(word)
    if CJK.search(w):
        return re.compile(re.escape(w).replace(r"\*", r"\w*"))
    parts = [re.escape(p).replace(r"\*", r"\w*") for p in w.split()]
    body = r"\s+".join(parts)
    start = _LETTER_BEFORE if not w.startswith("*") else _LETTER_BEFORE + r"\w"
    end = "" if w.endswith("*") else _LETTER_AFTER
    return re.compile(start + body + end)


def find_words(text: str, words: Iterable[str]) -> list[tuple[int, int, str]]:
    """``(start, end, word)`` of every occurrence of ``words`` in normalized ``text``
    (what ``word_pattern(word).finditer(text)`` finds, by one automaton per word list)."""
    words = tuple(words)
    matcher, terms = _word_matcher(words)
    found = matcher.find_all(text)
    hits = []
    for word, term in zip(words, terms, strict=True):
        if isinstance(term, Phrase):
            hits.extend((s, e, word) for s, e in non_overlapping(found.get(term, ())))
        else:  # a form the automaton cannot express (a leading "*" on a later word)
            hits.extend((m.start(), m.end(), word) for m in term.finditer(text))
    return sorted(hits)


@lru_cache(maxsize=2048)
def _word_matcher(words: tuple[str, ...]) -> tuple[PhraseMatcher, tuple[Phrase | re.Pattern[str], ...]]:
    """The automaton over ``words`` (built once per word list) and each word's phrase."""
    terms = tuple(_word_phrase(word) for word in words)
    return PhraseMatcher(t for t in terms if isinstance(t, Phrase)), terms


def _word_phrase(word: str) -> Phrase | re.Pattern[str]:
    """:func:`word_pattern`'s meaning as a :class:`Phrase` (a regex where it has none)."""
    w = normalize_cue_text(word)
    if CJK.search(w):
        return Phrase((Word(w),)) if "*" not in w else word_pattern(word)
    parts = w.split()
    if not parts or any("*" in p.rstrip("*") or p == "*" for p in parts):  # "*reich*", "am *sten"
        return word_pattern(word)
    return Phrase(tuple(Word(p.rstrip("*"), p.endswith("*")) for p in parts), before="letter",
                  after="none" if w.endswith("*") else "letter", run_sep=True)


def is_yes_no(text: str, lang: str) -> bool:
    """Whether normalized ``text`` reads as a yes/no question in ``lang``: it opens with one of
    the language's yes/no openers (:attr:`lang.base.ShapeWords.yes_no_openers`, English's where
    it has none), or it carries one of its marks that may stand anywhere
    (:attr:`lang.base.ShapeWords.yes_no_anywhere`: « ли », 吗, ですか) and no question word.
    The one reading of a yes/no question: :func:`qa.reading.analysis.analyze` and
    :meth:`qa.reading.lexicon.PropertyLexicon.is_yes_no` both ask it."""
    first = re.sub(r"^[¿¡\"'«„(]+", "", text)
    if any(start == 0 for start, _, _ in find_words(first, words_for(YES_NO_OPENERS, lang))):
        return True
    if declares_yes_no(text, lang):
        return True
    padded = f" {text} "
    if not any(w in padded for w in YES_NO_ANYWHERE.get(lang, ())):
        return False
    return not find_words(text, WH_WORDS.get(lang, ()))


def declares_yes_no(text: str, lang: str) -> bool:
    """Whether normalized ``text`` is a statement asked with a question mark in a language
    that asks yes or no so (:attr:`lang.base.ShapeWords.yes_no_declarative`): no question
    word and no listing word, typed with their accents or without (« cuantos hijos tiene
    obama? » asks how many), and a yes/no verb of the language anywhere in it (« ¿Rainer Maria
    Rilke nació en Viena? »)."""
    words = shape_words(lang)
    if not words.yes_no_declarative or not re.search(r"[?？]\s*$", text):
        return False
    folded = fold(text)
    if find_words(folded, [fold(w) for w in (*words.wh, *words.listing)]):
        return False
    return bool(find_words(folded, [fold(w) for w in words.yes_no_openers]))


def shape_words(lang: str) -> ShapeWords:
    """The shape words of ``lang`` (none for a language the registry does not know)."""
    return language(lang).shape_words if lang in SUPPORTED else ShapeWords()


def words_for(table: Mapping[str, tuple[str, ...]], lang: str) -> tuple[str, ...]:
    out = table.get(lang, ())
    return out if lang == "en" or out else table.get("en", ())
