"""Counts, superlatives and filters over entity sets: the aggregate shapes of the complex
layer (:mod:`backends.local.complex`).

An :class:`EntitySet` is a body whose ``?answer`` binds a set of entities (a class named
in the question, a typed relation to an entity, a base candidate's body, a constraint
set).  :class:`Aggregates` orders such sets by a literal property (superlatives, and the
best of a listed few), filters them by a number the question states, and counts them,
each only when the KG backs it (see :mod:`backends.local.complex` for the trust rules).
:class:`FactReads` are the bounded reads the complex layer makes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from backends.local.linking import Mention
from backends.local.shapes import (
    count_query,
    filter_query,
    rename,
    render_body,
    superlative_query,
    wd,
    wdt,
)
from backends.local.ties import ORDER as TIE_ORDER
from backends.local.ties import TieOrder
from core.errors import KGError
from kg.client import KG, QueryResult, Term
from kg.sparql import local_id
from qa.candidate import Candidate, Triple
from qa.execute import best_value, value_key
from qa.reading.analysis import Analysis
from qa.reading.numbers import UNIT_PROPERTY, NumberFilter
from qa.reading.words import (
    COMPLETE_PROPERTIES,
    COUNTABLE_PROPERTIES,
    COVERAGE_SAMPLE,
    DATE_PROPERTIES,
    LITERAL_PROPERTIES,
    MIN_COVERAGE_LIST,
    MIN_COVERAGE_ORDER,
    SYMMETRIC_PROPERTIES,
    TYPE_PROPERTIES,
)


@dataclass(frozen=True)
class EntitySet:
    """A body whose ``?answer`` binds a set of entities, with the confidence that it is
    the set the question is about."""

    triples: tuple[Triple, ...]
    score: float
    origin: str
    min_coverage: float = MIN_COVERAGE_ORDER
    """Share of its comparable members that must have the ordered value (a set the question
    names by a class and a place needs them all: the largest known is not the largest)."""


_TOKEN = re.compile(r"wd:Q[1-9]\d*|wdt:P[1-9]\d*|\?[A-Za-z_]\w*")


def plain_body(candidate: Candidate) -> tuple[Triple, ...] | None:
    """The triple patterns of a plain candidate whose every step is one direct property
    (no property path) and that binds ``?answer``, else ``None``."""
    triples = candidate.triples
    if candidate.shape != "plain" or not triples:
        return None
    for tr in triples:
        if not all(_TOKEN.fullmatch(t) for t in tr) or not tr[1].startswith("wdt:"):
            return None
    if not any("?answer" in t for t in triples):
        return None
    return triples


def squash(score: float) -> float:
    """A backend score of unknown scale mapped into [0, 1]."""
    if 0.0 <= score <= 1.0:
        return score
    return 1.0 / (1.0 + pow(2.718281828, -score))


WDT_IRI = "http://www.wikidata.org/prop/direct/"


class FactReads:
    """Bounded reads of the complex layer: a failed or timed-out query gives nothing."""

    def __init__(self, kg: KG, *, timeout_s: float = 3.0, order: TieOrder | None = None) -> None:
        self.kg = kg
        self.timeout_s = timeout_s
        self.order = order or TieOrder(kg, timeout_s=timeout_s)

    def query(self, sparql: str, max_rows: int = 50) -> QueryResult | None:
        """The result of a bounded query, or ``None`` when it fails."""
        try:
            return self.kg.query(sparql, timeout_s=self.timeout_s, max_rows=max_rows)
        except KGError:
            return None

    def ask(self, sparql: str) -> bool | None:
        """The answer of an ``ASK`` query, or ``None`` when it fails."""
        result = self.query(sparql)
        return None if result is None else result.boolean

    def ties(self, qid: str, body: Sequence[Triple], limit: int, *, tie_first: bool = False
             ) -> list[tuple[str, bool, int | None]]:
        """The direct properties tying the members of ``body``'s set to ``qid``, each way round
        (``?answer P E``, then ``E P ?answer``), most members first, ``limit`` per way:
        ``(pid, inverse, members)``.  ``tie_first`` writes the tie before ``body`` (the
        order the query's patterns are given in)."""
        out: list[tuple[str, bool, int | None]] = []
        for inverse in (False, True):
            tie = (wd(qid), "?p", "?answer") if inverse else ("?answer", "?p", wd(qid))
            group = self.order.body(tie, body, tie_first=tie_first)
            result = self.query(f"SELECT ?p (COUNT(DISTINCT ?answer) AS ?n) WHERE {{ {group} }} "
                                f"GROUP BY ?p {TIE_ORDER} LIMIT {limit}", max_rows=limit)
            for row in result.rows if result else []:
                term, n = row.get("p"), row.get("n")
                if term is not None and term.value.startswith(WDT_IRI) and (pid := local_id(term.value)):
                    out.append((pid, inverse, int(float(n.value)) if n is not None else None))
        return out

    def values(self, qids: Sequence[str], pids: Sequence[str]) -> dict[tuple[str, str], list[Term]]:
        """``{(qid, pid): [values]}`` for literal properties of a few entities."""
        if not qids or not pids:
            return {}
        ents = " ".join(wd(q) for q in qids)
        props = " ".join(wdt(p) for p in pids)
        result = self.query(f"SELECT ?e ?p ?v WHERE {{ VALUES ?e {{ {ents} }} VALUES ?p {{ {props} }} ?e ?p ?v }}",
                            max_rows=500)
        out: dict[tuple[str, str], list[Term]] = {}
        for row in result.rows if result else []:
            if "e" not in row or "p" not in row:  # an endpoint's row may lack what was asked
                continue
            q, p = local_id(row["e"].value), local_id(row["p"].value)
            if q and p and "v" in row and row["v"].kind == "literal":
                out.setdefault((q, p), []).append(row["v"])
        return out


class Aggregates:
    """Superlatives, filters and counts over the entity sets of one question."""

    def __init__(self, facts: FactReads, *, complete_properties: Iterable[str] = COMPLETE_PROPERTIES,
                 max_sets: int = 10) -> None:
        self.facts = facts
        self.complete_properties = frozenset(complete_properties)
        self.max_sets = max_sets

    # ------------------------------------------------------------------ sets

    def sets(self, mentions: Sequence[Mention], classes: Mapping[str, tuple[str, ...]],
              instances: Sequence[Mention], base: Sequence[Candidate],
              named: frozenset[str] = frozenset()) -> list[EntitySet]:
        sets: list[EntitySet] = []
        for c in mentions:
            for pid in classes.get(c.qid, ()):
                others = [m for m in instances
                          if m.qid != c.qid and (m.char_start, m.char_end) != (c.char_start, c.char_end)]
                alone = 0.5 if others else 0.8
                sets.append(EntitySet((("?answer", wdt(pid), wd(c.qid)),), alone * c.score, f"class:{pid}"))
                for m in instances:
                    sets.extend(s for s in self.typed_sets(c, pid, m) if s.triples[1][1].split(":")[1] in named)
        known = {wd(m.qid) for m in mentions}
        for rank, cand in enumerate(base[:12]):
            body = plain_body(cand)
            feats = dict(cand.features)
            evidence = feats.get("prop_min", feats.get("prop_score", 1.0))
            if evidence < 0.5 or not body or len(body) > 3:
                continue
            if any(o == "?answer" and p.split(":")[1] in LITERAL_PROPERTIES for _, p, o in body):
                continue  # literal values, not a set of entities
            if all(t in known for tr in body for t in tr if t.startswith("wd:")):
                sets.append(EntitySet(anchor_side(body), squash(cand.score) * (0.97 ** rank), "base"))
                if rank < TYPED_ALIKE_SETS and len(body) == 1:
                    sets.extend(self.typed_alike(sets[-1], mentions, classes))
        unique: dict[tuple[Triple, ...], EntitySet] = {}
        for s in sets:
            if s.triples not in unique or unique[s.triples].score < s.score:
                unique[s.triples] = s
        return sorted(unique.values(), key=lambda s: -s.score)[: self.max_sets]

    def typed_alike(self, es: EntitySet, mentions: Sequence[Mention],
                    classes: Mapping[str, tuple[str, ...]]) -> list[EntitySet]:
        """``es`` with the class the question names (its first class mention typed by
        ``P31``) when every member has it: the same set said as the question says it ("In how
        many films did Tom Hanks act?": « count ?answer cast member Tom Hanks » reads 0.62,
        with « ?answer instance of film » 0.90)."""
        if not any(t == "?answer" for tr in es.triples for t in (tr[0], tr[2])):
            return []
        for c in mentions:
            if "P31" not in classes.get(c.qid, ()) or any(wd(c.qid) in tr for tr in es.triples):
                continue
            typed = (*es.triples, ("?answer", "wdt:P31", wd(c.qid)))
            sizes = [self.facts.query(count_query(body), max_rows=1) for body in (es.triples, typed)]
            counts = [value_key(r.column()[0]) if r and r.column() else None for r in sizes]
            if counts[0] and counts[0] == counts[1]:
                return [EntitySet(typed, es.score, es.origin)]
            return []
        return []

    def typed_sets(self, c: Mention, type_pid: str, m: Mention) -> list[EntitySet]:
        """``?answer <type> C . ?answer P E`` (and ``E P ?answer``) sets that exist."""
        out = []
        type_triple = ("?answer", wdt(type_pid), wd(c.qid))
        for pid, inverse, _ in self.facts.ties(m.qid, [type_triple], 3, tie_first=True):
            if pid in SYMMETRIC_PROPERTIES and not inverse:
                continue  # a symmetric relation is read from the anchor's own statements
            triple = (wd(m.qid), wdt(pid), "?answer") if inverse else ("?answer", wdt(pid), wd(m.qid))
            out.append(EntitySet((type_triple, triple), 0.85 * c.score * m.score, "typed"))
        return out

    def consistent(self, triples: Sequence[Triple], pid: str) -> bool:
        """False when a symmetric relation of the set, read the other way round, gives more
        members with a ``pid`` value (the KG then disagrees with itself about the set)."""
        for i, (s, p, o) in enumerate(triples):
            if p.split(":")[1] not in SYMMETRIC_PROPERTIES or "?answer" not in (s, o):
                continue
            mirrored = [*triples[:i], (o, p, s), *triples[i + 1:]]
            found = []
            for body in (triples, [*mirrored, ("?answer", wdt(pid), "?value")]):
                result = self.facts.query(f"SELECT DISTINCT ?answer WHERE {{ {render_body(body)} }}", max_rows=500)
                found.append({row["answer"].value for row in result.rows if "answer" in row} if result else set())
            if not found[1] <= found[0]:
                return False
        return True

    def coverage(self, triples: Sequence[Triple], pid: str) -> float:
        """Share of the set's comparable members (sampled up to :data:`COVERAGE_SAMPLE`)
        that have a ``pid`` value; a member is comparable when it shares a type (``P31``)
        with a member that has a value (an organization among "the neighbours of Kenya"
        has no population to miss).  0 for a set the KG disagrees about (:meth:`consistent`)."""
        if not self.consistent(triples, pid):
            return 0.0
        body = render_body(triples)
        rows = self.facts.query(f"SELECT ?answer ?t ?v WHERE {{ {body} OPTIONAL {{ ?answer wdt:P31 ?t }} "
                           f"OPTIONAL {{ ?answer {wdt(pid)} ?v }} }}", max_rows=4 * COVERAGE_SAMPLE)
        if not rows or not rows.rows:
            return 0.0
        types: dict[str, set[str]] = {}
        valued: set[str] = set()
        for row in rows.rows:
            if "answer" not in row:
                continue
            member = row["answer"].value
            types.setdefault(member, set()).update([row["t"].value] if "t" in row else [])
            if "v" in row:
                valued.add(member)
        kinds = set().union(*(types[m] for m in valued)) if valued else set()
        comparable = [m for m, ts in types.items() if m in valued or ts & kinds or not ts]
        return len(valued) / len(comparable) if comparable else 0.0

    # ------------------------------------------------------------------ superlatives

    def superlatives(self, a: Analysis, sets: Sequence[EntitySet], instances: Sequence[Mention], emit) -> None:
        """Each set ordered by each orderable reading, where the KG backs the first place.
        A set that needs every member valued (:attr:`EntitySet.min_coverage` 1: a class in a
        place) is ordered by the best readings only ("largest" is the area, not the
        population), and where its members lack values, no other set about its place is
        ordered by that property (the largest known country of a continent is a guess, also
        when reached another way)."""
        readings = [r for r in a.readings[:6] if LITERAL_PROPERTIES[r.pid].orderable]
        top = max((r.weight for r in readings), default=0.0)
        unknown: set[tuple[str, str]] = set()  # (place token, property id) whose members lack values
        for es in sets:
            places = {t for tr in es.triples for t in (tr[0], tr[2]) if t.startswith("wd:")}
            for r in readings:
                if any((place, r.pid) in unknown for place in places):
                    continue
                if es.min_coverage >= 1.0:
                    if self.coverage(es.triples, r.pid) < 1.0:
                        unknown.update((t, r.pid) for _, p, t in es.triples
                                       if t.startswith("wd:") and p.removeprefix("wdt:") not in TYPE_PROPERTIES)
                        continue
                    if r.weight < top:
                        continue
                body = render_body([*es.triples, ("?answer", wdt(r.pid), "?value")])
                check = f"SELECT ?answer ?value WHERE {{ {body} }} ORDER BY {r.direction}(?value) LIMIT 2"
                result = self.facts.query(check.replace("LIMIT 2", "LIMIT 6"), max_rows=6)
                rows = result.rows if result else []
                others = [row for row in rows[1:] if row.get("answer") != rows[0].get("answer")]
                if not others:
                    continue  # a superlative over fewer than two entities says nothing
                if others[0].get("value") == rows[0].get("value"):
                    continue  # a tie for the first place
                if es.min_coverage < 1.0 and self.coverage(es.triples, r.pid) < es.min_coverage:
                    continue
                emit(superlative_query(es.triples, r.pid, r.direction), 0.5 + 0.45 * es.score * r.weight,
                     "superlative", shape="order", triples=[*es.triples, ("?answer", wdt(r.pid), "?value")],
                     set=es.score, reading=r.weight)

    def superlative_among(self, a: Analysis, instances: Sequence[Mention], emit) -> None:
        """"Who is the oldest of A, B and C?": only when every listed entity has a value."""
        qids = [m.qid for m in instances]
        link = min(m.score for m in instances)
        values = self.facts.values(qids, [r.pid for r in a.readings[:6]])
        for r in a.readings[:6]:
            if not LITERAL_PROPERTIES[r.pid].orderable or not all(values.get((q, r.pid)) for q in qids):
                continue
            best = sorted((value_key(best_value(values[(q, r.pid)], r.direction)), q) for q in qids)  # type: ignore[arg-type]
            first, second = (best[0], best[1]) if r.direction == "ASC" else (best[-1], best[-2])
            if first[0] == second[0]:
                continue
            ents = " ".join(wd(q) for q in qids)
            sparql = (f"SELECT ?answer WHERE {{ VALUES ?answer {{ {ents} }} ?answer {wdt(r.pid)} ?value }} "
                      f"ORDER BY {r.direction}(?value) LIMIT 1")
            emit(sparql, 0.55 + 0.45 * link * r.weight, "superlative_among", shape="order",
                 triples=[("?answer", wdt(r.pid), "?value")], values=qids, link=link, reading=r.weight)

    # ------------------------------------------------------------------ filters

    def filter_properties(self, a: Analysis, f: NumberFilter) -> list[tuple[str, float]]:
        """Which literal properties a filter may apply to, with weights."""
        out: dict[str, float] = {}
        for r in a.readings:
            out[r.pid] = max(out.get(r.pid, 0.0), r.weight)
        for pid in a.properties:
            out[pid] = max(out.get(pid, 0.0), 1.0)
        if f.unit:
            for pid in UNIT_PROPERTY.get(f.unit, ()):
                out[pid] = max(out.get(pid, 0.0), 0.8 if pid in out else 0.6)
        if f.is_year and not any(LITERAL_PROPERTIES[p].kind == "date" for p in out):
            for pid in DATE_PROPERTIES:
                out[pid] = 0.4
        return sorted(((p, w) for p, w in out.items() if not self.kind_mismatch(p, f)), key=lambda t: -t[1])

    @staticmethod
    def kind_mismatch(pid: str, f: NumberFilter) -> bool:
        lp = LITERAL_PROPERTIES[pid]
        if f.is_year != (lp.kind == "date"):
            return True
        return bool(f.unit and lp.unit and f.unit != lp.unit)

    def filters(self, a: Analysis, sets: Sequence[EntitySet], emit) -> None:
        for f in a.filters[:2]:
            for es in sets:
                for pid, w in self.filter_properties(a, f)[:4]:
                    sparql = filter_query(es.triples, pid, f)
                    result = self.facts.query(sparql, max_rows=201)
                    if not result or not result.rows:
                        continue
                    covered = self.coverage(es.triples, pid)
                    if covered < (MIN_COVERAGE_ORDER if a.count else MIN_COVERAGE_LIST):
                        continue
                    body = [*es.triples, ("?answer", wdt(pid), "?value")]
                    if a.count:
                        emit(filter_query(es.triples, pid, f, count=True), 0.55 + 0.45 * es.score * w,
                             "count_filter", shape="count", triples=rename(body, "?answer", "?x"),
                             set=es.score, reading=w)
                    else:
                        emit(sparql, 0.5 + 0.45 * es.score * w, "filter", shape="filter", triples=body,
                             set=es.score, reading=w)

    # ------------------------------------------------------------------ counts

    def counts(self, a: Analysis, sets: Sequence[EntitySet], instances: Sequence[Mention], emit) -> None:
        counted = [p for p in a.properties if p in COUNTABLE_PROPERTIES] if not a.filters else []
        for m in instances[:3]:
            values = self.facts.values([m.qid], counted)
            for pid in counted:
                if values.get((m.qid, pid)):
                    emit(f"SELECT ?answer WHERE {{ {wd(m.qid)} {wdt(pid)} ?answer }}", 0.6 + 0.4 * m.score,
                         "count_literal", shape="plain", triples=[(wd(m.qid), wdt(pid), "?answer")], link=m.score)
        if a.filters:
            return
        for es in sets:
            if es.origin == "typed" or (es.origin.startswith("class") and instances):
                continue  # only sets the question's words chose are counted
            if any("?x" in tr for tr in es.triples):
                continue  # a two-hop set: its middle variable is the counted one's name
            result = self.facts.query(count_query(es.triples), max_rows=1)
            terms = result.column() if result else []
            n = value_key(terms[0]) if terms else None
            if n is None:
                continue
            if n == 0 and not self.zero_is_known(es):
                continue
            penalty = (0.7 if counted else 1.0) * (ONE_COUNTED if n == 1 else 1.0)
            emit(count_query(es.triples), (0.5 + 0.45 * es.score) * penalty, "count", shape="count",
                 triples=es.triples, set=es.score)

    def zero_is_known(self, es: EntitySet) -> bool:
        """A count of 0 is an answer only for an existing anchor entity and a property
        whose values the KG holds completely."""
        for s, p, o in es.triples:
            anchor = s if s.startswith("wd:") else o if o.startswith("wd:") else None
            if p == "wdt:P31" or anchor is None:
                continue
            if p.split(":")[1] not in self.complete_properties:
                return False
            if not self.facts.ask(f"ASK {{ {{ {anchor} ?p ?o }} UNION {{ ?s ?p {anchor} }} }}"):
                return False
        return True


ONE_COUNTED = 0.8
"""The score kept by a count of a set of one member: it is never shown ("how many" asks for
several; :mod:`qa.decisions.number` says what the data lists instead), so a count of several
is read first (« Combien de pays frontaliers a la Suisse ? » counted Fribourg's one neighbour,
whose English alias is "Suisse", before Switzerland's five)."""

TYPED_ALIKE_SETS = 3
"""The best simple readings whose sets are also said with the class the question names."""


def anchor_side(body: Sequence[Triple]) -> tuple[Triple, ...]:
    """``body`` with each symmetric relation between ``?answer`` and an entity read from the
    entity's own statements (``wd:Q142 wdt:P47 ?answer``), as the constraint sets read it: a
    set counted or ordered is the same whichever way the question's reading was written
    (« ¿Cuántos países tienen frontera con Francia? » counted the countries that list France,
    7, where "How many countries border France?" counts France's own list, 6)."""
    return tuple((o, p, s) if p.split(":")[-1] in SYMMETRIC_PROPERTIES and s == "?answer" and o.startswith("wd:")
                 else (s, p, o) for s, p, o in body)
