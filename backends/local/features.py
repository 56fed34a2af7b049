"""Ranking features of the local generator's candidate graphs.

The analyzed :class:`Question` and a candidate query graph (:class:`Generated`) with its
features; :func:`base_features` of a one-hop graph (link, property match, type fit, name
evidence), :func:`relative_features` against the question's other candidates, and
:func:`rank` by the learned :class:`backends.local.ranker.Ranker`.  :func:`explained_spans`
says which words of the question a candidate explains.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from backends.local.linking import Mention
from backends.local.properties import PropertyMatch, PropertyText, rest
from backends.local.ranker import Ranker
from backends.local.reads import LITERALS, SPECIFIC, Adjacent, TypeModel, type_fit
from backends.local.shapes import P31, IdTriple, entities_of, properties_of, select, sparql_node, sparql_pred
from qa.candidate import Candidate, Explained, Link
from qa.reading.names import name_features


@dataclass
class Question:
    """A question as the generator reads it: its words, expected answer type, linked
    mentions (the anchors), and what its words say about them."""

    text: str
    lang: str
    tokens: list[str]
    qtype: str | None
    mentions: list[Mention]
    classes: list[Mention] = field(default_factory=list)
    content_chars: int = 1
    anchor_types: dict[str, str | None] = field(default_factory=dict)
    cased: list[str] | None = None  # the tokens with their case (None: they do not align)
    breaks: frozenset[int] = frozenset()  # token positions a comma comes before (no name runs across one)
    type_words: dict[str, frozenset[int]] = field(default_factory=dict)  # per entity: words naming its class
    asked_words: frozenset[int] = frozenset()  # words the property lexicon reads (« Geburtsort »)
    described: dict[str, Mention] = field(default_factory=dict)  # per entity: the class noun right before its name

    @property
    def class_spans(self) -> list[tuple[int, int]]:
        """The spans of the question's class mentions (:attr:`classes`)."""
        return [(m.start, m.end) for m in self.classes]

    def name_stops(self, qid: str) -> frozenset[int]:
        """Positions of capitalized words that are not part of a name next to ``qid``'s
        mention: a class of the entity, or a property the question asks for (German
        capitalizes every noun: « Albert Einstein Geburtsort »)."""
        return self.type_words.get(qid, frozenset()) | self.asked_words


@dataclass
class Generated:
    """A candidate query graph with its features (before ranking)."""

    triples: list[IdTriple]
    shape: str
    features: dict[str, float]
    score: float = 0.0
    answers: int = -1
    anchor: str = ""
    words: frozenset[str] = frozenset()  # question words the query's properties explain
    class_span: tuple[int, int] | None = None  # the class noun a typed graph reads as its type (or every answer is of)

    @property
    def sparql(self) -> str:
        """The candidate's SPARQL text."""
        return select(self.triples)

    def candidate(self, evidence: Mapping[str, Link], forms: Sequence[str] = (),
                  type_words: Mapping[str, frozenset[int]] | None = None) -> Candidate:
        """The ranked candidate with its structure: a plain ``SELECT``, its triple patterns in
        compact tokens, its entities and properties, how each linked entity was linked, and
        which words of the question it explains (``forms``: the question's tokens as the
        property phrases are matched, :meth:`PropertyText.form`; ``type_words``: per entity,
        the words naming its class, « den Film Titanic »)."""
        triples = tuple((sparql_node(s), sparql_pred(p), sparql_node(o)) for s, p, o in self.triples)
        entities = entities_of(triples)
        links = tuple(evidence[q] for q in entities if q in evidence)
        return Candidate(self.sparql, self.score, tuple(sorted(self.features.items())), shape="plain",
                         worded=worded(self.features),
                         triples=triples, entities=entities, properties=properties_of(triples),
                         links=links, explains=explained_spans(links, self.words, forms, self.class_span,
                                                               class_words(entities, type_words or {})),
                         typed_noun=self.class_span)



WORDED_PROPERTY = 0.8
"""How surely the lexicon must name a worded reading's property (``prop_lex``)."""
WHOLE = 0.999
"""A share counted whole (the features' shares are sums of rounded parts: 0.99997)."""


def worded(features: Mapping[str, float]) -> bool:
    """Whether a one-hop graph reads every word of the question: its entity's mention and its
    property's phrase explain every content word (``explained``), the phrase is every word left
    beside the mention (``rest_matched``), the lexicon names the property by it, the answer is of
    the type the question word asks for when it asks for one (``qtype_specific``: "where", a
    place; "who", a person) and the entity's type does not contradict the property's
    (« де народився ейнштейн »: Einstein, « народився »; not "Where is peter singer from", whose
    property no phrase names, nor "where did steve jobs work" read as his occupation)."""
    rest_read = max(features.get("rest_matched", 0.0), features.get("rest_read", 0.0))
    return (features.get("explained", 0.0) >= WHOLE and rest_read >= WHOLE
            and features.get("prop_lex", 0.0) >= WORDED_PROPERTY and not features.get("anchor_mismatch", 0.0)
            and (bool(features.get("type_fit", 0.0)) if features.get("qtype_specific", 0.0)
                 else not features.get("type_mismatch", 0.0)))


MIN_LISTED = 2
"""Members a set narrowed by a class needs before it takes the place of the set it narrows
(:func:`typed_first`): a question of one answer asks for that answer, typed or not."""


def typed_first(candidates: Sequence[Candidate]) -> list[Candidate]:
    """``candidates`` where a plain reading narrowed by a class the question names ranks
    before the reading it narrows, when that one leaves the class noun unread: "which
    **films** were directed by James Cameron" asks for his works that are films, and the
    wider set (a documentary among them) answers another question.  The two exchange their
    scores, and the narrowed reading is what the question asks for, a class and a condition:
    a list (the constraint sets leave such a list to the typed reading when the class only
    describes the relation's members, :data:`backends.local.constraints.DESCRIPTIVE_SHARE`).
    Only a narrowed reading that reads every word (:attr:`Candidate.worded`) and lists two or
    more members (:data:`MIN_LISTED`) moves; a reading that reads the noun in its property's
    phrase ("which films did Tarantino direct": « films … direct ») keeps its place.  A count
    is not touched: its simple readings are gone by now (:func:`backends.local.complex.merge`)."""
    plain = {frozenset(c.triples): c for c in candidates if c.shape == "plain"}
    swapped: dict[str, Candidate] = {}
    for c in candidates:
        base = plain.get(frozenset(c.triples[:-1])) if _typed_by_named_class(c) else None
        if base is None or base.score <= c.score or base.sparql in swapped or c.sparql in swapped:
            continue
        if any(s < b and a < e for a, b, kind in c.explains if kind == "class" for s, e, _ in base.explains):
            continue
        swapped[c.sparql] = replace(c, score=base.score, shape="list")
        swapped[base.sparql] = replace(base, score=c.score)
    if not swapped:
        return list(candidates)
    return sorted((swapped.get(c.sparql, c) for c in candidates), key=lambda c: (-c.score, c.sparql))


def _typed_by_named_class(c: Candidate) -> bool:
    """Whether ``c`` is a plain reading that reads every word, narrowed last by ``?answer
    wdt:P31`` a class the question names, with :data:`MIN_LISTED` members or more."""
    if c.shape != "plain" or not c.worded or len(c.triples) < 2 or not any(k == "class" for *_, k in c.explains):
        return False
    subject, predicate, _ = c.triples[-1]
    members = math.expm1(dict(c.features).get("log_answers", 0.0))
    return subject == "?answer" and predicate == "wdt:P31" and round(members) >= MIN_LISTED


def unworded_beside_lists(candidates: Sequence[Candidate]) -> list[Candidate]:
    """``candidates`` where, when one of them reads the question as a list (members of a class
    with a condition: « qué países hay en Sudamérica », countries on the continent), a plain
    reading without the class is not :func:`worded`: it leaves the class unasked ("South
    America has part", which lists a territory too)."""
    if not any(c.shape == "list" for c in candidates):
        return list(candidates)
    return [replace(c, worded=False) if c.worded and not any(kind == "class" for _, _, kind in c.explains) else c
            for c in candidates]


def content_words_beside(props: PropertyText, q: Question, spans: Sequence[tuple[int, int]]) -> list[str]:
    """The question's content words (matched forms, in order) outside ``spans``: what a
    property phrase, or a class noun, must read beside an anchor."""
    return [w for w in rest(props, q.tokens, spans)[0] if not props.is_function(w, q.lang)]


def anchor_class_words(q: Question, m: Mention) -> list[int]:
    """The positions next to ``m``'s mention of a word naming one of its entity's classes (« من
    هو مخرج فيلم تيتانيك »: « فيلم », film, beside Titanic): the name says it, as it says the
    entity, whether or not a property's phrase reads the noun too ("the director of the film"
    does in English, « مخرج » alone in Arabic)."""
    own = q.type_words.get(m.qid, frozenset())
    return [i for i in (m.start - 1, m.end) if i in own]


def base_features(q: Question, m: Mention, rank: int, pm: PropertyMatch, a: Adjacent, types: TypeModel,
                  props: PropertyText) -> dict[str, float]:
    """The features of the one-hop graph of ``a`` at the ``rank``-th anchor ``m``, its
property matched as ``pm``."""
    qtype = q.qtype
    answer_side, anchor_side = ("o", "s") if a.forward else ("s", "o")
    answer_type = a.kind if a.kind in LITERALS else types.side_type(a.pid, answer_side)
    fit, mismatch = type_fit(answer_type, qtype)
    anchor_fit, anchor_mismatch = type_fit(q.anchor_types.get(m.qid), types.side_type(a.pid, anchor_side))
    named = [i for i in anchor_class_words(q, m) if props.form(q.tokens[i]) not in pm.words]
    words = content_words_beside(props, q, [(m.start, m.end), *((i, i + 1) for i in named)])
    matched_share = min(1.0, len(pm.words) / len(words)) if words else 1.0
    return {
        f"pid={a.pid}": 1.0,
        "explained": min(1.0, m.coverage + (pm.chars + sum(len(q.tokens[i]) for i in named)) / q.content_chars),
        "prop_contiguous": pm.contiguous,
        "pair_shared": 0.0,
        "link_score": m.score,
        "link_quality": m.quality,
        "link_prior": m.prior,
        "link_coverage": m.coverage,
        "coverage": m.coverage,
        "link_ambiguity": 1.0 / max(1, m.ambiguity),
        "link_fuzzy": 1.0 if m.fuzzy else 0.0,
        "link_partial": 1.0 if m.partial else 0.0,
        "link_phonetic": 1.0 if m.phonetic else 0.0,
        "link_label": 1.0 if m.is_label else 0.0,
        "link_class": 1.0 if m.is_class else 0.0,
        "link_rank": 1.0 / (1 + rank),
        "link_min": m.score,
        "prop_score": pm.score,
        "prop_lex": pm.lexicon,
        "prop_kg": pm.kg,
        "prop_same_lang": pm.same_lang,
        "prop_none": 1.0 if pm.score <= 0 else 0.0,
        "prop_min": pm.score,
        "prop_first": 0.0,
        "rest_matched": matched_share,
        "type_fit": fit,
        "type_mismatch": mismatch,
        "qtype_specific": 1.0 if qtype in SPECIFIC else 0.0,
        "anchor_fit": anchor_fit,
        "anchor_mismatch": anchor_mismatch,
        "qtype_person_bwd": 1.0 if qtype == "person" and not a.forward else 0.0,
        "qtype_literal": 1.0 if qtype in ("date", "number") and a.kind in ("date", "number") else 0.0,
        "literal_unwanted": 1.0 if a.kind != "uri" and qtype not in (None, "date", "number", "string",
                                                                       "count") else 0.0,
        "forward": 1.0 if a.forward else 0.0,
        "hops": 1.0,
        "n_entities": 1.0,
        "has_type": 0.0,
        "type_link": 0.0,
        "type_coverage": 0.0,
        "type_share": 0.0,
        "p31": 1.0 if a.pid == P31 else 0.0,
        "log_answers": math.log1p(a.count),
        "single_answer": 1.0 if a.count == 1 else 0.0,
        **name_features(q.cased, m.start, m.end, q.name_stops(m.qid), q.breaks),
    }


def rank(ranker: Ranker, cands: list[Generated]) -> None:
    """Score each candidate by the ranker (in place)."""
    for g, score in zip(cands, ranker.score_many([g.features for g in cands]), strict=True):
        g.score = round(score, 6)


def add(cands: dict[str, Generated], g: Generated) -> None:
    """Keep ``g`` among ``cands`` (by SPARQL text) unless the same graph is there from a better
    link, or from the same link reading the class noun that ``g`` leaves unread
    (:meth:`backends.local.graphs.QueryGraphs.wholly_typed`)."""
    key = g.sparql
    old = cands.get(key)
    if old is None:
        cands[key] = g
        return
    link, old_link = g.features.get("link_score", 0), old.features.get("link_score", 0)
    if link > old_link or (link == old_link and g.class_span is not None and old.class_span is None):
        cands[key] = g


def relative_features(cands: Sequence[Generated]) -> None:
    """Features relative to the question's other candidates (best link, best property per anchor)."""
    if not cands:
        return
    best_link = max(g.features["link_score"] for g in cands)
    best_prop = max(g.features["prop_score"] for g in cands)
    best_explained = max(g.features["explained"] for g in cands)
    per_anchor: dict[str, float] = {}
    for g in cands:
        per_anchor[g.anchor] = max(per_anchor.get(g.anchor, 0.0), g.features["prop_score"])
    for g in cands:
        f = g.features
        f["link_gap"] = best_link - f["link_score"]
        f["prop_gap"] = best_prop - f["prop_score"]
        f["prop_gap_anchor"] = per_anchor[g.anchor] - f["prop_score"]
        f["explained_gap"] = best_explained - f["explained"]



def class_words(entities: Sequence[str], type_words: Mapping[str, frozenset[int]]) -> frozenset[int]:
    """The question's words that name a class of one of ``entities`` (« den Film Titanic »)."""
    return frozenset(i for qid in entities for i in type_words.get(qid, ()))


def explained_spans(links: Sequence[Link], words: frozenset[str], forms: Sequence[str],
                    class_span: tuple[int, int] | None = None, typed: Iterable[int] = ()) -> tuple[Explained, ...]:
    """What a simple candidate explains of the question: its entities' mentions, the words
    its property phrases matched (``words``, as matched, at each position of ``forms`` outside
    a mention), the class noun it reads as a type constraint, and the words naming a class
    of its entities (``typed``)."""
    spans: list[Explained] = [(*link.span, "class" if link.is_class else "entity")
                              for link in links if link.span is not None]
    inside = {i for a, b, _ in spans for i in range(a, b)}
    spans += [(i, i + 1, "property") for i, form in enumerate(forms) if form in words and i not in inside]
    if class_span is not None and class_span[0] not in inside:
        spans.append((*class_span, "class"))
    spans += [(i, i + 1, "class") for i in typed if i not in inside]
    return tuple(sorted(set(spans)))

