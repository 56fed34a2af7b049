"""Question analysis for the complex layer: which cues a question carries (count, yes/no,
superlative, comparative, alternatives, ordinals), which literal properties it names and
in which direction, and its numeric and date filters."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from core.text import normalize_cue_text, tokenize
from qa.candidate import Direction
from qa.reading.numbers import NumberFilter, parse_filters
from qa.reading.reading import function_word, graded, is_word
from qa.reading.words import (
    ALIVE_WORDS,
    ALTERNATIVE_WORDS,
    AMOUNT_WORDS,
    BOTH_AND,
    BOTH_WORDS,
    COUNT_WORDS,
    DEAD_WORDS,
    DIRECTION_WORDS,
    GRADABLES,
    LISTING_WORDS,
    LITERAL_PROPERTIES,
    NEGATION_WORDS,
    ORDINAL_FORMS,
    ORDINAL_WORDS,
    STRONG_GRADABLES,
    SUPERLATIVE_WORDS,
    THAN_WORDS,
    WH_WORDS,
    find_words,
    is_yes_no,
    shape_words,
    words_for,
)

# --------------------------------------------------------------------------- question analysis


@dataclass(frozen=True)
class Reading:
    """One reading of the question's ordering: property, direction and confidence."""

    pid: str
    direction: Direction
    weight: float


@dataclass
class Analysis:
    """What :func:`analyze` found in a question."""

    text: str
    lang: str
    count: bool = False
    ordinal: bool = False
    yes_no: bool = False
    superlative: bool = False
    comparative: bool = False
    alternative: bool = False
    readings: list[Reading] = field(default_factory=list)
    properties: list[str] = field(default_factory=list)
    filters: list[NumberFilter] = field(default_factory=list)
    name_numbers: list[NumberFilter] = field(default_factory=list)  # numbers inside linked names
    cue_spans: list[tuple[int, int]] = field(default_factory=list)
    gradable: list[str] = field(default_factory=list)
    directed: bool = False
    listing: bool = False  # a list is asked for ("which musicians …", "list …")
    both: bool = False  # what two things share ("both", "together")
    alive: bool = False  # whether someone is still alive
    dead: bool = False  # whether someone has died (a yes/no question: "Is Elvis dead?")
    negated: bool = False  # an exclusion ("not", "without")
    negations: list[tuple[int, int]] = field(default_factory=list)  # where its negation words are

    @property
    def comparison_form(self) -> bool:
        """"A or B?" with a gradable or property word: the answer is one of the two."""
        graded = self.readings or self.gradable or self.superlative or self.comparative or self.directed
        return self.alternative and bool(graded) and not self.yes_no

    @property
    def is_complex(self) -> bool:
        """Any complex cue at all."""
        return bool(self.count or self.yes_no or self.superlative or self.comparative or self.filters or self.ordinal)


def alternative_words(text: str, lang: str) -> list[tuple[int, int, str]]:
    """The "or" words of normalized ``text`` (:data:`ALTERNATIVE_WORDS`), without one that
    ends the sentence: no second option follows it (a question particle, Japanese 「…生まれましたか？」,
    or « où » typed without its accent: « stephen hawking est né ou »)."""
    return [(s, e, w) for s, e, w in find_words(text, words_for(ALTERNATIVE_WORDS, lang))
            if text[e:].strip(" ?!.。？！")]


def _direction_hits(text: str, lang: str) -> list[tuple[int, Direction]]:
    hits = []
    for direction, table in DIRECTION_WORDS.items():
        hits.extend((s, direction) for s, _, _ in find_words(text, words_for(table, lang)))
    words = shape_words(lang)
    if words.comparison_mark and words.comparison_mark in text:  # 比: what is compared follows
        at = text.index(words.comparison_mark)
        tail = text[at:]
        for chars, direction in ((words.more_after_mark, "DESC"), (words.less_after_mark, "ASC")):
            hits.extend((at + tail.index(ch, 2), direction) for ch in chars if ch in tail[2:])
    return sorted(hits)


def analyze(question: str, lang: str, names: Sequence[tuple[int, int]] = ()) -> Analysis:
    """Find the complex cues of ``question``: count, yes/no, degree, alternatives, the
    literal properties it names with their directions, and numeric/date filters.  Numbers
    inside ``names`` (character spans of linked entity names, "the 2002 Winter Olympics")
    are not filters."""
    text = normalize_cue_text(question)
    a = Analysis(text, lang)
    count_hits = find_words(text, words_for(COUNT_WORDS, lang))
    than_hits = find_words(text, words_for(THAN_WORDS, lang))
    sup_hits = find_words(text, words_for(SUPERLATIVE_WORDS, lang))
    a.count = bool(count_hits)
    a.ordinal = bool(find_words(text, words_for(ORDINAL_WORDS, lang)) or re.search(r"\d(?:st|nd|rd|th)\b", text)
                     or (lang in ORDINAL_FORMS and re.search(ORDINAL_FORMS[lang], text)))
    a.yes_no = is_yes_no(text, lang)
    a.alternative = bool(alternative_words(text, lang))
    correlative = _both_and(text, lang)
    than_hits = [h for h in than_hits if h[0] not in correlative]
    if than_hits and not graded(text, lang):  # « Que país faz fronteira … », « Che film … »: as the read
        than_hits = [h for h in than_hits if not all(  # stage reads them, function words comparing nothing
            function_word(w, lang) for w in tokenize(text[h[0]:h[1]]) if is_word(w))]
    a.comparative = bool(than_hits)
    a.listing = bool(find_words(text, words_for(LISTING_WORDS, lang)))
    a.both = bool(find_words(text, words_for(BOTH_WORDS, lang)) or correlative)
    alive_hits = find_words(text, words_for(ALIVE_WORDS, lang))
    a.alive = bool(alive_hits)
    a.cue_spans.extend((s, e) for s, e, _ in alive_hits)  # « am Leben » names no one (Julius Leber)
    if a.alive and not a.yes_no and not find_words(text, words_for(WH_WORDS, lang)):
        a.yes_no = True  # « ¿Sigue vivo Elvis? », « Gandhi è ancora vivo? »: whether, with no opener
    dead_hits = [(s, e) for s, e, _ in find_words(text, words_for(DEAD_WORDS, lang))  # "Dead Poets Society"
                 if not any(ns <= s and e <= ne and ne - ns > e - s for ns, ne in names)]  # asks nothing
    if dead_hits and not a.alive and not a.yes_no and not find_words(text, words_for(WH_WORDS, lang)):
        a.yes_no = True  # « Ленин умер? », « Mozart ist tot? »: whether, with no opener, as "alive"
    a.dead = bool(dead_hits) and a.yes_no and not a.alive
    if a.dead:
        a.cue_spans.extend(dead_hits)
    a.negations = [(s, e) for s, e, _ in find_words(text, words_for(NEGATION_WORDS, lang))
                   if not any(ns <= s and e <= ne for ns, ne in names)]  # « No Country for Old Men » negates nothing
    a.negated = bool(a.negations)
    a.superlative = bool(sup_hits)
    a.cue_spans.extend((s, e) for s, e, _ in (*count_hits, *than_hits, *sup_hits))
    prop_hits: dict[str, int] = {}
    for pid, lp in LITERAL_PROPERTIES.items():
        hits = find_words(text, words_for(lp.words, lang))
        if hits:
            prop_hits[pid] = hits[0][0]
            a.cue_spans.extend((s, e) for s, e, _ in hits)
    a.properties = sorted(prop_hits, key=prop_hits.get)
    dated = any(LITERAL_PROPERTIES[p].kind == "date" for p in prop_hits)
    for f in parse_filters(text, lang, dated=dated):
        inside = any(s <= f.start and f.end <= e and e - s > f.end - f.start for s, e in names)
        (a.name_numbers if inside else a.filters).append(f)
    a.cue_spans.extend((f.start, f.end) for f in a.filters)
    a.readings = _readings(text, lang, a, prop_hits)
    a.directed = any(find_words(text, words_for(table, lang)) for table in DIRECTION_WORDS.values())
    if shape_words(lang).direction_is_superlative and a.directed and not a.comparative and not a.alternative:
        a.superlative = True  # "il fiume più lungo": the same words as a comparative, without "di"/"que"
    return a


def _both_and(text: str, lang: str) -> frozenset[int]:
    """Where the second words of the correlative pairs "both A and B" of ``text`` start
    (:attr:`lang.base.ShapeWords.both_and`): each after its first word."""
    out: set[int] = set()
    for first, second in BOTH_AND.get(lang, ()):
        opened = [s for s, _, _ in find_words(text, (first,))]
        if opened:
            out.update(s for s, _, _ in find_words(text, (second,)) if s > min(opened))
    return frozenset(out)


def _readings(text: str, lang: str, a: Analysis, prop_hits: Mapping[str, int]) -> list[Reading]:
    weights: dict[tuple[str, Direction], float] = {}

    def add(pid: str, direction: Direction, w: float) -> None:
        key = (pid, direction)
        weights[key] = max(weights.get(key, 0.0), w)

    dated = any(LITERAL_PROPERTIES[p].kind == "date" for p in prop_hits)
    amounts = [s for s, _, _ in find_words(text, words_for(AMOUNT_WORDS, lang))]
    gradable_hits = [(g, h) for g in GRADABLES for h in find_words(text, words_for(g.words, lang))
                     if (g.name not in ("earlier", "later") or dated or a.alternative)
                     and not _grades_amount(text, h[1], amounts)]
    a.gradable = sorted({g.name for g, _ in gradable_hits})
    for g, (s, e, _) in gradable_hits:
        a.cue_spans.append((s, e))
        if g.name in ("taller", "bigger", "smaller", "shorter", "longer", "older", "younger", "richer", "poorer",
                      "heavier", "lighter", "faster") and not a.superlative and not a.alternative \
                and not shape_words(lang).direction_is_superlative:  # « el país más grande de África »: the
            a.comparative = True  # largest, where no "than" follows (:meth:`analyze`)
        named_any = any(pid in prop_hits for pid, _, _ in g.readings)
        for pid, direction, w in g.readings:
            if prop_hits and named_any and pid not in prop_hits:
                continue  # "bigger population": the named property, not area
            add(pid, direction, w * (1.0 if not prop_hits or pid in prop_hits else 0.6))
    directions = _direction_hits(text, lang)
    for table in DIRECTION_WORDS.values():
        a.cue_spans.extend((s, e) for s, e, _ in find_words(text, words_for(table, lang)))
    for pid, pos in prop_hits.items():
        lp = LITERAL_PROPERTIES[pid]
        if directions and lp.kind == "quantity":
            direction = min(directions, key=lambda d: abs(d[0] - pos))[1]
            add(pid, direction, 1.0)
        elif not any(k[0] == pid for k in weights):
            add(pid, "DESC" if lp.kind == "quantity" else "ASC", 0.8 if a.superlative else 0.5)
    readings = [Reading(p, d, w) for (p, d), w in weights.items()]
    return sorted(readings, key=lambda r: (-r.weight, r.pid))


def _grades_amount(text: str, end: int, amounts: Sequence[int]) -> bool:
    """Whether the size word ending at ``end`` grades an amount word right after it ("the
    largest number of lakes"): the question then asks for the most things, not for the
    largest entity, so the word gives no reading."""
    return any(0 <= s - end <= 2 and not text[end:s].strip(" ") for s in amounts)


def answer_form_is_fixed(a: Analysis) -> bool:
    """True when the question's form rules out a plain lookup answer: yes/no, "A or B?",
    ordinals, superlatives and comparatives with a gradable reading, numeric or date
    filters.  (Counts are handled apart: a quantity lookup may answer "how many".)"""
    return bool(a.yes_no or a.comparison_form or a.ordinal or a.filters or a.superlative
                or set(a.gradable) & STRONG_GRADABLES or (a.directed and a.lang != "en"))
