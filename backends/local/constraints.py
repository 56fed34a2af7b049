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

from backends.local.analysis import Analysis
from backends.local.linking import Mention
from backends.local.shapes import render_body, wd, wdt
from core.errors import KGError
from kg.client import KG
from kg.sparql import WDT, local_id
from qa.candidate import Triple

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

    def __init__(self, kg: KG, *, timeout_s: float = 3.0) -> None:
        self.kg = kg
        self.timeout_s = timeout_s

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
        class_mentions = [m for m in mentions if classes.get(m.qid)][:MAX_CLASSES]
        anchors = _separate([m for m in mentions if not classes.get(m.qid)])[:MAX_ANCHORS]
        out: list[ConstraintSet] = []
        for c in class_mentions:
            own = [m for m in anchors if not _overlap(m, c)]
            for type_pid in classes[c.qid]:
                type_triple = (ANSWER, wdt(type_pid), wd(c.qid))
                ties = {m.qid: self._ties(type_triple, m, named) for m in own}
                own = [m for m in own if ties[m.qid]]
                for m in own[:2]:
                    for tie in ties[m.qid]:
                        body = (type_triple, tie.triple)
                        if tie.members == 1 and frozenset(body) in simple_bodies:
                            continue
                        out.append(ConstraintSet(body, SHAPE_LIST, (c.qid, m.qid), tie.members,
                                                 c.score * m.score * tie.weight, 1.0 if tie.named else 0.0))
                if len(own) >= 2:
                    out.extend(self._combined([type_triple], (c.qid,), own, ties, c.score))
        if len(anchors) >= 2 and (a.both or a.listing or not class_mentions):
            out.extend(self._intersections(anchors[:3], named))
        unique: dict[frozenset[Triple], ConstraintSet] = {}
        for s in out:
            key = frozenset(s.triples)
            if key not in unique or unique[key].score < s.score:
                unique[key] = s
        return sorted(unique.values(), key=lambda s: (-s.score, s.triples))

    def _ties(self, type_triple: Triple, m: Mention, named: frozenset[str]) -> list[_Tie]:
        """The properties by which members of the class reach ``m`` (either direction),
        most frequent first, with their weights."""
        found: list[tuple[int, Triple, str]] = []
        for inverse in (False, True):
            link = (wd(m.qid), "?p", ANSWER) if inverse else (ANSWER, "?p", wd(m.qid))
            sparql = (f"SELECT ?p (COUNT(DISTINCT ?answer) AS ?n) WHERE {{ {render_body([link, type_triple])} }} "
                      f"GROUP BY ?p ORDER BY DESC(?n) LIMIT {PROPERTIES_PER_ANCHOR + 2}")
            for row in self._rows(sparql, PROPERTIES_PER_ANCHOR + 2):
                pid = _pid(row)
                if pid is None or pid in UNTYING or "n" not in row:
                    continue
                triple = (wd(m.qid), wdt(pid), ANSWER) if inverse else (ANSWER, wdt(pid), wd(m.qid))
                found.append((int(float(row["n"].value)), triple, pid))
        found.sort(key=lambda t: (-(t[2] in named), -t[0], t[1]))
        out = []
        for rank, (n, triple, pid) in enumerate(found[:PROPERTIES_PER_ANCHOR]):
            is_named = pid in named
            out.append(_Tie(triple, n, (1.0 if is_named else 0.6) * (0.9 ** rank), is_named))
        return out

    def _combined(self, base: list[Triple], base_ids: tuple[str, ...], anchors: Sequence[Mention],
                  ties: Mapping[str, list[_Tie]], base_score: float) -> list[ConstraintSet]:
        """A class with two or more anchors: every combination of their ties (the best few)
        that the KG holds members for."""
        chosen = anchors[:3]
        shape = SHAPE_INTERSECTION if len(chosen) == 2 else SHAPE_CONDITIONS
        per_anchor = [ties[m.qid][:2] for m in chosen]
        out = []
        combos = sorted(itertools.product(*per_anchor), key=lambda ts: -_product(t.weight for t in ts))
        for combo in combos[:MAX_COMBINATIONS]:
            body = (*base, *(t.triple for t in combo))
            n = self._size(body)
            if not n:
                continue
            score = base_score * _product(m.score for m in chosen) * _product(t.weight for t in combo)
            named = sum(t.named for t in combo) / len(combo)
            out.append(ConstraintSet(tuple(body), shape, (*base_ids, *(m.qid for m in chosen)), n, score, named))
        return out

    def _intersections(self, anchors: Sequence[Mention], named: frozenset[str]) -> list[ConstraintSet]:
        """Two or three anchors without a class: the entities that reach each of them (the
        subject side: a film whose cast lists both actors), by the most frequent property
        pairs."""
        out = []
        for (first, second), inverse in itertools.product(itertools.combinations(anchors, 2), (False, True)):
            if inverse:  # what both anchors have ("the official languages of both Belgium and Switzerland")
                pattern = f"{wd(first.qid)} ?p ?answer . {wd(second.qid)} ?q ?answer"
            else:  # what has both anchors ("films in which A and B both appear")
                pattern = f"?answer ?p {wd(first.qid)} . ?answer ?q {wd(second.qid)}"
            sparql = (f"SELECT ?p ?q (COUNT(DISTINCT ?answer) AS ?n) WHERE {{ {pattern} }} "
                      f"GROUP BY ?p ?q ORDER BY DESC(?n) LIMIT 6")
            rank = 0
            for row in self._rows(sparql, 6):
                p, q = _pid(row, "p"), _pid(row, "q")
                if p is None or q is None or p in UNTYING or q in UNTYING or "n" not in row:
                    continue
                if inverse:
                    body = ((wd(first.qid), wdt(p), ANSWER), (wd(second.qid), wdt(q), ANSWER))
                else:
                    body = ((ANSWER, wdt(p), wd(first.qid)), (ANSWER, wdt(q), wd(second.qid)))
                hits = (p in named) + (q in named)
                weight = (0.6 + 0.2 * hits) * (1.0 if p == q else 0.85) * (0.9 ** rank)
                rank += 1
                out.append(ConstraintSet(body, SHAPE_INTERSECTION, (first.qid, second.qid),
                                         int(float(row["n"].value)), first.score * second.score * weight, hits / 2))
        return out

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


def _separate(mentions: Sequence[Mention]) -> list[Mention]:
    """The best mention of each span, spans that do not overlap a better one."""
    kept: list[Mention] = []
    for m in sorted(mentions, key=lambda m: -m.score):
        if not any(_overlap(m, k) for k in kept):
            kept.append(m)
    return kept


def _product(values) -> float:
    out = 1.0
    for v in values:
        out *= v
    return out

