"""Batched KG reads for the local generator.

:class:`KGReads` asks the KG (bounded, entity-anchored queries) what the generator needs:
the properties adjacent to an entity, a graph's answers, their classes and counts, whether
a class has subclasses, the names of entities.  Over an endpoint (``batch_probes``) each
kind of read for many graphs goes out as one request (a UNION, one branch per graph); a
failed batch gives nothing and each graph is then asked alone.  A failed or timed-out read
only loses its rows (timeouts are counted per thread); an unreachable KG raises
:class:`BackendUnavailable`.

It also reads, once, the property text (:class:`backends.local.properties.PropertyText`)
and the coarse type model (:class:`TypeModel`) from the index.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from backends.local.linking import Mention
from backends.local.properties import PropertyText, property_text
from backends.local.shapes import P31, P279, IdTriple, select, sparql_node, where
from core.errors import BackendUnavailable, KGQueryError, KGTimeout, KGUnavailable
from kg.client import KG, Term, fetch_labels, value_kind, whole_number
from kg.index import KGIndex
from kg.sparql import WDT, entity_iri, local_id, prop_iri, short
from qa.reading.lexicon import PropertyLexicon

log = logging.getLogger(__name__)

HUB_DEGREE = 20000  # an entity this linked is read outgoing only
ADJACENCY_ROWS = 500
PAIR_MAX_ANSWERS = 1500
QUERY_TIMEOUT_S = 3.0
SPECIFIC = frozenset({"person", "place", "date", "number", "organization", "work"})
LITERALS = ("date", "number", "string")


@dataclass(frozen=True)
class Adjacent:
    """A property present at an entity, with how many values it has there."""

    pid: str
    forward: bool
    count: int
    kind: str  # "uri" | "date" | "number" | "string"


class TypeModel:
    """Coarse types (person, place, date, number, organization, work) of classes, property
    ends and entities.  A class takes the type that the lexicon declares for the properties
    whose objects it mostly is (the objects of "place of birth" are cities: cities are
    places); a property end takes the majority type of its classes in the KG."""

    def __init__(self, prop_classes: dict[tuple[str, str], list[tuple[str, int]]],
                 declared: dict[str, str]) -> None:
        self.prop_classes = prop_classes
        self.declared = declared
        votes: dict[str, dict[str, int]] = {}
        for pid, kind in declared.items():
            if kind not in SPECIFIC:
                continue
            for cls, n in prop_classes.get((pid, "o"), ()):
                if cls not in LITERALS:
                    slot = votes.setdefault(cls, {})
                    slot[kind] = slot.get(kind, 0) + n
        self.class_type: dict[str, str] = {lit: lit for lit in LITERALS}
        for cls, counts in votes.items():
            kind, n = max(counts.items(), key=lambda kv: (kv[1], kv[0]))
            if n >= 3 and n >= 0.7 * sum(counts.values()):
                self.class_type[cls] = kind
        self._side: dict[tuple[str, str], str | None] = {}

    def side_type(self, pid: str, side: str) -> str | None:
        """The type of ``pid``'s subjects (``"s"``) or objects (``"o"``), or ``None`` when unclear."""
        key = (pid, side)
        if key not in self._side:
            counts: dict[str, int] = {}
            total = 0
            for cls, n in self.prop_classes.get(key, ()):
                total += n
                kind = self.class_type.get(cls)
                if kind:
                    counts[kind] = counts.get(kind, 0) + n
            best = max(counts.items(), key=lambda kv: (kv[1], kv[0]), default=None)
            kind = best[0] if best and best[1] >= 0.5 * total else None
            if side == "o" and kind not in LITERALS and self.declared.get(pid) in SPECIFIC:
                kind = self.declared[pid]
            self._side[key] = kind
        return self._side[key]

    def entity_type(self, classes: Sequence[str]) -> str | None:
        """The type of an entity from its ``P31`` classes (the first class with a type)."""
        kinds = [self.class_type[c] for c in classes if c in self.class_type]
        return max(set(kinds), key=lambda k: (kinds.count(k), k)) if kinds else None


def type_fit(a: str | None, b: str | None) -> tuple[float, float]:
    """``(fit, mismatch)`` of two coarse types (both 0 when either is unknown)."""
    if a in SPECIFIC and b in SPECIFIC:
        return (1.0, 0.0) if a == b else (0.0, 1.0)
    return 0.0, 0.0



class KGReads:
    """The generator's reads of one KG and its index (bounded; batched over an endpoint)."""

    def __init__(self, kg: KG, index: KGIndex, *, lexicon: PropertyLexicon | None = None,
                 timeout_s: float = QUERY_TIMEOUT_S, probe_limit: int | None = None,
                 cache_dir: Path | None = None) -> None:
        self.kg = kg
        self.cache_dir = cache_dir  # where the derived property text is kept (None: derived each time)
        self.index = index
        self.lexicon = lexicon
        self.timeout_s = timeout_s
        self.probe_limit = probe_limit  # an endpoint's bound on the facts a reverse probe reads (None: all)
        self._props: PropertyText | None = None
        self._types: TypeModel | None = None
        self._props_lock = threading.Lock()
        self._local = threading.local()
        self._adjacency_cache: dict[tuple[str, bool], list[Adjacent]] = {}
        self._subclass_cache: dict[str, bool] = {}

    # ------------------------------------------------------------------ property model

    @property
    def props(self) -> PropertyText:
        """Every way to say each property (the KG's labels and the lexicon's phrases)."""
        return self.property_model()[0]

    @property
    def types(self) -> TypeModel:
        """Coarse types of classes and property ends."""
        return self.property_model()[1]

    def property_model(self) -> tuple[PropertyText, TypeModel]:
        """The property text and type model, read from the index once.  Over an endpoint
        that is down the reads fail with :class:`BackendUnavailable` (the question is told
        "service unavailable") and are tried again on the next question: the product starts
        without its endpoint."""
        with self._props_lock:
            if self._props is None or self._types is None:
                try:
                    props = property_text(self.index.property_labels(), self.lexicon, self.cache_dir)
                    types = TypeModel(self.index.property_classes(), props.answer_types)
                except (KGUnavailable, KGTimeout) as exc:
                    raise BackendUnavailable(f"the KG's property labels are unavailable: {exc}") from exc
                self._props, self._types = props, types
            return self._props, self._types

    # ------------------------------------------------------------------ queries

    def query(self, sparql: str, max_rows: int) -> list[dict[str, Term]]:
        """Rows of a bounded query; a rejected or timed-out query gives none (noted)."""
        try:
            return self.kg.query(sparql, timeout_s=self.timeout_s, max_rows=max_rows).rows
        except KGUnavailable as exc:
            raise BackendUnavailable(f"the KG is unavailable: {exc}") from exc
        except KGTimeout as exc:
            self._local.timeouts = self.timeouts() + 1
            log.debug("candidate query timed out (%s): %s", exc, sparql)
        except KGQueryError as exc:
            log.debug("candidate query rejected (%s): %s", exc, sparql)
        return []

    def reset_timeouts(self) -> None:
        """Start counting this thread's timed-out queries afresh (one question's)."""
        self._local.timeouts = 0

    def timeouts(self) -> int:
        """How many of this thread's queries timed out since :meth:`reset_timeouts`."""
        return getattr(self._local, "timeouts", 0)

    def adjacency(self, qid: str, *, outgoing: bool) -> list[Adjacent]:
        """Properties present at ``qid`` (outgoing: ``wd:E ?p ?o``; else ``?s ?p wd:E``)."""
        key = (qid, outgoing)
        if key in self._adjacency_cache:
            return self._adjacency_cache[key]
        node = short(entity_iri(qid))
        pattern = f"{node} ?p ?v ." if outgoing else f"?v ?p {node} ."
        if not outgoing and self.probe_limit is not None:  # a hub of a large KG: read a bounded sample
            pattern = f"{{ SELECT ?v ?p WHERE {{ {pattern} }} LIMIT {self.probe_limit} }}"
        sparql = f"SELECT ?p (COUNT(?v) AS ?n) (SAMPLE(?v) AS ?ex) WHERE {{ {pattern} }} GROUP BY ?p"
        out = []
        timeouts = self.timeouts()
        rows = self.query(sparql, ADJACENCY_ROWS)
        for row in rows:
            p, n = row.get("p"), row.get("n")
            if p is None or n is None or not p.value.startswith(WDT):
                continue
            pid = local_id(p.value)
            if pid is None or not pid.startswith("P"):
                continue
            out.append(Adjacent(pid, outgoing, whole_number(n), value_kind(row.get("ex"))))
        out.sort(key=lambda a: a.pid)
        if self.timeouts() > timeouts:
            return out  # not cached: a later question may get the full answer
        if len(self._adjacency_cache) > 4096:
            self._adjacency_cache.clear()
        self._adjacency_cache[key] = out
        return out

    def answers(self, triples: Sequence[IdTriple], max_rows: int = 5000) -> list[Term]:
        """Execute a candidate graph (bounded) and return its ``?answer`` values."""
        return [r["answer"] for r in self.query(select(triples), max_rows) if "answer" in r]

    def prefetch_adjacency(self, mentions: Sequence[Mention]) -> None:
        """Read the properties at every anchor, outgoing and incoming, in one request (a
        UNION, one branch per anchor and direction) instead of two per anchor, into the
        adjacency cache: for an endpoint, where each request is a round trip
        (``batch_probes``).  A failed request leaves the cache as it was (the per-anchor
        probes then run)."""
        keys = sorted({(m.qid, True) for m in mentions} | {(m.qid, False) for m in mentions if m.degree <= HUB_DEGREE})
        keys = [k for k in keys if k not in self._adjacency_cache]
        if not keys:
            return
        branches = []
        for i, (qid, outgoing) in enumerate(keys):
            node = short(entity_iri(qid))
            pattern = f"{node} ?p ?v ." if outgoing else f"?v ?p {node} ."
            if not outgoing and self.probe_limit is not None:
                pattern = f"{{ SELECT ?v ?p WHERE {{ {pattern} }} LIMIT {self.probe_limit} }}"
            branches.append(f"{{ SELECT ?k ?p (COUNT(?v) AS ?n) (SAMPLE(?v) AS ?ex) "
                            f"WHERE {{ {pattern} BIND({i} AS ?k) }} GROUP BY ?k ?p }}")
        timeouts = self.timeouts()
        rows = self.query(f"SELECT ?k ?p ?n ?ex WHERE {{ {' UNION '.join(branches)} }}", ADJACENCY_ROWS * len(keys))
        if self.timeouts() > timeouts:
            return
        table: dict[tuple[str, bool], list[Adjacent]] = {key: [] for key in keys}
        for row in rows:
            k, p, n = row.get("k"), row.get("p"), row.get("n")
            i = whole_number(k, -1) if k is not None else -1
            if not 0 <= i < len(keys) or p is None or n is None or not p.value.startswith(WDT):
                continue
            pid = local_id(p.value)
            if pid is not None and pid.startswith("P"):
                table[keys[i]].append(Adjacent(pid, keys[i][1], whole_number(n), value_kind(row.get("ex"))))
        if len(self._adjacency_cache) > 4096:
            self._adjacency_cache.clear()
        for key, adjacent in table.items():
            adjacent.sort(key=lambda a: a.pid)
            self._adjacency_cache[key] = adjacent

    # ------------------------------------------------------------------ answers, classes, counts

    def answer_classes(self, triples: Sequence[IdTriple]) -> dict[str, int]:
        """``{class: how many answers are direct instances}`` of a graph's answers."""
        sparql = (f"SELECT ?c (COUNT(DISTINCT ?answer) AS ?n) WHERE {{ {where(triples)} "
                  f"?answer {short(prop_iri(P31))} ?c . }} GROUP BY ?c")
        counts: dict[str, int] = {}
        for row in self.query(sparql, 2000):
            c, n = row.get("c"), row.get("n")
            cid = local_id(c.value) if c is not None else None
            if cid is not None and n is not None:
                counts[cid] = whole_number(n)
        return counts

    def count(self, triples: Sequence[IdTriple]) -> int:
        """How many distinct answers a graph has (0 on failure)."""
        rows = self.query(f"SELECT (COUNT(DISTINCT ?answer) AS ?n) WHERE {{ {where(triples)} }}", 1)
        n = rows[0].get("n") if rows else None
        return whole_number(n) if n is not None else 0

    def may_have_subclasses(self, cls: str) -> bool:
        """False only when ``cls`` is known (cached) to have no subclass."""
        return self._subclass_cache.get(cls, True)

    def has_subclasses(self, cls: str) -> bool:
        """True when some class is a ``P279`` subclass of ``cls`` (cached)."""
        if cls not in self._subclass_cache:
            try:
                found = self.kg.query(f"ASK {{ ?s {short(prop_iri(P279))} {sparql_node(cls)} . }}",
                                      timeout_s=self.timeout_s).boolean
            except KGUnavailable as exc:
                raise BackendUnavailable(f"the KG is unavailable: {exc}") from exc
            except (KGTimeout, KGQueryError):
                return False
            if len(self._subclass_cache) > 4096:
                self._subclass_cache.clear()
            self._subclass_cache[cls] = bool(found)
        return self._subclass_cache[cls]

    def batch_answer_classes(self, graphs: Sequence[Sequence[IdTriple]]) -> dict[str, dict[str, int]]:
        """:meth:`answer_classes` of every graph, by its SPARQL text, in one request (a UNION,
        one branch per graph); a failed request gives none (each graph is then asked alone)."""
        if len(graphs) < 2:
            return {}
        p31 = short(prop_iri(P31))
        branches = [f"{{ SELECT ?g ?c (COUNT(DISTINCT ?answer) AS ?n) WHERE {{ {where(g)} ?answer {p31} ?c . "
                    f"BIND({i} AS ?g) }} GROUP BY ?g ?c }}" for i, g in enumerate(graphs)]
        timeouts = self.timeouts()
        rows = self.query(f"SELECT ?g ?c ?n WHERE {{ {' UNION '.join(branches)} }}", 2000 * len(graphs))
        if self.timeouts() > timeouts:
            return {}
        out: dict[str, dict[str, int]] = {select(g): {} for g in graphs}
        for row in rows:
            i, c, n = row.get("g"), row.get("c"), row.get("n")
            cid = local_id(c.value) if c is not None else None
            if i is not None and cid is not None and n is not None and 0 <= whole_number(i, -1) < len(graphs):
                out[select(graphs[whole_number(i)])][cid] = whole_number(n)
        return out

    def batch_counts(self, graphs: Sequence[Sequence[IdTriple]], classes: Iterable[str] = ()) -> dict[str, int]:
        """:meth:`count` of every graph, by its graph pattern, and :meth:`has_subclasses`
        of each of ``classes`` not yet known (cached), in one request (a UNION, one branch
        per graph, one for the classes); a failed request gives none (each graph is then
        asked alone)."""
        bodies = sorted({where(triples) for triples in graphs})
        unknown = sorted(c for c in set(classes) if c not in self._subclass_cache)
        if not bodies:
            return {}
        branches = [f"{{ SELECT ?g (COUNT(DISTINCT ?answer) AS ?n) WHERE {{ {body} BIND({i} AS ?g) }} GROUP BY ?g }}"
                    for i, body in enumerate(bodies)]
        if unknown:
            values = " ".join(sparql_node(c) for c in unknown)
            branches.append(f"{{ VALUES ?c {{ {values} }} FILTER EXISTS {{ ?s {short(prop_iri(P279))} ?c . }} }}")
        try:
            rows = self.kg.query(f"SELECT ?g ?n ?c WHERE {{ {' UNION '.join(branches)} }}", timeout_s=self.timeout_s,
                                 max_rows=len(bodies) + len(unknown)).rows
        except KGUnavailable as exc:
            raise BackendUnavailable(f"the KG is unavailable: {exc}") from exc
        except (KGTimeout, KGQueryError):
            return {}
        out = dict.fromkeys(bodies, 0)  # a graph with no answer has no group: 0, as its COUNT says
        for row in rows:
            i, n = row.get("g"), row.get("n")
            if i is not None and n is not None and 0 <= whole_number(i, -1) < len(bodies):
                out[bodies[whole_number(i)]] = whole_number(n)
        if unknown:
            found = {local_id(row["c"].value) for row in rows if "c" in row}
            if len(self._subclass_cache) > 4096:
                self._subclass_cache.clear()
            self._subclass_cache.update({c: c in found for c in unknown})
        return out

    def answer_set(self, triples: Sequence[IdTriple], sets: dict[str, set[str]]) -> set[str]:
        """A graph's entity answers (at most :data:`PAIR_MAX_ANSWERS` + 1), kept in ``sets``
        by its SPARQL text."""
        key = select(triples)
        if key not in sets:
            sets[key] = {t.value for t in self.answers(triples, PAIR_MAX_ANSWERS + 1) if t.kind == "uri"}
        return sets[key]

    def batch_answer_sets(self, graphs: Sequence[Sequence[IdTriple]]) -> dict[str, set[str]]:
        """:meth:`answer_set` of every graph, by its SPARQL text, in one request (a UNION, one
        bounded branch per graph); a failed request gives none (each graph is then asked alone)."""
        if len(graphs) < 2:
            return {}
        branches = [f"{{ SELECT DISTINCT ?g ?answer WHERE {{ {where(g)} BIND({i} AS ?g) }} "
                    f"LIMIT {PAIR_MAX_ANSWERS + 1} }}" for i, g in enumerate(graphs)]
        timeouts = self.timeouts()
        rows = self.query(f"SELECT DISTINCT ?g ?answer WHERE {{ {' UNION '.join(branches)} }}",
                           (PAIR_MAX_ANSWERS + 1) * len(graphs))
        if self.timeouts() > timeouts:
            return {}
        out: dict[str, set[str]] = {select(g): set() for g in graphs}
        for row in rows:
            i, answer = row.get("g"), row.get("answer")
            if i is not None and answer is not None and answer.kind == "uri" and 0 <= whole_number(i, -1) < len(graphs):
                out[select(graphs[whole_number(i)])].add(answer.value)
        return out

    def batch_second_hops(self, firsts: Sequence[tuple[str, str]]) -> list[list[dict[str, Term]]] | None:
        """The properties one hop past the values of each ``(entity, property)`` of
        ``firsts``, for all of them in one request (a UNION, one branch each); ``None`` when
        it fails (each is then asked alone)."""
        if len(firsts) < 2:
            return None
        branches = []
        for i, (entity, p1) in enumerate(firsts):
            branches.append(f"{{ SELECT ?k ?p (COUNT(DISTINCT ?v) AS ?n) (SAMPLE(?v) AS ?ex) WHERE {{ "
                            f"{sparql_node(entity)} {short(prop_iri(p1))} ?x . ?x ?p ?v . BIND({i} AS ?k) }} "
                            f"GROUP BY ?k ?p }}")
        timeouts = self.timeouts()
        rows = self.query(f"SELECT ?k ?p ?n ?ex WHERE {{ {' UNION '.join(branches)} }}", ADJACENCY_ROWS * len(firsts))
        if self.timeouts() > timeouts:
            return None
        out: list[list[dict[str, Term]]] = [[] for _ in firsts]
        for row in rows:
            k = row.get("k")
            i = whole_number(k, -1) if k is not None else -1
            if 0 <= i < len(firsts):
                out[i].append(row)
        return out

    def holding(self, pid: str, pairs: Iterable[tuple[str, str]]) -> set[tuple[str, str]]:
        """The ``(subject, object)`` pairs of entity ids for which ``subject pid object``
        holds, read in one query (none when it fails)."""
        wanted = sorted(set(pairs))
        if not wanted:
            return set()
        values = " ".join(f"(<{entity_iri(s)}> <{entity_iri(o)}>)" for s, o in wanted)
        rows = self.query(f"SELECT ?s ?o WHERE {{ VALUES (?s ?o) {{ {values} }} ?s <{prop_iri(pid)}> ?o }}",
                          max_rows=len(wanted))
        return {(local_id(r["s"].value), local_id(r["o"].value)) for r in rows if "s" in r and "o" in r}

    def lacking(self, pid: str, qids: Iterable[str]) -> set[str]:
        """The entity ids of ``qids`` with no ``pid`` statement, read in one query (none when
        it fails)."""
        wanted = sorted(set(qids))
        if not wanted:
            return set()
        values = " ".join(f"<{entity_iri(q)}>" for q in wanted)
        rows = self.query(f"SELECT ?s WHERE {{ VALUES ?s {{ {values} }} "
                          f"FILTER NOT EXISTS {{ ?s <{prop_iri(pid)}> ?o }} }}", max_rows=len(wanted))
        return {local_id(r["s"].value) for r in rows if "s" in r}

    def names_of(self, qids: Iterable[str]) -> dict[str, list[str] | None]:
        """Per entity, its own names (labels and aliases, every language), read from the KG
        in one batch; ``None`` for each when the read fails."""
        iris = {entity_iri(qid): qid for qid in qids}
        if not iris:
            return {}
        try:
            table = fetch_labels(self.kg, iris, timeout_s=self.timeout_s)
        except (KGTimeout, KGQueryError):
            return dict.fromkeys(iris.values())
        except KGUnavailable as exc:
            raise BackendUnavailable(f"the KG is unavailable: {exc}") from exc
        return {qid: [n for labels in table.get(iri, {}).values() for n in labels]
                for iri, qid in iris.items()}
