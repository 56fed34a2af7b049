"""Query graphs of the local generator: from a question's anchors and the properties
adjacent to them (:class:`backends.local.reads.KGReads`), the small graphs it may mean.

* 1 hop forward ``wd:E wdt:P ?answer`` and backward ``?answer wdt:P wd:E``;
* a 1-hop graph narrowed by a class named in the question (``?answer wdt:P31 wd:C``), or
  the answers' most frequent class, directly or through subclasses;
* the intersection of two entities' 1-hop graphs;
* 2 hops ``wd:E wdt:P1 ?x . ?x wdt:P2 ?answer``;
* readings the KG holds no value for (never executed; they let the pipeline say so).

Each graph carries its features (:mod:`backends.local.features`).
"""

from __future__ import annotations

import contextvars
import math
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

from backends.local.features import Generated, Question, base_features, content_words_beside
from backends.local.linking import Mention
from backends.local.properties import ASKED_WORD_SCORE, PropertyMatch, prop_matches
from backends.local.reads import (
    ADJACENCY_ROWS,
    HUB_DEGREE,
    PAIR_MAX_ANSWERS,
    SPECIFIC,
    Adjacent,
    KGReads,
    type_fit,
)
from backends.local.shapes import (
    IdTriple,
    backward,
    forward,
    intersect,
    sparql_node,
    two_hop,
    typed,
    typed_sub,
    where,
)
from kg.client import value_kind, whole_number
from kg.sparql import WDT, local_id, prop_iri, short
from qa.candidate import EXACT_LINKS, Candidate, Link

TYPE_CHECKS = 8
PAIR_SETS = 3
TYPE_MAX_ANSWERS = 1500
TWO_HOP_FIRST = 3
TWO_HOP_MAX_MID = 25
NO_VALUE_READINGS = 3  # readings of entities the KG holds no value of the asked property for


class QueryGraphs:
    """The candidate graphs of an analyzed question, with their features (unranked)."""

    def __init__(self, reads: KGReads, *, batch_probes: bool = False) -> None:
        self.reads = reads
        self.batch_probes = batch_probes  # an endpoint: each kind of read for many graphs in one request

    def one_hop(self, q: Question) -> list[Generated]:
        out = []
        cache: dict[tuple, dict[str, PropertyMatch]] = {}
        if self.batch_probes:
            self.reads.prefetch_adjacency(q.mentions)
        for rank, m in enumerate(q.mentions):
            matches = prop_matches(self.reads.props, q.tokens, q.lang, [(m.start, m.end)], cache, q.class_spans)
            adj = self.reads.adjacency(m.qid, outgoing=True)
            if m.degree <= HUB_DEGREE:
                adj = adj + self.reads.adjacency(m.qid, outgoing=False)
            for a in adj:
                pm = matches.get(a.pid, PropertyMatch())
                triples = forward(m.qid, a.pid) if a.forward else backward(m.qid, a.pid)
                feats = base_features(q, m, rank, pm, a, self.reads.types, self.reads.props)
                out.append(Generated(triples, "fwd" if a.forward else "bwd", feats, answers=a.count,
                                     anchor=m.qid, words=pm.words))
        return out

    def narrowed(self, q: Question, ranked: Sequence[Generated]) -> list[Generated]:
        """Narrow the best 1-hop graphs by a class: one the question names, or the answers'
        most frequent class; directly (``P31``) or through subclasses (``P31/P279*``).
        Over an endpoint the graphs' class counts, and then their answers through
        subclasses, are read in one request each."""
        graphs = [g for g in ranked if g.shape in ("fwd", "bwd") and 2 <= g.answers <= TYPE_MAX_ANSWERS][:TYPE_CHECKS]
        counted = self.reads.batch_answer_classes([g.triples for g in graphs]) if self.batch_probes else {}
        plans = []
        for g in graphs:
            counts = counted[g.sparql] if g.sparql in counted else self.reads.answer_classes(g.triples)
            named = {c.qid: c for c in q.classes if c.qid != g.anchor}
            wanted = [c for c in named if c in counts]
            top = max(counts.items(), key=lambda kv: (kv[1], kv[0]), default=None)
            if top is not None and top[0] not in named and top[1] >= 0.3 * g.answers:
                wanted.append(top[0])
            plans.append((g, counts, named, wanted))
        # over an endpoint, in one request: the answers through subclasses of every class not
        # known to have none (one without counts its direct instances again), and which have
        classes = {c for _g, _c, _n, wanted in plans for c in wanted}
        sub_counts = self.reads.batch_counts([typed_sub(g.triples, c) for g, _c, _n, wanted in plans for c in wanted
                                         if self.reads.may_have_subclasses(c)], classes) if self.batch_probes else {}
        out = []
        for g, counts, named, wanted in plans:
            for cls in wanted:
                mention = named.get(cls)
                direct = counts[cls]
                if direct < g.answers:
                    out.append(self.typed_candidate(q, g, cls, mention, direct, typed(g.triples, cls), "+type"))
                elif mention is not None and g.class_span is None:
                    out.append(self.wholly_typed(q, g, mention))
                triples = typed_sub(g.triples, cls)
                counted = sub_counts.get(where(triples))
                if counted is not None or self.reads.has_subclasses(cls):
                    n = counted if counted is not None else self.reads.count(triples)
                    if direct < n < g.answers:
                        out.append(self.typed_candidate(q, g, cls, mention, n, triples, "+subtype"))
        return out + self.one_answer_typed(q, ranked)

    def one_answer_typed(self, q: Question, ranked: Sequence[Generated]) -> list[Generated]:
        """The best 1-hop graphs of one answer reading the class noun the question names when
        that answer is of the class, directly or through a subclass (:meth:`wholly_typed`):
        "which country borders gambia" asks for Senegal, a country, as "which films" asks for
        works that are each a film; the reading of ``P47`` reads « country » too.  A class
        narrows nothing of one answer, so no typed graph is made of it; and a noun its
        property's phrase reads already ("australia capital": « capital », of ``P1376``) is
        left as it is read (recorded as the answers' class, it would leave the relation to the
        class noun alone, :func:`qa.decisions.kind.noun_tie`).  Over an endpoint the graphs'
        classes are read in one request, as :meth:`narrowed` reads them."""
        graphs = [g for g in ranked if g.shape in ("fwd", "bwd") and g.answers == 1][:TYPE_CHECKS]
        plans = [(g, named) for g in graphs if g.class_span is None
                 and (named := {c.qid: c for c in q.classes if c.qid != g.anchor})]
        counted = self.reads.batch_answer_classes([g.triples for g, _ in plans]) if self.batch_probes else {}
        out = []
        for g, named in plans:
            counts = counted[g.sparql] if g.sparql in counted else self.reads.answer_classes(g.triples)
            cls = next((c for c in named if counts.get(c)), None) or next(
                (c for c in named if self.reads.may_have_subclasses(c) and self.reads.has_subclasses(c)
                 and self.reads.count(typed_sub(g.triples, c)) == 1), None)
            if cls is not None and not self._noun_read(q, g, named[cls]):
                out.append(self.wholly_typed(q, g, named[cls]))
        return out

    def typed_candidate(self, q: Question, g: Generated, cls: str, mention: Mention | None, n: int,
                         triples: list[IdTriple], suffix: str) -> Generated:
        feats = dict(g.features)
        feats["has_type"] = 1.0
        feats["type_subclasses"] = 1.0 if suffix == "+subtype" else 0.0
        feats["type_from_answers"] = 0.0 if mention else 1.0
        if mention is not None:
            feats["type_link"] = mention.score
            feats["type_coverage"] = mention.coverage
            feats["coverage"] = min(1.0, feats["coverage"] + mention.coverage)
            feats["explained"] = min(1.0, feats["explained"] + mention.coverage)
            feats["rest_read"] = self._rest_read(q, g, mention)
        feats["log_answers"] = math.log1p(n)
        feats["single_answer"] = 1.0 if n == 1 else 0.0
        feats["type_share"] = n / max(1, g.answers)
        class_type = self.reads.types.class_type.get(cls)
        if class_type in SPECIFIC:
            feats["type_fit"], feats["type_mismatch"] = type_fit(class_type, q.qtype)
        return Generated(triples, g.shape + suffix, feats, answers=n, anchor=g.anchor, words=g.words,
                         class_span=(mention.start, mention.end) if mention is not None else None)

    def wholly_typed(self, q: Question, g: Generated, mention: Mention) -> Generated:
        """``g`` reading the class noun ``mention`` too, when every one of its answers is of
        that class: « ¿Qué películas dirigió Christopher Nolan? » asks for his works, each a
        film, so narrowing them by the class changes nothing and the reading without the
        class reads « películas » all the same (unless its property's phrase reads the noun
        already: :meth:`_noun_read`, when it only records the noun).  Its query is ``g``'s own;
        only what it explains grows (:func:`backends.local.features.add` keeps it in ``g``'s
        place), and its candidate knows the noun its answers are of (:attr:`Candidate.typed_noun`)."""
        if self._noun_read(q, g, mention):
            return replace(g, class_span=(mention.start, mention.end))
        feats = dict(g.features)
        feats["coverage"] = min(1.0, feats["coverage"] + mention.coverage)
        feats["explained"] = min(1.0, feats["explained"] + mention.coverage)
        feats["rest_read"] = self._rest_read(q, g, mention)
        return replace(g, features=feats, class_span=(mention.start, mention.end))

    def _noun_read(self, q: Question, g: Generated, mention: Mention) -> bool:
        """Whether ``g``'s property phrase reads a word of the class noun ``mention`` already
        (« filmes » is a phrase of the cast, P161): the noun then adds nothing to what it reads."""
        return any(self.reads.props.form(t) in g.words for t in q.tokens[mention.start:mention.end])

    def _rest_read(self, q: Question, g: Generated, mention: Mention) -> float:
        """The share of the content words beside ``g``'s anchor that its property phrase or the
        class noun ``mention`` reads ("which **films** were **directed** by James Cameron"): the
        ``rest_matched`` of a graph narrowed by a class the question names."""
        props = self.reads.props
        anchor = next((m for m in q.mentions if m.qid == g.anchor), None)
        spans = [(anchor.start, anchor.end)] if anchor is not None else []
        words = content_words_beside(props, q, spans)
        read = set(g.words) | {props.form(t) for t in q.tokens[mention.start:mention.end]}
        return min(1.0, sum(w in read for w in words) / len(words)) if words else 1.0

    def pairs(self, q: Question, ranked: Sequence[Generated]) -> list[Generated]:
        per_anchor: dict[str, list[Generated]] = {}
        for g in ranked:
            if g.shape not in ("fwd", "bwd") or not 0 < g.answers <= PAIR_MAX_ANSWERS:
                continue
            anchor = g.triples[0][0] if g.shape == "fwd" else g.triples[0][2]
            lst = per_anchor.setdefault(anchor, [])
            if len(lst) < PAIR_SETS:
                lst.append(g)
        spans = {m.qid: (m.start, m.end) for m in q.mentions}
        anchors = [a for a in per_anchor if a in spans][:4]
        out = []
        sets: dict[str, set[str]] = {}
        if self.batch_probes:  # an endpoint: every answer set a pair may need, in one request
            pairs = [(a, b) for i, a in enumerate(anchors) for b in anchors[i + 1:]
                     if not (spans[a][0] < spans[b][1] and spans[b][0] < spans[a][1])]
            needed = {g.sparql: g for a, b in pairs for g in (*per_anchor[a], *per_anchor[b])}
            sets.update(self.reads.batch_answer_sets([g.triples for g in needed.values()]))
        for i, a in enumerate(anchors):
            for b in anchors[i + 1:]:
                (sa, ea), (sb, eb) = spans[a], spans[b]
                if sa < eb and sb < ea:
                    continue
                for ga in per_anchor[a]:
                    for gb in per_anchor[b]:
                        common = self.reads.answer_set(ga.triples, sets) & self.reads.answer_set(gb.triples, sets)
                        if not common:
                            continue
                        out.append(self.pair(q, ga, gb, len(common), (spans[a], spans[b])))
        return out

    def pair(self, q: Question, ga: Generated, gb: Generated, n: int,
             spans: Sequence[tuple[int, int]] = ()) -> Generated:
        """The intersection of ``ga`` and ``gb``'s answers (``n`` of them), anchored at the
        mentions ``spans``.  What its property words read is weighed against the words beside
        both names (« Which films directed by Tim Burton star Johnny Depp? »: "directed" and
        "star" of five content words beside Burton alone, of two beside both)."""
        fa, fb = ga.features, gb.features
        feats = dict(fa)
        for k in ("link_score", "link_quality", "link_prior", "prop_score", "prop_lex", "prop_kg"):
            feats[k] = (fa[k] + fb[k]) / 2
        feats["link_min"] = min(fa["link_score"], fb["link_score"])
        feats["prop_min"] = min(fa["prop_score"], fb["prop_score"])
        feats["coverage"] = min(1.0, fa["coverage"] + fb["link_coverage"])
        shared = ga.words & gb.words
        extra = sum(len(w) for w in gb.words - ga.words) / q.content_chars
        feats["explained"] = min(1.0, fa["explained"] + fb["link_coverage"] + extra)
        feats["pair_shared"] = 1.0 if shared else 0.0
        if spans and not _named_beside(q, spans):
            beside = content_words_beside(self.reads.props, q, spans)
            feats["rest_matched"] = min(1.0, len(ga.words | gb.words) / len(beside)) if beside else 1.0
        feats["n_entities"] = 2.0
        feats["log_answers"] = math.log1p(n)
        feats["single_answer"] = 1.0 if n == 1 else 0.0
        for k, v in fb.items():
            if k.startswith("pid="):
                feats[k] = max(feats.get(k, 0.0), v)
        return Generated(intersect(ga.triples, gb.triples), "and", feats, answers=n, anchor=ga.anchor,
                         words=ga.words | gb.words)

    def two_hops(self, q: Question, ranked: Sequence[Generated]) -> list[Generated]:
        out = []
        cache: dict[tuple, dict[str, PropertyMatch]] = {}
        firsts = [g for g in ranked if g.shape == "fwd" and 0 < g.answers <= TWO_HOP_MAX_MID
                  and g.features["prop_score"] > 0][:TWO_HOP_FIRST]
        mentions = {m.qid: m for m in q.mentions}
        firsts = [g for g in firsts if g.triples[0][0] in mentions]
        batched = self.reads.batch_second_hops([g.triples[0][:2] for g in firsts]) if self.batch_probes else None
        for i, g in enumerate(firsts):
            entity, p1, _ = g.triples[0]
            m = mentions[entity]
            sparql = (f"SELECT ?p (COUNT(DISTINCT ?v) AS ?n) (SAMPLE(?v) AS ?ex) WHERE {{ "
                      f"{sparql_node(entity)} {short(prop_iri(p1))} ?x . ?x ?p ?v . }} GROUP BY ?p")
            matches = prop_matches(self.reads.props, q.tokens, q.lang, [(m.start, m.end)], cache, q.class_spans)
            for row in batched[i] if batched is not None else self.reads.query(sparql, ADJACENCY_ROWS):
                p, n = row.get("p"), row.get("n")
                pid = local_id(p.value) if p is not None and p.value.startswith(WDT) else None
                if pid is None or n is None or pid == p1:
                    continue
                pm = matches.get(pid)
                if pm is None or pm.score <= 0:
                    continue
                count = whole_number(n)
                a = Adjacent(pid, True, count, value_kind(row.get("ex")))
                feats = base_features(q, m, 0, pm, a, self.reads.types, self.reads.props)
                feats["hops"] = 2.0
                feats["anchor_fit"], feats["anchor_mismatch"] = type_fit(q.anchor_types.get(entity),
                                                                     self.reads.types.side_type(p1, "s"))
                feats["prop_first"] = g.features["prop_score"]
                feats["prop_min"] = min(pm.score, g.features["prop_score"])
                feats["pair_shared"] = 1.0 if pm.words & g.words else 0.0
                extra = sum(len(w) for w in g.words - pm.words) / q.content_chars
                feats["explained"] = min(1.0, feats["explained"] + extra)
                feats[f"pid={pid}"] = 0.5
                feats[f"pid={p1}"] = 0.5
                out.append(Generated(two_hop(entity, p1, pid), "2hop", feats, answers=count, anchor=entity,
                                     words=pm.words | g.words))
        return out

    def expand_concurrently(self, q: Question, best_first: Sequence[Generated]) -> list[list[Generated]]:
        """The typed, pair and two-hop expansions run at once (each in a copy of this context,
        so the question's KG budget holds), their candidates in that order."""
        expansions = (self.narrowed, self.pairs, self.two_hops)
        with ThreadPoolExecutor(max_workers=len(expansions)) as pool:
            futures = [pool.submit(contextvars.copy_context().run, expand, q, best_first) for expand in expansions]
            return [list(f.result()) for f in futures]

    def no_value_readings(self, q: Question, evidence: Mapping[str, Link], forms: Sequence[str],
                          limit: int = NO_VALUE_READINGS) -> list[Candidate]:
        """Readings of the question that the KG holds no value for: an entity named whole
        (by a label or alias, every typed word of its name) and a property whose lexicon
        phrase the rest of the question says well (:data:`ASKED_WORD_SCORE`) but which the
        entity has in neither direction.  They are never executed: they let the pipeline say
        "I know X, but my data has no <property> for X" instead of blaming the question."""
        out: list[Candidate] = []
        cache: dict[tuple, dict[str, PropertyMatch]] = {}
        for m in q.mentions:
            link = evidence.get(m.qid)
            if link is None or link.kind not in EXACT_LINKS or link.name_cover < 1.0 or m.is_class:
                continue
            matches = prop_matches(self.reads.props, q.tokens, q.lang, [(m.start, m.end)], cache, q.class_spans)
            said = [(pm.lexicon, pid) for pid, pm in matches.items()
                    if pm.lexicon >= ASKED_WORD_SCORE and pm.lexicon == pm.score]
            if not said:
                continue
            _, pid = max(said)
            held = {a.pid for a in (*self.reads.adjacency(m.qid, outgoing=True),
                                    *self.reads.adjacency(m.qid, outgoing=False))}
            if pid in held:
                continue
            g = Generated(forward(m.qid, pid), "fwd", {"no_value": 1.0}, answers=0, anchor=m.qid,
                          words=matches[pid].words)
            out.append(replace(g.candidate(evidence, forms, q.type_words), score=0.0, no_value=True))
            if len(out) >= limit:
                break
        return out


NAMED_KINDS = frozenset({"label", "alias", "folded", "inflected"})
"""Mention kinds that say a name as written (not a loose spelling or a sound-alike)."""


def _named_beside(q: Question, spans: Sequence[tuple[int, int]]) -> bool:
    """Whether the question names another entity, as written, outside ``spans``: a pair of two
    of three anchors leaves one out ("borders France, Germany and Italy"), and weighs its words
    against the words beside one name, as its one-hop halves do."""
    nouns = {(m.start, m.end) for m in q.mentions if m.is_class and m.kind in NAMED_KINDS}  # "movies": no name
    return any(not m.is_class and m.kind in NAMED_KINDS and (m.start, m.end) not in nouns
               and not any(m.start < b and a < m.end for a, b in spans) for m in q.mentions)
