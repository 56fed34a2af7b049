"""The complex layer of the local candidate generator (QALD-10 task 2 and friends):
:class:`ComplexGenerator` builds count, yes/no, superlative, filter and comparison
candidates (shapes: :mod:`backends.local.shapes`; counts, superlatives and filters over
entity sets: :mod:`backends.local.aggregates`) from the question's
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
from dataclasses import replace
from functools import lru_cache

from backends.local.aggregates import Aggregates, EntitySet, FactReads, plain_body, squash
from backends.local.constraints import (
    CONSTRAINT_SHAPES,
    DESCRIPTIVE_SHARE,
    LOCATIVE_PROPERTIES,
    SHAPE_CONDITIONS,
    SHAPE_INTERSECTION,
    ConstraintGenerator,
    ConstraintSet,
    reach,
)
from backends.local.linking import Mention
from backends.local.shapes import (
    alive_query,
    ask_query,
    comparison_query,
    entities_of,
    exclusion_group,
    exclusion_query,
    filter_condition,
    properties_of,
    render_body,
    wd,
    wdt,
)
from backends.local.ties import TieOrder
from core.errors import LexiconError
from core.text import normalize_cue_text
from kg.client import KG
from kg.sparql import local_id
from qa.candidate import EXACT_LINKS, Candidate, ComparisonSpec, Triple
from qa.reading.analysis import Analysis, alternative_words, analyze, answer_form_is_fixed
from qa.reading.lexicon import default_lexicon
from qa.reading.numbers import NumberFilter
from qa.reading.words import (
    COMPLETE_PROPERTIES,
    CONTRAST_WORDS,
    COUNTABLE_PROPERTIES,
    DEATH_PROPERTIES,
    FUNCTIONAL_PROPERTIES,
    LIST_WORDS,
    QUESTION_WORDS,
    RELATIVE_WORDS,
    SYMMETRIC_PROPERTIES,
    TYPE_PROPERTIES,
    find_words,
    word_pattern,
    words_for,
)

# --------------------------------------------------------------------------- the generator

MAX_ALIVE_TESTS = 3
"""Death facts tested by one "still alive" candidate (the guard admits 3 ``NOT EXISTS``)."""
HUMAN = "Q5"

MAX_EXCLUDED = 2
"""Entities after the negation word read as what is excluded."""
MAX_EXCLUSION_SETS = 4
MAX_NAMED_RELATIONS = 8
"""Relations the question's words name, read per entity before the negation as a set to exclude from."""
"""Simple candidates' sets an exclusion is built on (the best ranked)."""
EXCLUSION_UNTYING = frozenset({"P31", "P106", "P279", "P1343", "P910", "P1424", "P373", "P5008", "P1889", "P460"})
"""Properties that never tie a member to an excluded entity: typing ("… do not border an ocean"
is no "not an ocean"), catalogues, "different from"."""

MAX_CONSTRAINT_SETS = 4
"""Constraint sets (:mod:`backends.local.constraints`) emitted, counted or ordered per
question, best first (each candidate costs a validator pair)."""


class ComplexGenerator:
    """Builds the complex candidates of one question from its linked entities and the
    simple candidates of the base generator (whose bodies are reused as entity sets and
    whose relations are reused for yes/no questions).  Every candidate is checked against
    the KG before it is emitted (see the module docstring for the trust rules).  Counts,
    superlatives and filters over entity sets are built by
    :class:`~backends.local.aggregates.Aggregates`."""

    def __init__(self, kg: KG, *, timeout_s: float = 3.0,
                 complete_properties: Iterable[str] = COMPLETE_PROPERTIES,
                 max_sets: int = 10) -> None:
        self.kg = kg
        self.timeout_s = timeout_s
        order = TieOrder(kg, timeout_s=min(timeout_s, 1.0))  # one count per entity and class, shared
        self.facts = FactReads(kg, timeout_s=timeout_s, order=order)
        self.aggregates = Aggregates(self.facts, complete_properties=complete_properties, max_sets=max_sets)
        self._class_cache: dict[str, tuple[str, ...]] = {}
        self.constraints = ConstraintGenerator(kg, timeout_s=timeout_s, order=order)


    # ------------------------------------------------------------------ public

    def candidates(self, question: str, lang: str, mentions: Sequence[Mention],
                   base: Sequence[Candidate] = (), analysis: Analysis | None = None) -> list[Candidate]:
        """Complex candidates for ``question`` (empty when it has no complex cue);
        ``analysis`` is :func:`analyze` of the question with the mentions' name spans
        (made here when not given)."""
        a = analysis if analysis is not None else analyze(question, lang, name_spans(mentions))
        if not a.is_complex and not a.alternative and not asks_for_set(a) and not a.negated:
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
                 values: Sequence[str] = (), comparison: ComparisonSpec | None = None,
                 excluded: Sequence[Triple] = (), **features: float) -> None:
            feats = (("complex", 1.0), (f"shape_{kind}", 1.0), *sorted(features.items()))
            if sparql not in out or out[sparql].score < score:
                entities = entities_of([*triples, *excluded], values)
                out[sparql] = Candidate(sparql, round(score, 6), feats, shape=shape, triples=tuple(triples),
                                        entities=entities, properties=properties_of([*triples, *excluded]),
                                        links=tuple(evidence[q] for q in entities if q in evidence),
                                        comparison=comparison, excluded=tuple(excluded))

        if a.negated and not a.yes_no and not a.count:
            self._exclusions(a, mentions, classes, self._named_properties(question, lang, base), base, emit,
                             phrased=self._phrased_properties(question, lang))
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
        sets = [*constrained, *self.aggregates.sets(mentions, classes, instances, base, named)]
        if a.superlative and not a.yes_no and not a.comparison_form:
            sets = [*self._place_sets(a, mentions, classes), *sets]
            self.aggregates.superlatives(a, _without_partial_places(sets), instances, emit)
            group = self.listed(a, instances) if not a.alternative else None
            if group and len(group) >= 3:
                self.aggregates.superlative_among(a, group, emit)
        if a.filters and not a.yes_no:
            self.aggregates.filters(a, sets, emit)
        if a.count and not a.yes_no:
            self.aggregates.counts(a, sets, instances, emit)
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

    # ------------------------------------------------------------------ exclusions

    def _exclusions(self, a: Analysis, mentions: Sequence[Mention], classes: Mapping[str, tuple[str, ...]],
                    named: frozenset[str], base: Sequence[Candidate], emit, *,
                    phrased: frozenset[str] = frozenset()) -> None:
        """"Countries that border Germany but do not have German as an official language":
        a set the words before the negation describe (a simple candidate's body over the
        entities named there, and the classes), without its members tied to an entity named
        after it.  The tie is read off the KG (the most frequent properties between the
        set's members and that entity; one the question's words name is preferred).  Only
        emitted when every member of the set has a value for the tie's property (a member
        the KG says nothing about is not known to lack it) and the exclusion leaves some
        members but not all."""
        start = a.negations[0][0]
        # a contrast word after the negation ends what is excluded and goes on with what is
        # kept: "which countries do not border Germany *but* have German as an official language"
        end = min((s for s, _, _ in find_words(a.text, words_for(CONTRAST_WORDS, a.lang)) if s > start),
                  default=len(a.text) + 1)
        placed = [m for m in mentions if m.char_start >= 0]
        excluded = [m for m in placed if start < m.char_start and m.char_end <= end]
        if not any(not classes.get(m.qid) for m in excluded):
            # the thing excluded named before the negation, in a relative clause: "the countries
            # bordering France *where French* is not an official language"
            relative = max((e for _, e, _ in find_words(a.text, words_for(RELATIVE_WORDS, a.lang)) if e <= start),
                           default=None)
            if relative is not None:
                clause = [m for m in placed if relative <= m.char_start and m.char_end <= start]
                if clause and any(m.char_end <= relative and not classes.get(m.qid) for m in placed):
                    excluded, start = clause, relative
        kept_side = [m for m in placed if m.char_end <= start or m.char_start >= end]
        after = sorted(_separate_spans(excluded), key=lambda m: (bool(classes.get(m.qid)), -m.score))[:MAX_EXCLUDED]
        before = {wd(m.qid) for m in kept_side}
        named_classes = {wd(m.qid) for m in kept_side if classes.get(m.qid)}
        if not after or not before:
            return
        sets: dict[tuple[Triple, ...], float] = {}
        for rank, cand in enumerate(base[:12]):
            body = plain_body(cand)
            feats = dict(cand.features)
            if not body or len(body) > 2 or feats.get("prop_min", feats.get("prop_score", 1.0)) < 0.5:
                continue
            kept = tuple(tr for tr in body if not any(wd(m.qid) in (tr[0], tr[2]) for m in after))
            tokens = {t for tr in kept for t in (tr[0], tr[2]) if t.startswith("wd:")}
            if kept and tokens and tokens <= before and any("?answer" in tr for tr in kept):
                # a simple reading's body over the entities before the negation (the rest of a
                # conjunction whose other half names what is excluded: "border Germany")
                score = squash(cand.score) * (0.97 ** rank)
                typed = any(tr[0] == "?answer" and tr[1].removeprefix("wdt:") in TYPE_PROPERTIES for tr in kept)
                if not typed and named_classes - tokens:
                    score *= 0.5  # the question names a class ("countries") that this set leaves out
                sets[kept] = max(sets.get(kept, 0.0), score)
        anchors = _separate_spans([m for m in kept_side if not classes.get(m.qid)])[:2]
        for m in anchors:  # a relation the words name (the lexicon's phrases), of an entity before the negation
            # ("limitan con Alemania")
            pids = [*sorted(phrased - EXCLUSION_UNTYING), *sorted(named - phrased - EXCLUSION_UNTYING)]
            for pid in pids[:MAX_NAMED_RELATIONS]:  # the lexicon's first, then the simple readings' relations
                for body in (((wd(m.qid), wdt(pid), "?answer"),),) + (
                        () if pid in SYMMETRIC_PROPERTIES else (((("?answer", wdt(pid), wd(m.qid))),),)):
                    score = (0.85 if pid in phrased else 0.6) * m.score
                    if sets.get(body, 0.0) < score and self._count(body) >= 2:  # a simple reading's weaker
                        sets[body] = score  # score does not hide the relation the words name
        for body, set_score in sorted(sets.items(), key=lambda kv: -kv[1])[:MAX_EXCLUSION_SETS]:
            members = self._count(body)
            if members < 2:
                continue
            if named_classes and not self._of_class(body, members, named_classes):
                continue  # "countries in South America that …": its neighbours are continents
            for m in after:
                for patterns, weight, is_named in self._exclusion_ties(body, m, named):
                    remaining = self._count(body, patterns)
                    if not 0 < remaining < members:
                        continue
                    emit(exclusion_query(body, patterns), 0.5 + 0.45 * set_score * m.score * weight, "exclusion",
                         shape="exclusion", triples=body, excluded=patterns, set=set_score, link=m.score,
                         named=1.0 if is_named else 0.0)

    def _exclusion_ties(self, body: Sequence[Triple], m: Mention, named: frozenset[str]
                        ) -> list[tuple[list[Triple], float, bool]]:
        """The patterns tying the set's members to ``m`` (most frequent first, the named
        ones only when the question names one), each whose property every member has; a
        symmetric relation is excluded both ways (the KG's "shares border with" lists
        Luxembourg from Luxembourg's side only)."""
        found: list[tuple[int, Triple, str]] = []
        for pid, inverse, members in self.facts.ties(m.qid, body, 4):
            if pid in EXCLUSION_UNTYING or members is None:
                continue
            if pid in SYMMETRIC_PROPERTIES and not inverse:
                continue  # a symmetric relation is read from the anchor's own statements
            triple = (wd(m.qid), wdt(pid), "?answer") if inverse else ("?answer", wdt(pid), wd(m.qid))
            found.append((members, triple, pid))
        found.sort(key=lambda t: (-(t[2] in named), -t[0], t[1]))
        if any(pid in named for _, _, pid in found):
            found = [t for t in found if t[2] in named]
        out = []
        for rank, (_, triple, pid) in enumerate(found[:2]):
            own = triple[0] == "?answer"
            if own and self._count(body) != self._count([*body, ("?answer", wdt(pid), "?value")]):
                continue  # a member without a value for the property: not known to lack the tie
            patterns = [triple, triple[::-1]] if pid in SYMMETRIC_PROPERTIES else [triple]
            out.append((patterns, (1.0 if pid in named else 0.6) * (0.9 ** rank), pid in named))
        return out

    def _of_class(self, body: Sequence[Triple], members: int, named_classes: set[str]) -> bool:
        """Whether the set is typed by a class the question names, or most of its members
        (:data:`~backends.local.constraints.DESCRIPTIVE_SHARE`) are instances of one."""
        if any(tr[0] == "?answer" and tr[1] in ("wdt:P31", "wdt:P106") and tr[2] in named_classes for tr in body):
            return True
        return any(self._count([*body, ("?answer", "wdt:P31", c)]) >= DESCRIPTIVE_SHARE * members
                   for c in sorted(named_classes))

    def _count(self, body: Sequence[Triple], excluded: Sequence[Triple] = ()) -> int:
        """Members of a body's ``?answer`` set (without those :func:`exclusion_query` leaves out)."""
        sparql = f"SELECT (COUNT(DISTINCT ?answer) AS ?n) WHERE {exclusion_group(body, excluded)}"
        result = self.facts.query(sparql, max_rows=1)
        n = result.rows[0].get("n") if result and result.rows else None
        return int(float(n.value)) if n is not None else 0

    def _place_sets(self, a: Analysis, mentions: Sequence[Mention], classes: Mapping[str, tuple[str, ...]]
                    ) -> list[EntitySet]:
        """A class within a place, to order ("the largest country in Africa"):
        :meth:`ConstraintGenerator.place_sets`.  Ordered only when every comparable member
        has the value: the KG lacks the area of some countries, and the largest of the
        others is then a guess."""
        found = self.constraints.place_sets(a, mentions, classes)[:MAX_CONSTRAINT_SETS]
        return [EntitySet(s.triples, s.score, PLACE_ORIGIN, min_coverage=1.0) for s in found]

    @staticmethod
    def _emit_set(s: ConstraintSet, emit) -> None:
        sparql = f"SELECT DISTINCT ?answer WHERE {{ {render_body(s.triples)} }}"
        emit(sparql, 0.5 + 0.4 * s.score, s.shape, shape=s.shape, triples=s.triples, set=s.score, named=s.named,
             members=min(1.0, s.members / 100))

    # ------------------------------------------------------------------ helpers

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
        for m in sorted(best.values(), key=lambda m: -reach(m, list(best.values()))):
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
                if self.facts.ask(f"ASK {{ ?x {wdt(pid)} {wd(qid)} }}"):
                    found.append(pid)
            self._class_cache[qid] = tuple(found)
        return self._class_cache[qid]

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
                self.aggregates.superlative_among(a, group, emit)
            return
        pairs = [(group[0], group[1], group[0].score * group[1].score)]
        readings = a.readings[:6]
        for first, second, pair_score in pairs:
            values = self.facts.values([first.qid, second.qid], [r.pid for r in readings])
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
        if a.alive and self._alive(instances, emit):
            return  # "is X still alive?" asks nothing else
        if a.dead and self._dead(instances, emit):
            return  # "is X dead?" neither
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
                    if c.qid != m.qid and self.facts.ask(ask_query([(wd(m.qid), wdt(pid), wd(c.qid))])):
                        emit(ask_query([(wd(m.qid), wdt(pid), wd(c.qid))]), 0.5 + 0.4 * m.score * c.score,
                             "ask_type", shape="ask", triples=[(wd(m.qid), wdt(pid), wd(c.qid))],
                             link=m.score * c.score)

    def _alive(self, instances: Sequence[Mention], emit) -> bool:
        """"Is X still alive?": ``ASK`` that the person has none of the death facts
        (:data:`DEATH_PROPERTIES`) the KG holds for them, always with the date of death
        (which the validator reads as "alive" best).  Emitted only for a person the KG
        holds a death fact for, so its answer is "no": a person without one is not known to
        be alive (this KG lists a date of death for almost no one), and a "yes" would be a
        guess."""
        emitted = False
        for m in instances[:2]:
            held = self._death_facts(m.qid)
            if not held:
                continue
            pids = [p for p in DEATH_PROPERTIES if p == DEATH_PROPERTIES[0] or p in held][:MAX_ALIVE_TESTS]
            excluded = [(wd(m.qid), wdt(pid), "?value") for pid in pids]
            sparql = alive_query(excluded)
            if self.facts.ask(sparql) is not False:
                continue
            emit(sparql, 0.55 + 0.4 * m.score, "ask_alive", shape="ask", triples=(), excluded=excluded,
                 link=m.score)
            emitted = True
        return emitted

    def _dead(self, instances: Sequence[Mention], emit) -> bool:
        """"Is X dead?": ``ASK`` that the person has a death fact (:data:`DEATH_PROPERTIES`,
        the first the KG holds for them, the date of death first).  Emitted only for a person
        the KG holds one for, so its answer is "yes": a person without one is not known to be
        alive (this KG lists a date of death for almost no one), and a "no" would be a guess."""
        emitted = False
        for m in instances[:2]:
            facts = self._death_facts(m.qid)
            held = next((p for p in DEATH_PROPERTIES if p in facts), None)
            if held is None:
                continue
            triple = (wd(m.qid), wdt(held), "?value")
            emit(ask_query([triple]), 0.55 + 0.4 * m.score, "ask_dead", shape="ask", triples=[triple],
                 link=m.score)
            emitted = True
        return emitted

    def _death_facts(self, qid: str) -> set[str]:
        """The death properties (:data:`DEATH_PROPERTIES`) the KG holds for ``qid``, read in one
        query; none for an entity that is not a person."""
        if not self.facts.ask(f"ASK {{ {wd(qid)} {wdt('P31')} {wd(HUMAN)} }}"):
            return set()
        props = " ".join(wdt(p) for p in DEATH_PROPERTIES)
        result = self.facts.query(f"SELECT DISTINCT ?p WHERE {{ VALUES ?p {{ {props} }} {wd(qid)} ?p ?value }}",
                                  max_rows=len(DEATH_PROPERTIES))
        return {local_id(row["p"].value) for row in result.rows if "p" in row} if result else set()

    def _ask_comparison(self, a: Analysis, instances: Sequence[Mention], emit) -> None:
        for first, second, pair_score in self._pairs(a, instances)[:2]:
            values = self.facts.values([first.qid, second.qid], [r.pid for r in a.readings[:6]])
            for r in a.readings[:6]:
                if not (values.get((first.qid, r.pid)) and values.get((second.qid, r.pid))):
                    continue
                op = "<" if r.direction == "ASC" else ">"
                triples = [(wd(first.qid), wdt(r.pid), "?a"), (wd(second.qid), wdt(r.pid), "?b")]
                emit(ask_query(triples, f"?a {op} ?b"), 0.55 + 0.45 * pair_score * r.weight, "ask_comparison",
                     shape="ask", triples=triples, link=pair_score, reading=r.weight)

    def _ask_filter(self, a: Analysis, m: Mention, f: NumberFilter, emit) -> None:
        pids = self.aggregates.filter_properties(a, f)
        values = self.facts.values([m.qid], [p for p, _ in pids])
        for pid, w in pids:
            if not values.get((m.qid, pid)):
                continue
            if self.aggregates.kind_mismatch(pid, f):
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
                truth = self.facts.ask(sparql)
                base_score = squash(cand.score) * (0.97 ** rank)
                if truth:
                    emit(sparql, 0.45 + 0.5 * base_score * m.score, "ask_relation", shape="ask", triples=[triple],
                         link=m.score, base=base_score)
                elif (truth is False and pid in FUNCTIONAL_PROPERTIES and o == "?answer" and m.score >= 0.7
                      and dict(cand.features).get("prop_score", 1.0) >= 0.5):
                    emit(sparql, 0.35 + 0.45 * base_score * m.score, "ask_relation_no", shape="ask", triples=[triple],
                         link=m.score, base=base_score)

    # ------------------------------------------------------------------ sets

    @staticmethod
    def _phrased_properties(question: str, lang: str) -> frozenset[str]:
        """Properties the question's words name by the property lexicon's phrases."""
        with contextlib.suppress(LexiconError):
            return frozenset(m.pid for m in default_lexicon().match_properties(question, lang))
        return frozenset()

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


PLACE_ORIGIN = "constraint:place"


def _without_partial_places(sets: Sequence[EntitySet]) -> list[EntitySet]:
    """The sets to order, without a class tied to a place by another locative property than
    the place set's (the most frequent one): "countries located in South America" holds 8
    of the continent's 15 countries, and its largest is not the continent's."""
    placed = {(s.triples[1][2], s.triples[0]): s.triples[1][1] for s in sets if s.origin == PLACE_ORIGIN}
    out = []
    for s in sets:
        partial = s.origin != PLACE_ORIGIN and len(s.triples) == 2 and any(
            (tie[0] == "?answer" and tie[1].removeprefix("wdt:") in LOCATIVE_PROPERTIES
             and placed.get((tie[2], kind), tie[1]) != tie[1])
            for tie, kind in ((s.triples[0], s.triples[1]), (s.triples[1], s.triples[0])))
        if not partial:
            out.append(s)
    return out


def _separate_spans(mentions: Sequence[Mention]) -> list[Mention]:
    """The best mention of each span, spans that do not overlap a better one."""
    kept: list[Mention] = []
    for m in sorted(mentions, key=lambda m: -m.score):
        if not any(m.char_start < k.char_end and k.char_start < m.char_end for k in kept):
            kept.append(m)
    return kept


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
            pattern = r"[\W_]*".join(parts)  # a whole word first: "german" is not inside "germany"
            found = re.search(rf"(?<!\w){pattern}(?!\w)", text) or re.search(pattern, text)
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
    if a.negated and not a.yes_no:  # "… but do not have German as an official language": only an
        # exclusion reads the negation; every other reading answers the question without it
        complex_ = [c for c in complex_ if c.excluded]
    elif not answer_form_is_fixed(a):
        for c in simple:
            pid = _body_pid(c)
            if a.count and not (pid in a.properties and pid in COUNTABLE_PROPERTIES):
                continue
            kept.append(c)
    complex_, kept = _one_set_one_candidate(complex_, kept)
    if asks_for_set(a):
        kept = as_intersections(kept)
    seen: dict[str, Candidate] = {}
    for c in [*complex_, *kept]:
        if c.sparql not in seen or seen[c.sparql].score < c.score:
            seen[c.sparql] = c
    return sorted(seen.values(), key=lambda c: (-c.score, c.sparql))


def set_key(triples: Iterable[Triple]) -> frozenset[Triple]:
    """The set a body describes, whatever the order of its patterns and the side a symmetric
    relation is read from (``?answer P47 wd:France`` is ``wd:France P47 ?answer``)."""
    out = set()
    for s, p, o in triples:
        symmetric = p.removeprefix("wdt:") in SYMMETRIC_PROPERTIES
        out.add((o, p, s) if symmetric and s == "?answer" and o.startswith("wd:") else (s, p, o))
    return frozenset(out)


def _anchor_ties(key: Iterable[Triple]) -> list[Triple]:
    """The patterns of a set that tie its members to an entity by another relation than a type."""
    return [t for t in key if t[1].removeprefix("wdt:") not in TYPE_PROPERTIES
            and any(x.startswith("wd:") for x in (t[0], t[2]))]


def intersection_of(key: frozenset[Triple]) -> tuple[str, bool, frozenset[str]] | None:
    """``(property, inverse, anchors)`` when a set (:func:`set_key`) is the intersection of
    two or more anchors by one relation, each read the same way ("?answer cast member A .
    ?answer cast member B"), else ``None``."""
    ties = _anchor_ties(key)
    if len(ties) < 2 or len(ties) != len(key):
        return None
    props = {p for _, p, _ in ties}
    inverse = {s != "?answer" for s, _, _ in ties}
    anchors = frozenset(s if s != "?answer" else o for s, _, o in ties)
    if len(props) != 1 or len(inverse) != 1 or len(anchors) != len(ties) or not all(
            "?answer" in (s, o) for s, _, o in ties):
        return None
    return next(iter(props)), next(iter(inverse)), anchors


def as_intersections(simple: Sequence[Candidate]) -> list[Candidate]:
    """For a question that asks for a set: a plain reading that is the intersection of
    anchors by one relation (:func:`intersection_of`) is a constraint set of that shape
    (``intersection``, ``conditions`` for three or more), and is gated as one; unless another
    reading ties a further anchor the same way (the question then names more anchors than
    this reading holds, as in "borders France, Germany and Italy")."""
    found = {id(c): intersection_of(set_key(c.triples)) for c in simple if c.shape == "plain"}
    anchors: dict[tuple[str, bool], set[str]] = {}
    for hit in found.values():
        if hit is not None:
            anchors.setdefault(hit[:2], set()).update(hit[2])
    out = []
    for c in simple:
        hit = found.get(id(c))
        if hit is not None and anchors[hit[:2]] == hit[2]:
            shape = SHAPE_INTERSECTION if len(hit[2]) == 2 else SHAPE_CONDITIONS
            c = replace(c, shape=shape)
        out.append(c)
    return out


def _one_set_one_candidate(complex_: Sequence[Candidate], simple: Sequence[Candidate]
                           ) -> tuple[list[Candidate], list[Candidate]]:
    """A plain reading that describes the same set as a constraint set (a class and a
    condition, two or more anchors) is that set: one candidate of the constraint's shape,
    with the better of the two scores.  A plain reading of two or more anchors that describes
    a set the question narrows by a further anchor (a strict part of an intersection or of
    several conditions: "borders France and Italy" of "borders France, Germany and Italy")
    leaves an anchor of the question out, and is dropped."""
    sets = {set_key(c.triples): c for c in complex_ if c.shape in CONSTRAINT_SHAPES and not c.excluded}
    better: dict[frozenset[Triple], float] = {}
    kept = []
    for c in simple:
        key = set_key(c.triples) if c.shape == "plain" else frozenset()
        if key in sets:
            better[key] = max(better.get(key, 0.0), c.score)
            continue
        if len(_anchor_ties(key)) >= 2 and any(key < k and _anchor_ties(k - key) for k in sets):
            continue
        kept.append(c)
    out = [replace(c, score=max(c.score, better[k])) if (k := set_key(c.triples)) in better and c is sets[k] else c
           for c in complex_]
    return out, kept


def extend_candidates(generator: ComplexGenerator, question: str, lang: str, simple: Sequence[Candidate],
                      linked: Sequence[Mention]) -> list[Candidate]:
    """The local backend's hook: analyze the question once (numbers inside the linked
    names are not filters), build the complex candidates from the linker's mentions and
    the simple candidates, and merge both lists.  A question whose only cue is a number
    inside a name still goes through the merge (which drops the plain candidates when the
    question's form is fixed)."""
    mentions = mentions_from_links(question, linked)
    a = analyze(question, lang, name_spans(mentions))
    if not a.is_complex and not a.alternative and not a.name_numbers and not asks_for_set(a) and not a.negated:
        return list(simple)
    complex_ = generator.candidates(question, lang, mentions, simple, analysis=a)
    excluded = frozenset(t for c in complex_ for tr in c.excluded for t in (tr, tr[::-1]))
    if excluded:  # a reading that asserts what the question excludes answers its opposite
        simple = [c for c in simple if not excluded & set(c.triples)]
        complex_ = [c for c in complex_ if c.excluded or not excluded & set(c.triples)]
    return merge(a, simple, complex_)
