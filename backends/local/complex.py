"""The complex layer of the local candidate generator (QALD-10 task 2 and friends):
:class:`ComplexGenerator` builds count, yes/no, superlative, filter and comparison
candidates (shapes: :mod:`backends.local.shapes`) from the question's
:func:`~qa.reading.analysis.analyze` reading, its linked entities and the simple
candidates, and :func:`merge` makes one list of both.

Trust rules: a candidate whose result would be a guess is not emitted.  A ``no`` is only
possible when every value the ``ASK`` tests exists in the KG (and, for relations, the
property is single-valued); a count of 0 only for an existing entity and a property in
:data:`COMPLETE_PROPERTIES`; superlatives with a tie for the first place are dropped.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from backends.local.constraints import ConstraintGenerator, ConstraintSet
from backends.local.linking import Mention
from backends.local.shapes import (
    ask_query,
    comparison_query,
    count_query,
    entities_of,
    filter_condition,
    filter_query,
    properties_of,
    rename,
    render_body,
    superlative_query,
    wd,
    wdt,
)
from core.errors import KGError, LexiconError
from core.text import normalize_cue_text
from kg.client import KG, Term
from kg.sparql import local_id
from qa.candidate import EXACT_LINKS, Candidate, ComparisonSpec, Triple
from qa.execute import best_value, value_key
from qa.reading.analysis import Analysis, alternative_words, analyze, answer_form_is_fixed
from qa.reading.lexicon import default_lexicon
from qa.reading.numbers import UNIT_PROPERTY, NumberFilter
from qa.reading.words import (
    COMPLETE_PROPERTIES,
    COUNTABLE_PROPERTIES,
    COVERAGE_SAMPLE,
    DATE_PROPERTIES,
    FUNCTIONAL_PROPERTIES,
    LIST_WORDS,
    LITERAL_PROPERTIES,
    MIN_COVERAGE_LIST,
    MIN_COVERAGE_ORDER,
    QUESTION_WORDS,
    SYMMETRIC_PROPERTIES,
    TYPE_PROPERTIES,
    find_words,
    word_pattern,
    words_for,
)

# --------------------------------------------------------------------------- the generator

MAX_CONSTRAINT_SETS = 4
"""Constraint sets (:mod:`backends.local.constraints`) emitted, counted or ordered per
question, best first (each candidate costs a validator pair)."""


@dataclass(frozen=True)
class EntitySet:
    """A body whose ``?answer`` binds a set of entities, with the confidence that it is
    the set the question is about."""

    triples: tuple[Triple, ...]
    score: float
    origin: str


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


def _squash(score: float) -> float:
    """A backend score of unknown scale mapped into [0, 1]."""
    if 0.0 <= score <= 1.0:
        return score
    return 1.0 / (1.0 + pow(2.718281828, -score))


class ComplexGenerator:
    """Builds the complex candidates of one question from its linked entities and the
    simple candidates of the base generator (whose bodies are reused as entity sets and
    whose relations are reused for yes/no questions).  Every candidate is checked against
    the KG before it is emitted (see the module docstring for the trust rules)."""

    def __init__(self, kg: KG, *, timeout_s: float = 3.0,
                 complete_properties: Iterable[str] = COMPLETE_PROPERTIES,
                 max_sets: int = 10) -> None:
        self.kg = kg
        self.timeout_s = timeout_s
        self.complete_properties = frozenset(complete_properties)
        self.max_sets = max_sets
        self._class_cache: dict[str, tuple[str, ...]] = {}
        self.constraints = ConstraintGenerator(kg, timeout_s=timeout_s)

    # ------------------------------------------------------------------ public

    def candidates(self, question: str, lang: str, mentions: Sequence[Mention],
                   base: Sequence[Candidate] = (), analysis: Analysis | None = None) -> list[Candidate]:
        """Complex candidates for ``question`` (empty when it has no complex cue);
        ``analysis`` is :func:`analyze` of the question with the mentions' name spans
        (made here when not given)."""
        a = analysis if analysis is not None else analyze(question, lang, name_spans(mentions))
        if not a.is_complex and not a.alternative and not asks_for_set(a):
            return []
        evidence = {m.qid: m.link() for m in reversed(mentions)}
        mentions = self._clean_mentions(a, mentions)
        only_sets = not a.is_complex and not a.alternative
        if only_sets:  # a list or "both" and no other cue: the constraint sets of names read as written
            mentions = [m for m in mentions if not m.kind or m.kind in EXACT_LINKS]
        classes = {m.qid: self._type_props(m.qid) for m in mentions}
        instances = [m for m in mentions if not classes[m.qid]]
        out: dict[str, Candidate] = {}

        def emit(sparql: str, score: float, kind: str, *, shape: str, triples: Sequence[Triple],
                 values: Sequence[str] = (), comparison: ComparisonSpec | None = None, **features: float) -> None:
            feats = (("complex", 1.0), (f"shape_{kind}", 1.0), *sorted(features.items()))
            if sparql not in out or out[sparql].score < score:
                entities = entities_of(triples, values)
                out[sparql] = Candidate(sparql, round(score, 6), feats, shape=shape, triples=tuple(triples),
                                        entities=entities, properties=properties_of(triples),
                                        links=tuple(evidence[q] for q in entities if q in evidence),
                                        comparison=comparison)

        if only_sets:
            self._constraint_sets(a, mentions, classes, self._named_properties(question, lang, base), base, emit)
            return sorted(out.values(), key=lambda c: -c.score)
        graded = a.superlative or a.comparative or a.directed or a.gradable
        if len(instances) >= 2 and a.readings and not a.yes_no and (a.alternative or graded):
            self._comparisons(a, instances, emit)
        if a.yes_no:
            self._yes_no(a, mentions, instances, classes, base, emit)
        named = self._named_properties(question, lang, base)
        constrained = self._constraint_sets(a, mentions, classes, named, base, emit)
        sets = [*constrained, *self._sets(mentions, classes, instances, base, named)]
        if a.superlative and not a.yes_no and not a.comparison_form:
            self._superlatives(a, sets, instances, emit)
            group = self.listed(a, instances) if not a.alternative else None
            if group and len(group) >= 3:
                self._superlative_among(a, group, emit)
        if a.filters and not a.yes_no:
            self._filters(a, sets, emit)
        if a.count and not a.yes_no:
            self._counts(a, sets, instances, emit)
        return sorted(out.values(), key=lambda c: -c.score)

    # ------------------------------------------------------------------ constraint sets

    def _constraint_sets(self, a: Analysis, mentions: Sequence[Mention], classes: Mapping[str, tuple[str, ...]],
                         named: frozenset[str], base: Sequence[Candidate], emit) -> list[EntitySet]:
        """The question's constraint sets (:mod:`backends.local.constraints`): emitted as
        lists when a list is asked for, and returned as entity sets to count, order and
        filter."""
        if not (asks_for_set(a) or a.count or a.superlative):
            return []
        simple = frozenset(frozenset(body) for c in base[:20] if (body := plain_body(c)))
        found = self.constraints.sets(a, mentions, classes, named, simple)
        if asks_for_set(a) and not a.is_complex:
            for s in found[:MAX_CONSTRAINT_SETS]:
                self._emit_set(s, emit)
        # counted, ordered and filtered: only sets whose every condition the question's words name
        named_sets = [s for s in found if s.named == 1.0][:MAX_CONSTRAINT_SETS]
        return [EntitySet(s.triples, s.score, f"constraint:{s.shape}") for s in named_sets]

    @staticmethod
    def _emit_set(s: ConstraintSet, emit) -> None:
        sparql = f"SELECT DISTINCT ?answer WHERE {{ {render_body(s.triples)} }}"
        emit(sparql, 0.5 + 0.4 * s.score, s.shape, shape=s.shape, triples=s.triples, set=s.score, named=s.named,
             members=min(1.0, s.members / 100))

    # ------------------------------------------------------------------ helpers

    def _query(self, sparql: str, max_rows: int = 50):
        try:
            return self.kg.query(sparql, timeout_s=self.timeout_s, max_rows=max_rows)
        except KGError:
            return None

    def _ask(self, sparql: str) -> bool | None:
        result = self._query(sparql)
        return None if result is None else result.boolean

    def _clean_mentions(self, a: Analysis, mentions: Sequence[Mention]) -> list[Mention]:
        """Best mention per entity and per span (a second reading of a span only when it
        is nearly as good), dropping mentions that sit on a cue word."""
        best: dict[str, Mention] = {}
        for m in mentions:
            on_cue = m.char_start >= 0 and any(
                s < m.char_end and m.char_start < e and m.char_end - m.char_start <= e - s for s, e in a.cue_spans)
            if on_cue or not re.fullmatch(r"Q[1-9]\d*", m.qid):
                continue
            if m.qid not in best or best[m.qid].score < m.score:
                best[m.qid] = m
        kept: list[Mention] = []
        for m in sorted(best.values(), key=lambda m: -m.score):
            rivals = [k for k in kept if m.char_start >= 0 and k.char_start < m.char_end and m.char_start < k.char_end]
            same = all((k.char_start, k.char_end) == (m.char_start, m.char_end) for k in rivals)
            if not rivals or (same and len(rivals) < 3 and m.score >= 0.8 * rivals[0].score):
                kept.append(m)
        return kept[:8]

    def _type_props(self, qid: str) -> tuple[str, ...]:
        """The typing properties (P31, P106) for which ``qid`` has instances."""
        if qid not in self._class_cache:
            found = []
            for pid in TYPE_PROPERTIES:
                if self._ask(f"ASK {{ ?x {wdt(pid)} {wd(qid)} }}"):
                    found.append(pid)
            self._class_cache[qid] = tuple(found)
        return self._class_cache[qid]

    def _values(self, qids: Sequence[str], pids: Sequence[str]) -> dict[tuple[str, str], list[Term]]:
        """``{(qid, pid): [values]}`` for literal properties of a few entities."""
        if not qids or not pids:
            return {}
        ents = " ".join(wd(q) for q in qids)
        props = " ".join(wdt(p) for p in pids)
        result = self._query(f"SELECT ?e ?p ?v WHERE {{ VALUES ?e {{ {ents} }} VALUES ?p {{ {props} }} ?e ?p ?v }}",
                             max_rows=500)
        out: dict[tuple[str, str], list[Term]] = {}
        for row in result.rows if result else []:
            if "e" not in row or "p" not in row:  # an endpoint's row may lack what was asked
                continue
            q, p = local_id(row["e"].value), local_id(row["p"].value)
            if q and p and "v" in row and row["v"].kind == "literal":
                out.setdefault((q, p), []).append(row["v"])
        return out

    # ------------------------------------------------------------------ comparisons

    def _pairs(self, a: Analysis, instances: Sequence[Mention]) -> list[tuple[Mention, Mention, float]]:
        alts = [s for s, _, _ in alternative_words(a.text, a.lang)]
        pairs = []
        for i, m1 in enumerate(instances):
            for m2 in instances[i + 1:]:
                if m1.char_start >= 0 and m2.char_start >= 0:
                    if m1.char_start < m2.char_end and m2.char_start < m1.char_end:
                        continue
                    first, second = (m1, m2) if m1.char_start <= m2.char_start else (m2, m1)
                    between = any(first.char_end <= s <= second.char_start for s in alts)
                else:
                    first, second, between = m1, m2, True
                pairs.append((first, second, first.score * second.score * (1.0 if between else 0.5)))
        return sorted(pairs, key=lambda t: -t[2])[:3]

    def listed(self, a: Analysis, instances: Sequence[Mention]) -> list[Mention] | None:
        """The entities of the question's list ("A, B or C") in order, or ``None`` when
        there is no list of two or more linked entities or when an item of it is not
        linked (the comparison would then be made without it)."""
        spans: list[Mention] = []
        for m in sorted((m for m in instances if m.char_start >= 0), key=lambda m: (-m.score, m.char_start)):
            if all(m.char_end <= k.char_start or k.char_end <= m.char_start for k in spans):
                spans.append(m)
        spans.sort(key=lambda m: m.char_start)
        if not spans:
            return None
        sep, joint, item, word_next = _list_patterns(a.lang)
        groups: list[list[Mention]] = [[spans[0]]]
        for m in spans[1:]:
            gap = a.text[groups[-1][-1].char_end:m.char_start]
            if sep.match(gap) and joint.search(gap):
                groups[-1].append(m)
            else:
                groups.append([m])
        group = max(groups, key=len)
        before, after = a.text[:group[0].char_start], a.text[group[-1].char_end:]
        item_before = item.search(before)
        if item_before and self._is_item(a, item_before):
            return None
        if word_next.match(after):
            return None
        return group if len(group) >= 2 else None

    @staticmethod
    def _is_item(a: Analysis, chunk: re.Match[str]) -> bool:
        """A short chunk without cue or question words: an unlinked list item."""
        start, end = chunk.span(1)
        if any(s < end and start < e for s, e in a.cue_spans):
            return False
        text = chunk.group(1)
        if find_words(text, QUESTION_WORDS) or len(text.split()) > 3:
            return False
        return bool(text.strip())

    def _comparisons(self, a: Analysis, instances: Sequence[Mention], emit) -> None:
        group = self.listed(a, instances)
        if not group:
            return
        if len(group) > 2:
            if a.superlative:
                self._superlative_among(a, group, emit)
            return
        pairs = [(group[0], group[1], group[0].score * group[1].score)]
        readings = a.readings[:6]
        for first, second, pair_score in pairs:
            values = self._values([first.qid, second.qid], [r.pid for r in readings])
            known = [(r, sum(1 for q in (first.qid, second.qid) if values.get((q, r.pid)))) for r in readings]
            top = max((r.weight for r, _ in known), default=0.0)
            for r, n in known:
                if n == 0 and r.weight < top:
                    continue
                factor = {2: 1.0, 1: 0.75, 0: 0.6}[n]
                score = 0.55 + 0.45 * pair_score * r.weight * factor
                emit(comparison_query(first.qid, second.qid, r.pid, r.direction), score, "comparison",
                     shape="order", triples=[("?answer", wdt(r.pid), "?value")], values=(first.qid, second.qid),
                     comparison=ComparisonSpec(first.qid, second.qid, r.pid, r.direction),
                     link=pair_score, reading=r.weight, known=n / 2)

    # ------------------------------------------------------------------ yes / no

    def _yes_no(self, a: Analysis, mentions: Sequence[Mention], instances: Sequence[Mention],
                classes: Mapping[str, tuple[str, ...]], base: Sequence[Candidate], emit) -> None:
        graded = bool(a.readings) and (a.comparative or a.superlative or a.alternative)
        if len(instances) >= 2 and graded:
            self._ask_comparison(a, instances, emit)
        for m in instances:
            for f in a.filters:
                self._ask_filter(a, m, f, emit)
        if graded or a.filters:
            return  # the question tests a value, not a relation or a type
        self._ask_relations(a, mentions, base, emit)
        for m in instances if len({(i.char_start, i.char_end) for i in instances}) == 1 else ():
            for c in mentions:
                for pid in classes.get(c.qid, ()):
                    if c.qid != m.qid and self._ask(ask_query([(wd(m.qid), wdt(pid), wd(c.qid))])):
                        emit(ask_query([(wd(m.qid), wdt(pid), wd(c.qid))]), 0.5 + 0.4 * m.score * c.score,
                             "ask_type", shape="ask", triples=[(wd(m.qid), wdt(pid), wd(c.qid))],
                             link=m.score * c.score)

    def _ask_comparison(self, a: Analysis, instances: Sequence[Mention], emit) -> None:
        for first, second, pair_score in self._pairs(a, instances)[:2]:
            values = self._values([first.qid, second.qid], [r.pid for r in a.readings[:6]])
            for r in a.readings[:6]:
                if not (values.get((first.qid, r.pid)) and values.get((second.qid, r.pid))):
                    continue
                op = "<" if r.direction == "ASC" else ">"
                triples = [(wd(first.qid), wdt(r.pid), "?a"), (wd(second.qid), wdt(r.pid), "?b")]
                emit(ask_query(triples, f"?a {op} ?b"), 0.55 + 0.45 * pair_score * r.weight, "ask_comparison",
                     shape="ask", triples=triples, link=pair_score, reading=r.weight)

    def _ask_filter(self, a: Analysis, m: Mention, f: NumberFilter, emit) -> None:
        pids = self._filter_properties(a, f)
        values = self._values([m.qid], [p for p, _ in pids])
        for pid, w in pids:
            if not values.get((m.qid, pid)):
                continue
            if self._kind_mismatch(pid, f):
                continue
            sparql = ask_query([(wd(m.qid), wdt(pid), "?value")], filter_condition(f, "?value"))
            emit(sparql, 0.55 + 0.45 * m.score * w, "ask_filter", shape="ask",
                 triples=[(wd(m.qid), wdt(pid), "?value")], link=m.score, reading=w)

    def _ask_relations(self, a: Analysis, mentions: Sequence[Mention], base: Sequence[Candidate], emit) -> None:
        qids = {m.qid: m for m in mentions}
        for rank, cand in enumerate(base[:20]):
            body = plain_body(cand)
            if not body or len(body) != 1:
                continue
            s, p, o = body[0]
            subject = s if o == "?answer" else o if s == "?answer" else None
            if subject is None or not subject.startswith("wd:") or p == "wdt:P31":
                continue
            pid = p.split(":")[1]
            for other, m in qids.items():
                if wd(other) == subject:
                    continue
                triple = (subject, p, wd(other)) if o == "?answer" else (wd(other), p, subject)
                sparql = ask_query([triple])
                truth = self._ask(sparql)
                base_score = _squash(cand.score) * (0.97 ** rank)
                if truth:
                    emit(sparql, 0.45 + 0.5 * base_score * m.score, "ask_relation", shape="ask", triples=[triple],
                         link=m.score, base=base_score)
                elif (truth is False and pid in FUNCTIONAL_PROPERTIES and o == "?answer" and m.score >= 0.7
                      and dict(cand.features).get("prop_score", 1.0) >= 0.5):
                    emit(sparql, 0.35 + 0.45 * base_score * m.score, "ask_relation_no", shape="ask", triples=[triple],
                         link=m.score, base=base_score)

    # ------------------------------------------------------------------ sets

    @staticmethod
    def _named_properties(question: str, lang: str, base: Sequence[Candidate]) -> frozenset[str]:
        """Properties the question's words name: property-lexicon phrases, and the
        relations of base candidates whose property matched the question."""

        named = set()
        with contextlib.suppress(LexiconError):  # no lexicon: the base candidates' evidence alone
            named.update(m.pid for m in default_lexicon().match_properties(question, lang))
        for cand in base[:20]:
            feats = dict(cand.features)
            body = plain_body(cand)
            if body and feats.get("prop_min", feats.get("prop_score", 0.0)) >= 0.5:
                named.update(p.split(":")[1] for _, p, _ in body if p != "wdt:P31")
        return frozenset(named)

    def _sets(self, mentions: Sequence[Mention], classes: Mapping[str, tuple[str, ...]],
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
                    sets.extend(s for s in self._typed_sets(c, pid, m) if s.triples[1][1].split(":")[1] in named)
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
                sets.append(EntitySet(body, _squash(cand.score) * (0.97 ** rank), "base"))
        unique: dict[tuple[Triple, ...], EntitySet] = {}
        for s in sets:
            if s.triples not in unique or unique[s.triples].score < s.score:
                unique[s.triples] = s
        return sorted(unique.values(), key=lambda s: -s.score)[: self.max_sets]

    def _typed_sets(self, c: Mention, type_pid: str, m: Mention) -> list[EntitySet]:
        """``?answer <type> C . ?answer P E`` (and ``E P ?answer``) sets that exist."""
        out = []
        type_triple = ("?answer", wdt(type_pid), wd(c.qid))
        for inverse in (False, True):
            link = (wd(m.qid), "?p", "?answer") if inverse else ("?answer", "?p", wd(m.qid))
            sparql = (f"SELECT ?p (COUNT(DISTINCT ?answer) AS ?n) WHERE {{ {render_body([link, type_triple])} }} "
                      f"GROUP BY ?p ORDER BY DESC(?n) LIMIT 3")
            result = self._query(sparql, max_rows=3)
            for row in result.rows if result else []:
                pid = local_id(row["p"].value) if "p" in row else None
                if not pid or not row["p"].value.startswith("http://www.wikidata.org/prop/direct/"):
                    continue
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
                result = self._query(f"SELECT DISTINCT ?answer WHERE {{ {render_body(body)} }}", max_rows=500)
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
        rows = self._query(f"SELECT ?answer ?t ?v WHERE {{ {body} OPTIONAL {{ ?answer wdt:P31 ?t }} "
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

    def _superlatives(self, a: Analysis, sets: Sequence[EntitySet], instances: Sequence[Mention], emit) -> None:
        readings = [r for r in a.readings[:6] if LITERAL_PROPERTIES[r.pid].orderable]
        for es in sets:
            for r in readings:
                body = render_body([*es.triples, ("?answer", wdt(r.pid), "?value")])
                check = f"SELECT ?answer ?value WHERE {{ {body} }} ORDER BY {r.direction}(?value) LIMIT 2"
                result = self._query(check.replace("LIMIT 2", "LIMIT 6"), max_rows=6)
                rows = result.rows if result else []
                others = [row for row in rows[1:] if row.get("answer") != rows[0].get("answer")]
                if not others:
                    continue  # a superlative over fewer than two entities says nothing
                if others[0].get("value") == rows[0].get("value"):
                    continue  # a tie for the first place
                if self.coverage(es.triples, r.pid) < MIN_COVERAGE_ORDER:
                    continue
                emit(superlative_query(es.triples, r.pid, r.direction), 0.5 + 0.45 * es.score * r.weight,
                     "superlative", shape="order", triples=[*es.triples, ("?answer", wdt(r.pid), "?value")],
                     set=es.score, reading=r.weight)

    def _superlative_among(self, a: Analysis, instances: Sequence[Mention], emit) -> None:
        """"Who is the oldest of A, B and C?": only when every listed entity has a value."""
        qids = [m.qid for m in instances]
        link = min(m.score for m in instances)
        values = self._values(qids, [r.pid for r in a.readings[:6]])
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

    def _filter_properties(self, a: Analysis, f: NumberFilter) -> list[tuple[str, float]]:
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
        return sorted(((p, w) for p, w in out.items() if not self._kind_mismatch(p, f)), key=lambda t: -t[1])

    @staticmethod
    def _kind_mismatch(pid: str, f: NumberFilter) -> bool:
        lp = LITERAL_PROPERTIES[pid]
        if f.is_year != (lp.kind == "date"):
            return True
        return bool(f.unit and lp.unit and f.unit != lp.unit)

    def _filters(self, a: Analysis, sets: Sequence[EntitySet], emit) -> None:
        for f in a.filters[:2]:
            for es in sets:
                for pid, w in self._filter_properties(a, f)[:4]:
                    sparql = filter_query(es.triples, pid, f)
                    result = self._query(sparql, max_rows=201)
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

    def _counts(self, a: Analysis, sets: Sequence[EntitySet], instances: Sequence[Mention], emit) -> None:
        counted = [p for p in a.properties if p in COUNTABLE_PROPERTIES] if not a.filters else []
        for m in instances[:3]:
            values = self._values([m.qid], counted)
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
            result = self._query(count_query(es.triples), max_rows=1)
            terms = result.column() if result else []
            n = value_key(terms[0]) if terms else None
            if n is None:
                continue
            if n == 0 and not self._zero_is_known(es):
                continue
            penalty = 0.7 if counted else 1.0
            emit(count_query(es.triples), (0.5 + 0.45 * es.score) * penalty, "count", shape="count",
                 triples=es.triples, set=es.score)

    def _zero_is_known(self, es: EntitySet) -> bool:
        """A count of 0 is an answer only for an existing anchor entity and a property
        whose values the KG holds completely."""
        for s, p, o in es.triples:
            anchor = s if s.startswith("wd:") else o if o.startswith("wd:") else None
            if p == "wdt:P31" or anchor is None:
                continue
            if p.split(":")[1] not in self.complete_properties:
                return False
            if not self._ask(f"ASK {{ {{ {anchor} ?p ?o }} UNION {{ ?s ?p {anchor} }} }}"):
                return False
        return True


def asks_for_set(a: Analysis) -> bool:
    """Whether the question's words ask for a set a class and conditions describe ("which
    …", "list …", "both"), outside the forms that fix another answer (yes/no, "A or B?")."""
    return (a.listing or a.both) and not a.yes_no and not a.comparison_form


@lru_cache(maxsize=32)
def _list_patterns(lang: str) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """:meth:`ComplexGenerator.listed`'s patterns for ``lang`` (compiled once): the gap
    between two list items, a joint in it, an item before the list, a list word after it."""
    words = "|".join(word_pattern(w).pattern for w in words_for(LIST_WORDS, lang))
    return (re.compile(rf"^[\s,、;]*(?:(?:{words})[\s,、;]*)?(?:[^\W\d_]{{1,3}}\s+)?$"),
            re.compile(rf"[,、;]|{words}"),
            re.compile(rf"(?:^|[:,、;])\s*([^:,、;]+?)\s*(?:[,、;]|\s(?:{words}))\s*$"),
            re.compile(rf"^\s*(?:{words})\s*\w"))


# --------------------------------------------------------------------------- the local backend's hook


def mentions_from_links(question: str, linked: Iterable[Mention]) -> list[Mention]:
    """The linker's mentions with their character spans in the question's cue text
    (``char_start``/``char_end``, where :func:`analyze` finds the cue words)."""
    text = normalize_cue_text(question)
    out = []
    for m in linked:
        surface = normalize_cue_text(m.surface)
        start = end = -1
        if surface:
            parts = [re.escape(t) for t in surface.split()]
            found = re.search(r"[\W_]*".join(parts), text)
            if found:
                start, end = found.start(), found.end()
        out.append(replace(m, char_start=start, char_end=end))
    return out


def _body_pid(candidate: Candidate) -> str | None:
    body = plain_body(candidate)
    if not body or len(body) != 1:
        return None
    return body[0][1].split(":")[1]


def name_spans(mentions: Sequence[Mention], min_score: float = 0.6) -> list[tuple[int, int]]:
    """Character spans of the confidently linked names."""
    return [(m.char_start, m.char_end) for m in mentions if m.char_start >= 0 and m.score >= min_score]


def merge(a: Analysis, simple: Sequence[Candidate], complex_: Sequence[Candidate]) -> list[Candidate]:
    """One ranked list from the simple candidates and the complex ones of the question
    :func:`analyze` read as ``a``.  When the question's form fixes the answer form
    (:func:`answer_form_is_fixed`), the simple candidates are dropped: their plain lookup
    answers another question, and abstaining beats guessing; for "how many" only a lookup
    of a quantity the question names survives."""
    kept: list[Candidate] = []
    if not answer_form_is_fixed(a):
        for c in simple:
            pid = _body_pid(c)
            if a.count and not (pid in a.properties and pid in COUNTABLE_PROPERTIES):
                continue
            kept.append(c)
    seen: dict[str, Candidate] = {}
    for c in [*complex_, *kept]:
        if c.sparql not in seen or seen[c.sparql].score < c.score:
            seen[c.sparql] = c
    return sorted(seen.values(), key=lambda c: (-c.score, c.sparql))


def extend_candidates(generator: ComplexGenerator, question: str, lang: str, simple: Sequence[Candidate],
                      linked: Sequence[Mention]) -> list[Candidate]:
    """The local backend's hook: analyze the question once (numbers inside the linked
    names are not filters), build the complex candidates from the linker's mentions and
    the simple candidates, and merge both lists.  A question whose only cue is a number
    inside a name still goes through the merge (which drops the plain candidates when the
    question's form is fixed)."""
    mentions = mentions_from_links(question, linked)
    a = analyze(question, lang, name_spans(mentions))
    if not a.is_complex and not a.alternative and not a.name_numbers and not asks_for_set(a):
        return list(simple)
    complex_ = generator.candidates(question, lang, mentions, simple, analysis=a)
    return merge(a, simple, complex_)
