"""The constraint shapes of the local generator: sets of entities the question describes
by a class and one or more conditions, or by two anchors at once.

* **list**: a class and one condition ("Which musicians are from Sweden?"):
  ``?answer wdt:P106 wd:Q639669 . ?answer wdt:P27 wd:Q34``;
* **intersection**: two anchors ("films in which A and B both appear"), with the class when
  the question names one: ``?answer wdt:P161 wd:A . ?answer wdt:P161 wd:B``;
* **conditions**: a class and three or more conditions, or three anchors ("writers who speak
  French, Arabic and Japanese").

Each set is a body of compact tokens (``wd:Q…``, ``wdt:P…``, ``?answer``) built from the
linked entities' ids and the property ids the KG itself gives for them (never from the
question's text).  Which property ties an anchor to the class is read off the KG (the
properties its members have towards the anchor, most frequent first); a property the
question's words name (the property lexicon, or a simple candidate's evidence) is
preferred, and the validator judges every reading as it judges any other candidate.  The
complex layer (:mod:`backends.local.complex`) emits these sets as lists, counts them for
"how many", and orders them for superlatives ("the largest country in Africa").

A set is only emitted when the KG holds members for it; a set of one member whose body a
simple candidate already reads is left to that candidate (a "which" question with one
answer is a simple question).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from backends.local.linking import Mention
from backends.local.shapes import render_body, wd, wdt
from backends.local.ties import ORDER as TIE_ORDER
from backends.local.ties import TieOrder
from core.errors import KGError
from kg.client import KG
from kg.sparql import WDT, local_id
from qa.candidate import EXACT_LINKS, Triple
from qa.reading.analysis import Analysis
from qa.reading.words import LISTING_WORDS, SYMMETRIC_PROPERTIES, find_words, words_for

ANSWER = "?answer"
MAX_CLASSES = 2
"""Class mentions read per question (the best linked)."""
MAX_ANCHORS = 4
"""Anchor (instance) mentions read per question."""
PROPERTIES_PER_ANCHOR = 3
"""Properties read per (class, anchor): the most frequent ties in the KG."""
MAX_COMBINATIONS = 8
"""Property combinations checked for a set of two or more anchors."""
UNTYING = frozenset({"P31", "P279", "P106", "P1343", "P910", "P1424", "P373", "P5008", "P1889", "P460"})
"""Properties that never tie a member to an anchor of the question (typing, catalogues,
"different from")."""

DESCRIPTIVE_SHARE = 0.6
"""A class whose instances make this share of a relation's members only describes them ("which
countries border Spain": Gibraltar is a neighbour too, and "movies of Johnny Depp" are his
cast memberships): the set is the relation's, without the class, which the simple readings
and the intersections already hold; typing it would drop members the KG does not type so."""

LOCATIVE_PROPERTIES = ("P30", "P17", "P131", "P706", "P361", "P276", "P27", "P19", "P495", "P159")
"""Properties that place a member of a class somewhere (continent, country, located in,
part of a region, citizenship, birthplace, origin, headquarters): the tie of a superlative within a class and a
place ("the largest country in Africa", "the oldest painter from Spain")."""
MIN_PLACE_MEMBERS = 3
"""Members a place set needs before it is ordered (a superlative over two says little)."""

SHAPE_LIST = "list"
SHAPE_INTERSECTION = "intersection"
SHAPE_CONDITIONS = "conditions"
CONSTRAINT_SHAPES = (SHAPE_LIST, SHAPE_INTERSECTION, SHAPE_CONDITIONS)


@dataclass(frozen=True)
class ConstraintSet:
    """A set of entities the question describes: its body, its shape name, the entities
    it was built from (class first), how many members the KG holds (up to the probe's
    bound) and the confidence that it is the set asked for."""

    triples: tuple[Triple, ...]
    shape: str
    anchors: tuple[str, ...]
    members: int
    score: float
    named: float  # share of its conditions whose property the question's words name


@dataclass(frozen=True)
class _Tie:
    triple: Triple
    members: int
    weight: float
    named: bool


class ConstraintGenerator:
    """Reads the constraint sets of one question from its linked mentions (see the module
    docstring).  ``classes`` tells, per mention, the typing properties it has instances
    through (``P31``, ``P106``)."""

    def __init__(self, kg: KG, *, timeout_s: float = 3.0, order: TieOrder | None = None) -> None:
        self.kg = kg
        self.timeout_s = timeout_s
        self.order = order or TieOrder(kg, timeout_s=timeout_s)

    def _rows(self, sparql: str, max_rows: int) -> list[dict]:
        try:
            return list(self.kg.query(sparql, timeout_s=self.timeout_s, max_rows=max_rows).rows)
        except KGError:
            return []

    def sets(self, a: Analysis, mentions: Sequence[Mention], classes: Mapping[str, tuple[str, ...]],
             named: frozenset[str], simple_bodies: frozenset[frozenset[Triple]] = frozenset()) -> list[ConstraintSet]:
        """Every constraint set of the question, best first."""
        if a.yes_no or a.comparison_form or a.filters:
            return []
        class_mentions = asked_first(a, [m for m in mentions if classes.get(m.qid)])[:MAX_CLASSES]
        anchors = _separate([m for m in mentions if not classes.get(m.qid)])[:MAX_ANCHORS]
        out: list[ConstraintSet] = []
        for c in class_mentions:
            # the other names of the question, a class among them too: a language has
            # instances (its dialects), and is what "countries with German as official
            # language" ties its members to
            own = _separate([m for m in mentions if not _overlap(m, c) and not _overlap_any(m, class_mentions, c)]
                            )[:3]
            for type_pid in classes[c.qid]:
                type_triple = (ANSWER, wdt(type_pid), wd(c.qid))
                ties = {m.qid: self._ties(type_triple, m, named) for m in own}
                tied = [m for m in own if ties[m.qid]]
                combined = self._combined([type_triple], (c.qid,), tied, ties, c.score) if len(tied) >= 2 else []
                out.extend(combined)
                if combined:
                    continue  # a set of one anchor would leave another anchor of the question out
                for m in tied[:2]:
                    for tie in ties[m.qid]:
                        body = (tie.triple, type_triple)  # the class last, as the simple typed readings
                        if tie.members == 1 and frozenset(body) in simple_bodies:
                            continue
                        out.append(ConstraintSet(body, SHAPE_LIST, (c.qid, m.qid), tie.members,
                                                 c.score * m.score * tie.weight, 1.0 if tie.named else 0.0))
        if len(anchors) >= 2 and (a.both or a.listing or not class_mentions):
            found = self._intersections(anchors, named)
            out.extend(found)
            out.extend(self._typed_alike(found, class_mentions[:1], classes))
        unique: dict[frozenset[Triple], ConstraintSet] = {}
        for s in out:
            key = frozenset(s.triples)
            if key not in unique or unique[key].score < s.score:
                unique[key] = s
        return sorted(unique.values(), key=lambda s: (-s.score, s.triples))

    def place_sets(self, a: Analysis, mentions: Sequence[Mention], classes: Mapping[str, tuple[str, ...]]
                   ) -> list[ConstraintSet]:
        """The sets a superlative orders within a class and a place ("the largest country in
        Africa", "the most populous country of South America"): per class mention and place
        anchor, the class's members tied to the anchor by the **most frequent** locative
        property (:data:`LOCATIVE_PROPERTIES`), kept even where the class
        only describes the relation's members (ordering needs the class to compare like with
        like).  Only the most frequent tie is read, so a partial tie ("located in South
        America" of 8 of its 15 countries) never stands for the place.  The question's words
        name the place, not the property, so the set counts as named."""
        if a.yes_no or a.comparison_form:
            return []
        class_mentions = [m for m in mentions if classes.get(m.qid)][:MAX_CLASSES]
        anchors = _separate([m for m in mentions if not classes.get(m.qid)])[:2]
        values = " ".join(wdt(pid) for pid in LOCATIVE_PROPERTIES)
        out: list[ConstraintSet] = []
        for c in class_mentions:
            for m in anchors:
                if _overlap(m, c):
                    continue
                for type_pid in classes[c.qid]:
                    type_triple = (ANSWER, wdt(type_pid), wd(c.qid))
                    sparql = (f"SELECT ?p (COUNT(DISTINCT ?answer) AS ?n) WHERE {{ VALUES ?p {{ {values} }} "
                              f"{render_body([(ANSWER, '?p', wd(m.qid)), type_triple])} }} GROUP BY ?p")
                    counts = sorted(((int(float(row["n"].value)), pid) for row in self._rows(sparql, 20)
                                     if (pid := _pid(row)) is not None and "n" in row), reverse=True)
                    if not counts or counts[0][0] < MIN_PLACE_MEMBERS:
                        continue
                    n, pid = counts[0]
                    if len(counts) > 1 and counts[1][0] == n and not self._same_members(
                            type_triple, m.qid, [p for k, p in counts if k == n]):
                        continue  # two ties as frequent for other members: which one places them is unclear
                    body = (type_triple, (ANSWER, wdt(pid), wd(m.qid)))  # the class first: the validator reads
                    # "max ?answer instance of island nation. ?answer continent Africa. ?answer area ?value" better
                    out.append(ConstraintSet(body, SHAPE_LIST, (c.qid, m.qid), n, c.score * m.score, 1.0))
        return sorted(out, key=lambda s: (-s.score, s.triples))

    def _same_members(self, type_triple: Triple, anchor: str, pids: Sequence[str]) -> bool:
        """Whether the class's members tied to ``anchor`` by each of ``pids`` are the same
        set (the union is no larger than the count each has)."""
        values = " ".join(wdt(pid) for pid in pids)
        both = self._rows(f"SELECT (COUNT(DISTINCT ?answer) AS ?n) WHERE {{ VALUES ?p {{ {values} }} "
                          f"{render_body([(ANSWER, '?p', wd(anchor)), type_triple])} }}", 1)
        union = int(float(both[0]["n"].value)) if both and "n" in both[0] else -1
        sizes = {self._size([(ANSWER, wdt(pid), wd(anchor)), type_triple]) for pid in pids}
        return sizes == {union}

    def _ties(self, type_triple: Triple, m: Mention, named: frozenset[str]) -> list[_Tie]:
        """The properties by which members of the class reach ``m`` (either direction),
        most frequent first, with their weights."""
        found: list[tuple[int, Triple, str]] = []
        for inverse in (False, True):
            link = (wd(m.qid), "?p", ANSWER) if inverse else (ANSWER, "?p", wd(m.qid))
            sparql = (f"SELECT ?p (COUNT(DISTINCT ?answer) AS ?n) WHERE {{ {self.order.body(link, [type_triple])} }} "
                      f"GROUP BY ?p {TIE_ORDER} LIMIT {PROPERTIES_PER_ANCHOR + 2}")
            rows = self._rows(sparql, PROPERTIES_PER_ANCHOR + 2)
            pids = [pid for row in rows if (pid := _pid(row)) is not None and pid not in UNTYING]
            if not pids:
                continue
            untyped = self._sizes(link, pids)
            for row in rows:
                pid = _pid(row)
                if pid is None or pid in UNTYING or "n" not in row:
                    continue
                if pid in SYMMETRIC_PROPERTIES and not inverse:
                    continue  # a symmetric relation is read from the anchor's own statements
                n = int(float(row["n"].value))
                if n >= DESCRIPTIVE_SHARE * untyped.get(pid, n + 1):
                    continue  # the class only describes the relation's members: the simple reading's
                triple = (wd(m.qid), wdt(pid), ANSWER) if inverse else (ANSWER, wdt(pid), wd(m.qid))
                found.append((n, triple, pid))
        found.sort(key=lambda t: (-(t[2] in named), -t[0], t[1]))
        if any(pid in named for _, _, pid in found):  # the question's words name the tie: only those
            found = [t for t in found if t[2] in named]
        out = []
        for rank, (n, triple, pid) in enumerate(found[:PROPERTIES_PER_ANCHOR]):
            is_named = pid in named
            out.append(_Tie(triple, n, (1.0 if is_named else 0.6) * (0.9 ** rank), is_named))
        return out

    def _sizes(self, link: Triple, pids: Sequence[str]) -> dict[str, int]:
        """Members per property (of ``pids``) of a link pattern with ``?p`` (no class)."""
        values = " ".join(wdt(pid) for pid in pids)
        sparql = (f"SELECT ?p (COUNT(DISTINCT ?answer) AS ?n) WHERE {{ VALUES ?p {{ {values} }} "
                  f"{render_body([link])} }} GROUP BY ?p")
        return {pid: int(float(row["n"].value)) for row in self._rows(sparql, 500)
                if (pid := _pid(row)) is not None and "n" in row}

    def _combined(self, base: list[Triple], base_ids: tuple[str, ...], anchors: Sequence[Mention],
                  ties: Mapping[str, list[_Tie]], base_score: float) -> list[ConstraintSet]:
        """A class with two or more anchors: every combination of their ties (the best few)
        that the KG holds members for."""
        for chosen in (anchors[:3], anchors[:2]) if len(anchors) > 2 else (anchors[:2],):
            shape = SHAPE_INTERSECTION if len(chosen) == 2 else SHAPE_CONDITIONS
            per_anchor = [ties[m.qid][:2] for m in chosen]
            out = []
            combos = sorted(itertools.product(*per_anchor), key=lambda ts: -_product(t.weight for t in ts))
            for combo in combos[:MAX_COMBINATIONS]:
                body = (*(t.triple for t in combo), *base)
                n = self._size(body)
                if not n or n >= DESCRIPTIVE_SHARE * self._size(body[: len(combo)]):
                    continue  # empty, or the class only describes the members (the intersection without it)
                score = base_score * _product(m.score for m in chosen) * _product(t.weight for t in combo)
                named = sum(t.named for t in combo) / len(combo)
                out.append(ConstraintSet(tuple(body), shape, (*base_ids, *(m.qid for m in chosen)), n, score, named))
            if any(s.named for s in out):  # the question's words name the relation: only those readings
                out = [s for s in out if s.named]
            if out:
                return out[:3]
        return []

    def _intersections(self, anchors: Sequence[Mention], named: frozenset[str]) -> list[ConstraintSet]:
        """Two or three anchors without a class: the entities that stand in one relation to
        each of them, on the subject side (a film whose cast lists both actors) or on the
        object side (a language both countries have as official), by the most frequent
        properties.  Every anchor of the question first; pairs only when all of them share
        nothing.  Three anchors are read among the best four (a name the linker read into
        a common word does not hide the three the question lists)."""
        groups = list(itertools.combinations(anchors[:4], 3))
        groups += list(itertools.combinations(anchors[:3], 2))
        for group in groups:
            out = []
            for inverse in (False, True):
                if inverse:  # what the anchors all have ("the official languages of both Belgium and Switzerland")
                    links = [(wd(m.qid), "?p", ANSWER) for m in group]
                else:  # what has every anchor ("films in which A and B both appear")
                    links = [(ANSWER, "?p", wd(m.qid)) for m in group]
                sparql = (f"SELECT ?p (COUNT(DISTINCT ?answer) AS ?n) WHERE {{ {render_body(links)} }} "
                          f"GROUP BY ?p ORDER BY DESC(?n) LIMIT 4")
                ranks = {True: 0, False: 0}  # per kind (named by the question's words or not)
                seen: set[str] = set()
                for row in self._rows(sparql, 4) + self._named_rows(links, named):
                    pid = _pid(row)
                    if pid is None or pid in UNTYING or "n" not in row or pid in seen:
                        continue
                    if pid in SYMMETRIC_PROPERTIES and not inverse:
                        continue  # a symmetric relation is read from the anchors' own statements
                    seen.add(pid)
                    body = tuple((s, wdt(pid), o) for s, _, o in links)
                    weight = (0.8 if pid in named else 0.6) * (0.9 ** ranks[pid in named])
                    ranks[pid in named] += 1
                    shape = SHAPE_INTERSECTION if len(group) == 2 else SHAPE_CONDITIONS
                    out.append(ConstraintSet(body, shape, tuple(m.qid for m in group), int(float(row["n"].value)),
                                             _product(m.score for m in group) * weight, 1.0 if pid in named else 0.0))
            if out:
                return out
        return []

    def _typed_alike(self, found: Sequence[ConstraintSet], class_mentions: Sequence[Mention],
                     classes: Mapping[str, tuple[str, ...]]) -> list[ConstraintSet]:
        """Each intersection with the class the question asks for ("which *films* star both Tom
        Hanks and Meg Ryan") when every member is of that class: the same set, said as the
        question says it (the validator reads "?answer cast member Tom Hanks. ?answer cast member
        Meg Ryan" at 0.71 against that question, with "?answer instance of film" at 0.98).  A
        class some member lacks would drop it, so the set stays without the class then."""
        out = []
        for c in class_mentions:
            for s in found:
                if c.qid in s.anchors or not any(t[0] == ANSWER for t in s.triples):
                    continue
                for type_pid in classes.get(c.qid, ())[:1]:
                    body = (*s.triples, (ANSWER, wdt(type_pid), wd(c.qid)))
                    rows = self._rows(f"SELECT (COUNT(DISTINCT ?answer) AS ?n) WHERE {{ {render_body(body)} }}", 1)
                    n = int(float(rows[0]["n"].value)) if rows and "n" in rows[0] else 0
                    if n and n == s.members:
                        out.append(ConstraintSet(body, s.shape, (*s.anchors, c.qid), n, s.score * c.score ** 0.1,
                                                 s.named))
        return out

    def _named_rows(self, links: Sequence[Triple], named: frozenset[str]) -> list[dict]:
        """The rows of :meth:`_intersections`' query for the properties the question's words
        name, beyond the most frequent four ("the official languages Belgium and
        Switzerland share": they share memberships and neighbours more often), most members
        first."""
        pids = sorted(pid for pid in named if pid not in UNTYING)
        if not pids:
            return []
        values = " ".join(wdt(pid) for pid in pids)
        sparql = (f"SELECT ?p (COUNT(DISTINCT ?answer) AS ?n) WHERE {{ VALUES ?p {{ {values} }} "
                  f"{render_body(links)} }} GROUP BY ?p ORDER BY DESC(?n) LIMIT 4")
        return self._rows(sparql, 4)

    def _size(self, body: Sequence[Triple]) -> int:
        rows = self._rows(f"SELECT (COUNT(DISTINCT ?answer) AS ?n) WHERE {{ {render_body(body)} }}", 1)
        n = rows[0].get("n") if rows else None
        return int(float(n.value)) if n is not None else 0


def _pid(row: Mapping, key: str = "p") -> str | None:
    term = row.get(key)
    if term is None or not term.value.startswith(WDT):
        return None
    return local_id(term.value)


def _overlap(m: Mention, other: Mention) -> bool:
    if m.qid == other.qid:
        return True
    if m.char_start < 0 or other.char_start < 0:
        return (m.start, m.end) == (other.start, other.end) or (m.start < other.end and other.start < m.end)
    return m.char_start < other.char_end and other.char_start < m.char_end


ASKED_GAP = 6
"""Characters between a listing word and the class it asks for (an article: « quels les »,
"which of the")."""


def asked_first(a: Analysis, class_mentions: Sequence[Mention]) -> list[Mention]:
    """The class mentions, the ones right after a listing word first ("which **countries**
    have German and French …", « quels **pays** ont l'allemand … »: the class asked for,
    not a name that also has instances, such as a language with its dialects), each group
    in its given order."""
    ends = [e for _, e, _ in find_words(a.text, words_for(LISTING_WORDS, a.lang))]
    return sorted(class_mentions, key=lambda m: not any(0 <= m.char_start - e <= ASKED_GAP for e in ends))


def _overlap_any(m: Mention, class_mentions: Sequence[Mention], own: Mention) -> bool:
    """Whether ``m`` sits on the span of a class mention other than ``own`` that is read as a
    class on its own span (the best mention there)."""
    return any(_overlap(m, c) and c.qid != own.qid and c.score > m.score for c in class_mentions)


LONGER_NAME = 0.9
"""A name matched as written over a longer span is read before a shorter name inside it when
its score is at least this share of the shorter one's ("América del Sur" before "América")."""


def reach(m: Mention, mentions: Sequence[Mention]) -> float:
    """The score :func:`_separate` orders ``m`` by: its own, raised by 1 / :data:`LONGER_NAME`
    when it is matched as written and its span holds another mention's shorter span."""
    holds = m.kind in EXACT_LINKS and m.char_start >= 0 and any(
        o.char_start >= 0 and m.char_start <= o.char_start and o.char_end <= m.char_end
        and m.char_end - m.char_start > o.char_end - o.char_start for o in mentions)
    return m.score / LONGER_NAME if holds else m.score


def _separate(mentions: Sequence[Mention]) -> list[Mention]:
    """The best mention of each span (:func:`reach`), spans that do not overlap a better one."""
    kept: list[Mention] = []
    for m in sorted(mentions, key=lambda m: -reach(m, mentions)):
        if not any(_overlap(m, k) for k in kept):
            kept.append(m)
    return kept


def _product(values) -> float:
    out = 1.0
    for v in values:
        out *= v
    return out

