"""The local, QAnswer-style candidate generator (``backend = "local"``).

For the best linked entities of a question it asks the KG which properties are actually
adjacent to them (anchored ``GROUP BY ?p`` queries, cheap), scores each property against
the rest of the question (lexicon phrases, KG property labels, fuzzy token overlap,
answer-type fit with the question word) and builds small query graphs (1 hop either way,
narrowed by a class, two entities' intersection, 2 hops).

Every query is entity-anchored, so its cost is bounded by node degrees (pyoxigraph has no
query timeout).  Candidates are scored by :class:`backends.local.ranker.Ranker` (a logistic
regression over the features) and returned best first.

:class:`LocalBackend` composes four parts, one module each:

* :mod:`backends.local.reads`: batched, bounded KG reads (:class:`~backends.local.reads.KGReads`);
* :mod:`backends.local.properties`: property matching (:class:`~backends.local.properties.PropertyText`);
* :mod:`backends.local.graphs`: building query graphs (:class:`~backends.local.graphs.QueryGraphs`);
* :mod:`backends.local.features`: ranking features.

Here it reads the question (links it once, analyzes it), runs the parts, and joins the
complex layer's candidates (:mod:`backends.local.complex`).  Query shapes are small builder
functions in :mod:`backends.local.shapes`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Mapping, Sequence, Set
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from backends.local.complex import ComplexGenerator, extend_candidates
from backends.local.constraints import DESCRIPTIVE_SHARE
from backends.local.features import (
    Generated,
    Question,
    add,
    rank,
    relative_features,
    typed_first,
    unworded_beside_lists,
)
from backends.local.graphs import QueryGraphs
from backends.local.linking import Linker, Mention
from backends.local.properties import ASKED_WORD_SCORE, PropertyMatch, PropertyText, asked_words, prop_matches
from backends.local.ranker import Ranker
from backends.local.reads import QUERY_TIMEOUT_S, KGReads, TypeModel
from backends.local.shapes import ANSWER, P31, IdTriple
from core.errors import BackendTimeout, BackendUnavailable, LexiconError
from core.text import fold, is_cjk, join_tokens, tokenize
from kg.client import KG, Term
from kg.endpoint import endpoint_profile, open_index
from kg.index import KGIndex
from lang.stopwords import is_stopword
from qa.candidate import COMPLEX_SHAPES, EXACT_LINKS, TYPING_PROPERTIES, Candidate, Link
from qa.generate import MAX_CANDIDATES
from qa.reading.lexicon import PropertyLexicon, default_lexicon
from qa.reading.names import aligned_cased, list_breaks, name_features, name_words
from qa.reading.reading import read

if TYPE_CHECKING:
    from core.settings import Settings

log = logging.getLogger(__name__)

MAX_ANCHORS = 10
MAX_MENTIONS = 24  # linked mentions per question
COMPLEX_MENTIONS = 12  # of them, the ones the complex layer reads
WORDING_LEXICON = ASKED_WORD_SCORE
"""How well a lexicon phrase must name a candidate's property for the question's words to say
it (:meth:`LocalBackend._worded`)."""
WORDED_PLAIN = 10
"""Only the first this many candidates of a question, if plain, are given the question's own words
(:meth:`LocalBackend._worded`): the validator judges the first few, and reading a property's words
costs a lexicon match per set of names (some 200 ms on a question of many names, for all 60)."""
MAX_PER_SPAN = 4


class LocalBackend:
    """QAnswer-like candidate generation over any :class:`kg.client.KG`."""

    name = "local"

    def __init__(self, kg: KG, index: KGIndex, *, lexicon: PropertyLexicon | None = None,
                 ranker: Ranker | None = None, timeout_s: float = QUERY_TIMEOUT_S,
                 budget_s: float = 10.0, probe_limit: int | None = None, batch_probes: bool = False,
                 cache_dir: Path | None = None) -> None:
        self.kg = kg
        self.index = index
        self.linker = Linker(index)
        self.lexicon = lexicon
        self.ranker = ranker if ranker is not None else Ranker.load_default()
        self.timeout_s = timeout_s
        self.budget_s = budget_s
        self.batch_probes = batch_probes  # every anchor's properties in two requests (an endpoint's round trips)
        self.reads = KGReads(kg, index, lexicon=lexicon, timeout_s=timeout_s, probe_limit=probe_limit,
                             cache_dir=cache_dir)
        self.graphs = QueryGraphs(self.reads, batch_probes=batch_probes)
        self.complex = ComplexGenerator(kg, timeout_s=timeout_s)  # complex shapes: backends/local/complex.py
        if not batch_probes:  # the embedded index
            self.reads.property_model()
        else:  # an endpoint: read now when it answers, else on the first question (the product starts without it)
            try:
                self.reads.property_model()
            except BackendUnavailable as exc:
                log.warning("property labels not read at start, trying again on the first question: %s", exc)

    @property
    def props(self) -> PropertyText:
        """Every way to say each property (the KG's labels and the lexicon's phrases)."""
        return self.reads.props

    @property
    def types(self) -> TypeModel:
        """Coarse types of classes and property ends."""
        return self.reads.types

    def answers(self, triples: Sequence[IdTriple], max_rows: int = 5000) -> list[Term]:
        """Execute a candidate graph (bounded) and return its ``?answer`` values."""
        return self.reads.answers(triples, max_rows)

    @classmethod
    def from_settings(cls, settings: Settings, kg: KG) -> LocalBackend:
        """Over the configured KG's index (:func:`kg.endpoint.open_index`): the label index of
        the KG source (built when missing), or the endpoint's names when one is set."""
        index = open_index(settings, kg)
        try:
            lexicon = default_lexicon(Path(settings.lexicon_path))
        except LexiconError as exc:
            log.warning("property lexicon unavailable, using KG property labels only: %s", exc)
            lexicon = None
        profile = endpoint_profile(settings)
        return cls(kg, index, lexicon=lexicon, ranker=Ranker.load_default(settings.ranker_path),
                   timeout_s=min(settings.timeout_s, QUERY_TIMEOUT_S),
                   budget_s=settings.timeout_s, probe_limit=profile.probe_limit if profile is not None else None,
                   batch_probes=profile is not None, cache_dir=settings.cache_dir if profile is None else None)

    # ------------------------------------------------------------------ API

    def warm_up(self, langs: Iterable[str]) -> None:
        """Nothing to warm: the phrase and cue automata (:mod:`core.phrases`) are built on
        first use in a language, in milliseconds."""

    def ask(self, question: str, lang: str) -> list[Candidate]:
        """Up to :data:`MAX_CANDIDATES` ranked SPARQL candidates (scores in [0, 1]).  The
        question is linked once; both the simple and the complex layer read those mentions."""
        linked = self.linker.link(question, lang, limit=MAX_MENTIONS)
        q = self._analyze(question, lang, linked)
        ranked = self._generate(q)[:MAX_CANDIDATES]
        named = _exactly_named(linked)
        beside = [unexplained_neighbours(q, m, named) for m in linked]
        own = self._name_forms({m.qid for m, words in zip(linked, beside, strict=True) if words})
        evidence = {m.qid: replace(m.link(), name_cover=min(name_features(q.cased, m.start, m.end, q.name_stops(m.qid),
                                                                          q.breaks)["name_cover"],
                                                            _caseless_cover(words, own.get(m.qid))),
                                   name_words=name_words(q.cased, m.start, m.end))
                    for m, words in zip(linked, beside, strict=True)}
        evidence = {qid: _with_description(link, q.described.get(qid)) for qid, link in evidence.items()}
        forms = [self.props.form(t) for t in q.tokens]
        simple = [g.candidate(evidence, forms, q.type_words) for g in ranked]
        out = unworded_beside_lists(typed_first(extend_candidates(self.complex, question, lang, simple,
                                                                  linked[:COMPLEX_MENTIONS]))[:MAX_CANDIDATES])
        matched: dict[tuple, dict[str, PropertyMatch]] = {}  # per set of spans, read once for all candidates
        out = [_links_described(c, q.described) for c in out]
        return ([self._class_described(q, self._worded(q, forms, c, matched))
                 if c.shape in COMPLEX_SHAPES or i < WORDED_PLAIN else c for i, c in enumerate(out)]
                + self.graphs.no_value_readings(q, evidence, forms))

    def _class_described(self, q: Question, c: Candidate) -> Candidate:
        """An intersection without a typing triple that knows the question's class noun its
        members are of (:attr:`Candidate.typed_noun`), when the question names one class beside
        its anchors and that class describes the members (:data:`DESCRIPTIVE_SHARE` of them are
        its instances, as the constraint sets leave it untyped): « In welke films spelen Robert
        De Niro en Al Pacino allebei? » asks for their joint works, two films and a television
        film.  Two counts over the KG per such candidate."""
        if c.shape != "intersection" or TYPING_PROPERTIES & set(c.properties) or c.typed_noun is not None:
            return c
        spans = {link.span for link in c.links}
        nouns = [m for m in q.classes if (m.start, m.end) not in spans]
        if len({(m.start, m.end) for m in nouns}) != 1:
            return c
        body = [(_id(s), p.removeprefix("wdt:"), _id(o)) for s, p, o in c.triples]
        members = self.reads.count(body)
        for noun in nouns:
            if members and self.reads.count([*body, (ANSWER, P31, noun.qid)]) >= DESCRIPTIVE_SHARE * members:
                return replace(c, typed_noun=(noun.start, noun.end))
        return c

    def _worded(self, q: Question, forms: Sequence[str], c: Candidate,
                matched: dict[tuple, dict[str, PropertyMatch]]) -> Candidate:
        """A complex candidate, or a plain one of one property, with the question's own words
        for each of its properties that a lexicon phrase names well (:data:`WORDING_LEXICON`)
        among the words outside its names
        (:attr:`Candidate.wording`: « ¿Qué vecinos de Francia no tienen el francés como lengua
        oficial? »: ``P47`` « vecinos »); a function word or a class noun the question names
        (« películas », « lengua ») is never one of them, and a typing property (``P31``) is
        said by its name.  ``matched``: the property matches per set of spans, shared by the
        question's candidates."""
        if not c.properties or (c.shape not in COMPLEX_SHAPES and not c.plain_of_one):
            return c
        spans = tuple(sorted({link.span for link in c.links if link.span is not None}
                             | {(m.start, m.end) for m in q.classes}))
        inside = {i for a, b in spans for i in range(a, b)}
        matches = prop_matches(self.props, q.tokens, q.lang, spans, matched, q.class_spans)
        wording = []
        for pid in dict.fromkeys(c.properties):
            pm = matches.get(pid)
            if pid in TYPING_PROPERTIES or pm is None or pm.lexicon < WORDING_LEXICON:
                continue
            words = [t for i, t in enumerate(q.tokens) if i not in inside and forms[i] in pm.words]
            if words:
                wording.append((pid, join_tokens(words)))
        return replace(c, wording=tuple(wording)) if wording else c

    def generate(self, question: str, lang: str, linked: Sequence[Mention] | None = None) -> list[Generated]:
        """Every candidate graph, scored and sorted (best first, ties by SPARQL text);
        ``linked`` is the question's mentions when already linked.

        A KG query that fails or times out only loses its candidates; when no candidate is
        left and some query timed out, :class:`BackendTimeout` is raised; an unreachable KG
        raises :class:`BackendUnavailable`.  Expansions stop once ``budget_s`` is spent.
        """
        return self._generate(self._analyze(question, lang, linked))

    def _name_forms(self, qids: Iterable[str]) -> dict[str, frozenset[str] | None]:
        """Per entity, the word forms of its own names (:func:`name_word_forms`), read from
        the KG in one batch; ``None`` for each when the read fails (nothing then vouches)."""
        return {qid: None if names is None else name_word_forms(names)
                for qid, names in self.reads.names_of(qids).items()}

    def _generate(self, q: Question) -> list[Generated]:
        """:meth:`generate` for an analyzed question."""
        self.reads.reset_timeouts()
        deadline = time.monotonic() + self.budget_s
        if not q.mentions:
            return []
        cands: dict[str, Generated] = {}
        for g in self.graphs.one_hop(q):
            add(cands, g)
        relative_features(list(cands.values()))
        rank(self.ranker, list(cands.values()))
        best_first = sorted(cands.values(), key=lambda g: (-g.score, g.sparql))
        if self.batch_probes:  # an endpoint: the three expansions' requests go out side by side
            for found in self.graphs.expand_concurrently(q, best_first):
                for g in found:
                    add(cands, g)
        for expand in () if self.batch_probes else (self.graphs.narrowed, self.graphs.pairs, self.graphs.two_hops):
            if time.monotonic() > deadline:
                log.info("candidate budget of %.1fs spent; skipping %s", self.budget_s, expand.__name__)
                break
            for g in expand(q, best_first):
                add(cands, g)
        out = list(cands.values())
        if not out and self.reads.timeouts():
            raise BackendTimeout(f"{self.reads.timeouts()} KG queries timed out and no candidate was found")
        relative_features(out)
        rank(self.ranker, out)
        out.sort(key=lambda g: (-g.score, g.sparql))
        return out

    def _analyze(self, question: str, lang: str, linked: Sequence[Mention] | None) -> Question:
        tokens = list(read(question, lang).tokens)  # the read stage's reading (cached: read once)
        mentions = list(linked) if linked is not None else self.linker.link(question, lang, limit=MAX_MENTIONS)
        qtype = self.lexicon.expected_answer_type(question, lang) if self.lexicon else None
        q = Question(question, lang, tokens, qtype, _anchors(mentions))
        q.classes = [m for m in mentions if m.is_class][:4]
        classes = self.index.classes_of(m.qid for m in mentions)  # every linked entity's: its name's evidence
        q.anchor_types = {m.qid: self.types.entity_type(classes.get(m.qid, ())) for m in q.mentions}
        pairs = occupation_pairs(mentions, classes)
        unknown = self.reads.lacking(OCCUPATION, {m for m, c in pairs if HUMAN in classes.get(m, ())
                                                  and OCCUPATION_CLASS in classes.get(c, ())})
        q.described = described(mentions, classes, self.reads.holding(OCCUPATION, pairs), unknown)
        q.type_words = type_words(mentions, classes, q.described)
        q.content_chars = sum(len(t) for t in tokens if not is_stopword(t)) or 1
        q.cased = aligned_cased(question, len(tokens))
        q.breaks = list_breaks(question) if q.cased is not None else frozenset()
        q.asked_words = asked_words(self.props, q.tokens, q.cased, q.lang)
        return q


def _exactly_named(mentions: Sequence[Mention]) -> frozenset[int]:
    """Token positions some mention names exactly (by a label or alias, as written, folded or
    inflected; not a fuzzy, partial or sound-alike match)."""
    return frozenset(i for m in mentions if m.kind in EXACT_LINKS for i in range(m.start, m.end))


def unexplained_neighbours(q: Question, m: Mention, named: frozenset[int]) -> list[str]:
    """In a question typed without capitals ("where was tom brady born?"), for a person
    linked by one word: the words beside it that nothing explains (no function word, no
    property phrase, no exact name of any entity).  Unless the person's own names hold them
    ("jrr" of "J. R. R. Tolkien"), they are likely part of a longer name the KG does not hold."""
    if (m.end - m.start != 1 or q.cased is None or any(t != t.lower() for t in q.cased)
            or q.anchor_types.get(m.qid) != "person"):
        return []
    return [q.tokens[i] for i in (m.start - 1, m.end) if 0 <= i < len(q.tokens) and _unexplained(q, i, named)]


def _caseless_cover(beside: Sequence[str], own: frozenset[str] | None) -> float:
    """0.5 (as for a name half covered, :func:`names.name_features`) when a person linked by
    one word in a question without capitals has words beside it that nothing explains
    (``beside``, :func:`unexplained_neighbours`) and its own names (``own``) do not hold
    them all; else 1.0."""
    if not beside:
        return 1.0
    return 1.0 if own is not None and all(fold(w) in own for w in beside) else 0.5


def name_word_forms(names: Iterable[str]) -> frozenset[str]:
    """The folded words of ``names`` and, for each word, the initials and the run of the
    words before it ("J. R. R. Tolkien": "tolkien", "jrr", …)."""
    forms: set[str] = set()
    for name in names:
        words = [fold(t) for t in tokenize(name)]
        forms.update(words)
        for i in range(1, len(words)):
            forms.add("".join(w[:1] for w in words[:i]))
            forms.add("".join(words[:i]))
    return frozenset(forms)


def _unexplained(q: Question, i: int, named: frozenset[int]) -> bool:
    token = q.tokens[i]
    return (token.isalpha() and not is_cjk(token) and not is_stopword(token) and i not in q.asked_words
            and i not in named)


def type_words(mentions: Sequence[Mention], classes: dict[str, list[str]],
               described: Mapping[str, Mention] | None = None) -> dict[str, frozenset[int]]:
    """Per linked entity, the question's token positions linked to one of its ``P31``
    classes (« den Film Titanic »: "Film" names a class of Titanic, the film), and the noun
    ``described`` says it by (its occupation: "the painter Velázquez")."""
    spans = [(m.qid, range(m.start, m.end)) for m in mentions if m.is_class]
    out: dict[str, frozenset[int]] = {}
    for qid, own in classes.items():
        words = frozenset(i for cls, span in spans if cls in own for i in span)
        if words:
            out[qid] = words
    for qid, noun in (described or {}).items():
        out[qid] = out.get(qid, frozenset()) | frozenset(range(noun.start, noun.end))
    return out


OCCUPATION = "P106"
"""The property of what a person is known as, said before their name ("the painter Velázquez")."""
OCCUPATION_CLASS = "Q28640"
"""Occupation: the class of the nouns that say what a person is known as."""
HUMAN = "Q5"
"""Human: who may have an occupation."""


COUNTRY_CLASSES = frozenset({"Q6256", "Q3624078"})
"""Country, sovereign state: what a nationality adjective between a noun and a name names."""


def _before(mentions: Sequence[Mention], classes: Mapping[str, Sequence[str]]) -> list[tuple[Mention, Mention]]:
    """``(noun, entity)`` mention pairs where the noun is typed right before the name (an
    occupation is no class of the graph: "actress" names ``Q33999``, never a ``P31`` value),
    or before a nationality adjective that comes right before it (« el ciclista colombiano
    Egan Bernal »: the noun's mention then spans the adjective too)."""
    out = [(c, m) for m in mentions if not m.is_class for c in mentions if c.end == m.start and c.qid != m.qid]
    adjectives = [d for d in mentions if d.kind == "inflected" and d.end - d.start == 1
                  and COUNTRY_CLASSES & set(classes.get(d.qid, ()))]
    out += [(replace(c, end=d.end, surface=f"{c.surface} {d.surface}"), m) for m in mentions if not m.is_class
            for d in adjectives if d.end == m.start for c in mentions
            if c.end == d.start and c.qid not in (m.qid, d.qid)]
    return out


def occupation_pairs(mentions: Sequence[Mention], classes: Mapping[str, Sequence[str]]) -> list[tuple[str, str]]:
    """The ``(entity, noun's class)`` pairs :func:`described` asks the KG whether the entity
    holds as an occupation (a noun that names one of its ``P31`` classes needs no asking)."""
    return [(m.qid, c.qid) for c, m in _before(mentions, classes) if c.qid not in classes.get(m.qid, ())]


def described(mentions: Sequence[Mention], classes: Mapping[str, Sequence[str]],
              occupations: set[tuple[str, str]], unknown: Set[str] = frozenset()) -> dict[str, Mention]:
    """Per linked entity, the class noun typed right before its name that says what it is:
    one of its ``P31`` classes (« فيلم تيتانيك », the film Titanic) or one of its
    occupations (``occupations``, :data:`OCCUPATION` pairs that hold: « el pintor
    Velázquez », "the cyclist Alberto Contador").  The noun describes the entity the name
    already says: the validator judged "In what city did the painter Velázquez pass away?"
    against « Velázquez place of death ?answer » 0.19, 0.99 without the noun.  A person whose
    occupation the KG does not know (``unknown``) is described by any noun of an occupation
    (« el ciclista colombiano Egan Bernal », of whom the KG knows no ``P106``: 0.002 with the
    nouns, 0.99 without)."""
    out: dict[str, Mention] = {}
    for c, m in _before(mentions, classes):
        if m.qid not in out and (c.qid in classes.get(m.qid, ()) or (m.qid, c.qid) in occupations
                                 or (m.qid in unknown and OCCUPATION_CLASS in classes.get(c.qid, ()))):
            out[m.qid] = c
    return out


def _with_description(link: Link, noun: Mention | None) -> Link:
    """``link`` knowing the noun typed before its name that says what its entity is."""
    if noun is None or link.is_class:
        return link
    return replace(link, described=noun.surface, described_span=(noun.start, noun.end))


def _links_described(c: Candidate, nouns: Mapping[str, Mention]) -> Candidate:
    """``c`` whose links know the nouns said before their names (:func:`described`), the
    complex layer's as the simple layer's."""
    if not nouns or not any(link.qid in nouns and not link.described for link in c.links):
        return c
    return replace(c, links=tuple(_with_description(link, nouns.get(link.qid)) if not link.described else link
                                  for link in c.links))


def _anchors(mentions: Sequence[Mention]) -> list[Mention]:
    """The best mentions, at most :data:`MAX_PER_SPAN` per span so that other spans get a turn."""
    out: list[Mention] = []
    per_span: dict[tuple[int, int], int] = {}
    for m in mentions:
        span = (m.start, m.end)
        if per_span.get(span, 0) >= MAX_PER_SPAN:
            continue
        per_span[span] = per_span.get(span, 0) + 1
        out.append(m)
        if len(out) >= MAX_ANCHORS:
            break
    return out


def _id(node: str) -> str:
    """A candidate's triple end as an :data:`IdTriple` end (``wd:Q5`` → ``Q5``; a variable as is)."""
    return node.removeprefix("wd:")
