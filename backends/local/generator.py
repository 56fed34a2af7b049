"""The local, QAnswer-style candidate generator (``backend = "local"``).

For the best linked entities of a question it asks the KG which properties are actually
adjacent to them (anchored ``GROUP BY ?p`` queries, cheap), scores each property against
the rest of the question (lexicon phrases, KG property labels, fuzzy token overlap,
answer-type fit with the question word) and builds small query graphs:

* 1 hop forward ``wd:E wdt:P ?answer`` and backward ``?answer wdt:P wd:E``;
* a 1-hop graph narrowed by a class named in the question (``?answer wdt:P31 wd:C``);
* the intersection of two entities' 1-hop graphs;
* 2 hops ``wd:E wdt:P1 ?x . ?x wdt:P2 ?answer``.

Every query is entity-anchored, so its cost is bounded by node degrees (pyoxigraph has no
query timeout).  Candidates are scored by :class:`backends.local.ranker.Ranker` (a logistic
regression over the features computed here) and returned best first.

Query shapes are small builder functions in :mod:`backends.local.shapes` (``forward``,
``backward``, ``typed``, ``two_hop``, ``intersect``, ``select``), beside the complex
layer's shapes.
"""

from __future__ import annotations

import contextvars
import logging
import math
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from backends.local.complex import ComplexGenerator, extend_candidates
from backends.local.linking import Linker, Mention
from backends.local.ranker import Ranker
from backends.local.shapes import (
    P31,
    P279,
    IdTriple,
    backward,
    entities_of,
    forward,
    intersect,
    properties_of,
    select,
    sparql_node,
    sparql_pred,
    two_hop,
    typed,
    typed_sub,
    where,
)
from core.errors import (
    BackendTimeout,
    BackendUnavailable,
    KGQueryError,
    KGTimeout,
    KGUnavailable,
    LexiconError,
)
from core.text import fold, is_cjk, tokenize
from kg.client import KG, Term, fetch_labels, value_kind, whole_number
from kg.endpoint import endpoint_profile, open_index
from kg.index import KGIndex
from kg.sparql import WDT, entity_iri, local_id, prop_iri, short
from lang.stopwords import is_stopword, is_stopword_as_written, is_stopword_in
from qa.candidate import EXACT_LINKS, Candidate, Explained, Link
from qa.generate import MAX_CANDIDATES
from qa.reading.lexicon import PropertyLexicon, default_lexicon
from qa.reading.names import aligned_cased, name_features, name_words

if TYPE_CHECKING:
    from core.settings import Settings

log = logging.getLogger(__name__)

MAX_ANCHORS = 10
MAX_MENTIONS = 24  # linked mentions per question
ASKED_WORD_SCORE = 0.85  # a lexicon phrase matched this well (a one-word phrase: exactly) names what is asked
COMPLEX_MENTIONS = 12  # of them, the ones the complex layer reads
MAX_PER_SPAN = 4
HUB_DEGREE = 20000
ADJACENCY_ROWS = 500
TYPE_CHECKS = 8
PAIR_SETS = 3
PAIR_MAX_ANSWERS = 1500
TYPE_MAX_ANSWERS = 1500
TWO_HOP_FIRST = 3
TWO_HOP_MAX_MID = 25
QUERY_TIMEOUT_S = 3.0
NO_VALUE_READINGS = 3  # readings of entities the KG holds no value of the asked property for
XSD = "http://www.w3.org/2001/XMLSchema#"

# --------------------------------------------------------------------------- property text


@dataclass(frozen=True)
class _Phrase:
    pid: str
    tokens: tuple[str, ...]  # content words (function words dropped)
    full: str  # every word, space-joined: a contiguous occurrence earns a bonus
    cjk: bool
    weight: float
    lang: str
    source: str  # "lex" | "kg"


@dataclass
class PropertyMatch:
    """How well a property's phrases match the words of a question outside a mention."""

    score: float = 0.0
    lexicon: float = 0.0
    kg: float = 0.0
    same_lang: float = 0.0
    chars: int = 0  # question characters the best phrase explains
    words: frozenset[str] = frozenset()  # question words the best phrase matched
    contiguous: float = 0.0


class PropertyText:
    """Every way to say each property: KG labels/aliases (all languages) + lexicon phrases."""

    def __init__(self, kg_labels: dict[str, dict[str, list[str]]], lexicon: PropertyLexicon | None) -> None:
        self.answer_types: dict[str, str] = {}
        words = _lexicon_words(lexicon)
        self.kept = _accented_content_words(words)
        self.content = self._content_words(words)
        phrases: list[_Phrase] = []
        for pid, langs in kg_labels.items():
            for lang, names in langs.items():
                for i, name in enumerate(names):
                    phrases.extend(self._phrase(pid, name, 0.95 if i == 0 else 0.85, lang, "kg"))
        if lexicon is not None:
            for pid in lexicon.properties():
                kind = lexicon.answer_type(pid)
                if kind:
                    self.answer_types[pid] = kind
                for lang, items in lexicon.all_phrases(pid).items():
                    for item in items:
                        phrases.extend(self._phrase(pid, item, 1.0, lang, "lex"))
        self.by_token: dict[str, list[_Phrase]] = {}
        self.by_prefix: dict[str, set[str]] = {}
        for ph in phrases:
            for tok in set(ph.tokens):
                self.by_token.setdefault(tok, []).append(ph)
                if not ph.cjk and len(tok) >= 4:
                    self.by_prefix.setdefault(tok[:4], set()).add(tok)

    def form(self, token: str) -> str:
        """A question or phrase word as matched: folded, except a lexicon word that folding
        would turn into a function word (French "né" is not "ne")."""
        return token if token in self.kept else fold(token)

    def is_function(self, form: str, lang: str = "") -> bool:
        """Whether a matched word form (:meth:`form`) is a function or question word in a text
        of ``lang``: a function word of another language stays one unless ``lang``'s lexicon
        phrases use it as a content word (English "die", "son", "war"; German "Kind")."""
        return form not in self.kept and is_stopword(form) and form not in self.content.get(lang, ())

    def _content_words(self, words: dict[str, set[str]]) -> dict[str, frozenset[str]]:
        """Per language: the word forms its lexicon phrases (``words``, per language) use that
        are function words only in other languages."""
        content = {lang: frozenset(f for f in map(self.form, tokens) if is_stopword(f) and not is_stopword_in(f, lang))
                   for lang, tokens in words.items()}
        return {lang: forms for lang, forms in content.items() if forms}

    def _phrase(self, pid: str, text: str, weight: float, lang: str, source: str) -> list[_Phrase]:
        toks = [self.form(t) for t in tokenize(text)]
        content = tuple(t for t in toks if not self.is_function(t, lang)) or tuple(toks)
        if not content:
            return []
        cjk = all(is_cjk(t) for t in content)
        return [_Phrase(pid, content, "".join(toks) if cjk else " ".join(toks), cjk, weight, lang, source)]

    def match(self, rest: Sequence[str], cjk_text: str, lang: str) -> dict[str, PropertyMatch]:
        """``{pid: PropertyMatch}`` for the question's words outside a mention (``rest``, folded,
        in order, function words included) and its CJK remainder."""
        sims: dict[str, tuple[float, str]] = {}
        for w in rest:
            if is_cjk(w) or self.is_function(w, lang):
                continue
            if w in self.by_token:
                sims[w] = (1.0, w)
            if len(w) >= 4:
                for tok in self.by_prefix.get(w[:4], ()):
                    s = _stem_sim(w, tok)
                    if s > sims.get(tok, (0.0, ""))[0]:
                        sims[tok] = (s, w)
        for ch in set(cjk_text):
            if ch in self.by_token:
                sims[ch] = (1.0, ch)
        text = " " + " ".join(w for w in rest if not is_cjk(w)) + " "
        out: dict[str, PropertyMatch] = {}
        seen: set[int] = set()
        for tok in sims:
            for ph in self.by_token.get(tok, ()):
                if id(ph) in seen:
                    continue
                seen.add(id(ph))
                score, contiguous = self._phrase_score(ph, sims, cjk_text, text)
                if score <= 0:
                    continue
                m = out.setdefault(ph.pid, PropertyMatch())
                if score > m.score or (score == m.score and ph.lang == lang and not m.same_lang):
                    # on a tie the question's own language tells more (German "gedreht" over a
                    # one-word phrase "film" of another language)
                    m.score = score
                    m.same_lang = 1.0 if ph.lang == lang else 0.0
                    m.contiguous = 1.0 if contiguous else 0.0
                    if ph.cjk:
                        m.words = frozenset(t for t in ph.tokens if t in cjk_text)
                        m.chars = len(ph.full) if contiguous else len(m.words)
                    else:
                        m.words = frozenset(sims[t][1] for t in ph.tokens if t in sims)
                        m.chars = sum(len(w) for w in m.words)
                if ph.source == "lex":
                    m.lexicon = max(m.lexicon, score)
                else:
                    m.kg = max(m.kg, score)
        return out

    @staticmethod
    def _phrase_score(ph: _Phrase, sims: dict[str, tuple[float, str]], cjk_text: str,
                      text: str) -> tuple[float, bool]:
        if ph.cjk:
            contiguous = ph.full in cjk_text
            if contiguous:
                base = 1.0
            else:
                present = sum(1 for t in ph.tokens if t in cjk_text)
                base = 0.6 * present / len(ph.tokens) if present >= 2 else 0.0
            length = len(ph.tokens)
        else:
            got = [sims[t][0] if t in sims else 0.0 for t in ph.tokens]
            if not any(got):
                return 0.0, False
            base = sum(got) / len(got)
            contiguous = " " in ph.full and f" {ph.full} " in text
            length = len(ph.full.split()) if contiguous else len(ph.tokens)
        specificity = 0.8 + 0.2 * min(1.0, length / 3)
        return ph.weight * base * specificity, contiguous


def _lexicon_words(lexicon: PropertyLexicon | None) -> dict[str, set[str]]:
    """Per language, the words (tokens as written) of the lexicon's phrases."""
    words: dict[str, set[str]] = {}
    if lexicon is not None:
        for pid in lexicon.properties():
            for lang, items in lexicon.all_phrases(pid).items():
                words.setdefault(lang, set()).update(t for item in items for t in tokenize(item))
    return words


def _accented_content_words(words: dict[str, set[str]]) -> frozenset[str]:
    """Lexicon words (``words``, per language) that are content words as written but function
    words once folded (French "né", folded "ne")."""
    return frozenset(t for tokens in words.values() for t in tokens if not is_stopword_as_written(t) and is_stopword(t))


def _stem_sim(a: str, b: str) -> float:
    if a == b:
        return 1.0
    common = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        common += 1
    if common >= 4 and common >= min(len(a), len(b)) - 3:
        return 0.85 if common >= min(len(a), len(b)) - 1 else 0.75
    return 0.0


# --------------------------------------------------------------------------- generation


@dataclass(frozen=True)
class Adjacent:
    """A property present at an entity, with how many values it has there."""

    pid: str
    forward: bool
    count: int
    kind: str  # "uri" | "date" | "number" | "string"


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
    class_span: tuple[int, int] | None = None  # the class noun a typed graph reads as its type constraint

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
                         triples=triples, entities=entities, properties=properties_of(triples),
                         links=links, explains=explained_spans(links, self.words, forms, self.class_span,
                                                               _typed(entities, type_words or {})))


@dataclass
class _Question:
    text: str
    lang: str
    tokens: list[str]
    qtype: str | None
    mentions: list[Mention]
    classes: list[Mention] = field(default_factory=list)
    content_chars: int = 1
    anchor_types: dict[str, str | None] = field(default_factory=dict)
    cased: list[str] | None = None  # the tokens with their case (None: they do not align)
    type_words: dict[str, frozenset[int]] = field(default_factory=dict)  # per entity: words naming its class
    asked_words: frozenset[int] = frozenset()  # words the property lexicon reads (« Geburtsort »)

    def name_stops(self, qid: str) -> frozenset[int]:
        """Positions of capitalized words that are not part of a name next to ``qid``'s
        mention: a class of the entity, or a property the question asks for (German
        capitalizes every noun: « Albert Einstein Geburtsort »)."""
        return self.type_words.get(qid, frozenset()) | self.asked_words


_SPECIFIC = frozenset({"person", "place", "date", "number", "organization", "work"})
_LITERALS = ("date", "number", "string")


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
            if kind not in _SPECIFIC:
                continue
            for cls, n in prop_classes.get((pid, "o"), ()):
                if cls not in _LITERALS:
                    slot = votes.setdefault(cls, {})
                    slot[kind] = slot.get(kind, 0) + n
        self.class_type: dict[str, str] = {lit: lit for lit in _LITERALS}
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
            if side == "o" and kind not in _LITERALS and self.declared.get(pid) in _SPECIFIC:
                kind = self.declared[pid]
            self._side[key] = kind
        return self._side[key]

    def entity_type(self, classes: Sequence[str]) -> str | None:
        """The type of an entity from its ``P31`` classes (the first class with a type)."""
        kinds = [self.class_type[c] for c in classes if c in self.class_type]
        return max(set(kinds), key=lambda k: (kinds.count(k), k)) if kinds else None


def _fit(a: str | None, b: str | None) -> tuple[float, float]:
    """``(fit, mismatch)`` of two coarse types (both 0 when either is unknown)."""
    if a in _SPECIFIC and b in _SPECIFIC:
        return (1.0, 0.0) if a == b else (0.0, 1.0)
    return 0.0, 0.0


class LocalBackend:
    """QAnswer-like candidate generation over any :class:`kg.client.KG`."""

    name = "local"

    def __init__(self, kg: KG, index: KGIndex, *, lexicon: PropertyLexicon | None = None,
                 ranker: Ranker | None = None, timeout_s: float = QUERY_TIMEOUT_S,
                 budget_s: float = 10.0, probe_limit: int | None = None, batch_probes: bool = False) -> None:
        self.kg = kg
        self.index = index
        self.linker = Linker(index)
        self.lexicon = lexicon
        self._props: PropertyText | None = None
        self._types: TypeModel | None = None
        self._props_lock = threading.Lock()
        self.ranker = ranker if ranker is not None else Ranker.load_default()
        self.timeout_s = timeout_s
        self.budget_s = budget_s
        self.probe_limit = probe_limit  # an endpoint's bound on the facts a reverse probe reads (None: all)
        self.batch_probes = batch_probes  # every anchor's properties in two requests (an endpoint's round trips)
        self._local = threading.local()
        self._adjacency_cache: dict[tuple[str, bool], list[Adjacent]] = {}
        self._subclass_cache: dict[str, bool] = {}
        self.complex = ComplexGenerator(kg, timeout_s=timeout_s)  # complex shapes: backends/local/complex.py
        if not batch_probes:  # the embedded index
            self._property_model()
        else:  # an endpoint: read now when it answers, else on the first question (the product starts without it)
            try:
                self._property_model()
            except BackendUnavailable as exc:
                log.warning("property labels not read at start, trying again on the first question: %s", exc)

    @property
    def props(self) -> PropertyText:
        """Every way to say each property (the KG's labels and the lexicon's phrases)."""
        return self._property_model()[0]

    @property
    def types(self) -> TypeModel:
        """Coarse types of classes and property ends."""
        return self._property_model()[1]

    def _property_model(self) -> tuple[PropertyText, TypeModel]:
        """The property text and type model, read from the index once.  Over an endpoint
        that is down the reads fail with :class:`BackendUnavailable` (the question is told
        "service unavailable") and are tried again on the next question: the product starts
        without its endpoint."""
        with self._props_lock:
            if self._props is None or self._types is None:
                try:
                    props = PropertyText(self.index.property_labels(), self.lexicon)
                    types = TypeModel(self.index.property_classes(), props.answer_types)
                except (KGUnavailable, KGTimeout) as exc:
                    raise BackendUnavailable(f"the KG's property labels are unavailable: {exc}") from exc
                self._props, self._types = props, types
            return self._props, self._types

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
                   batch_probes=profile is not None)

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
        evidence = {m.qid: replace(m.link(), name_cover=min(name_features(q.cased, m.start, m.end,
                                                                          q.name_stops(m.qid))["name_cover"],
                                                            _caseless_cover(words, own.get(m.qid))),
                                   name_words=name_words(q.cased, m.start, m.end))
                    for m, words in zip(linked, beside, strict=True)}
        forms = [self.props.form(t) for t in q.tokens]
        simple = [g.candidate(evidence, forms, q.type_words) for g in ranked]
        out = extend_candidates(self.complex, question, lang, simple, linked[:COMPLEX_MENTIONS])[:MAX_CANDIDATES]
        return out + self.no_value_readings(q, evidence, forms)

    def no_value_readings(self, q: _Question, evidence: Mapping[str, Link], forms: Sequence[str],
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
            matches = self._prop_matches(q, [(m.start, m.end)], cache)
            said = [(pm.lexicon, pid) for pid, pm in matches.items()
                    if pm.lexicon >= ASKED_WORD_SCORE and pm.lexicon == pm.score]
            if not said:
                continue
            _, pid = max(said)
            held = {a.pid for a in (*self.adjacency(m.qid, outgoing=True), *self.adjacency(m.qid, outgoing=False))}
            if pid in held:
                continue
            g = Generated(forward(m.qid, pid), "fwd", {"no_value": 1.0}, answers=0, anchor=m.qid,
                          words=matches[pid].words)
            out.append(replace(g.candidate(evidence, forms, q.type_words), score=0.0, no_value=True))
            if len(out) >= limit:
                break
        return out

    def _name_forms(self, qids: Iterable[str]) -> dict[str, frozenset[str] | None]:
        """Per entity, the word forms of its own names (:func:`name_word_forms`), read from
        the KG in one batch; ``None`` for each when the read fails (nothing then vouches)."""
        iris = {entity_iri(qid): qid for qid in qids}
        if not iris:
            return {}
        try:
            table = fetch_labels(self.kg, iris, timeout_s=self.timeout_s)
        except (KGTimeout, KGQueryError):
            return dict.fromkeys(iris.values())
        except KGUnavailable as exc:
            raise BackendUnavailable(f"the KG is unavailable: {exc}") from exc
        return {qid: name_word_forms(n for labels in table.get(iri, {}).values() for n in labels)
                for iri, qid in iris.items()}

    def generate(self, question: str, lang: str, linked: Sequence[Mention] | None = None) -> list[Generated]:
        """Every candidate graph, scored and sorted (best first, ties by SPARQL text);
        ``linked`` is the question's mentions when already linked.

        A KG query that fails or times out only loses its candidates; when no candidate is
        left and some query timed out, :class:`BackendTimeout` is raised; an unreachable KG
        raises :class:`BackendUnavailable`.  Expansions stop once ``budget_s`` is spent.
        """
        return self._generate(self._analyze(question, lang, linked))

    def _generate(self, q: _Question) -> list[Generated]:
        """:meth:`generate` for an analyzed question."""
        self._local.timeouts = 0
        deadline = time.monotonic() + self.budget_s
        if not q.mentions:
            return []
        cands: dict[str, Generated] = {}
        for g in self._one_hop(q):
            self._add(cands, g)
        _relative_features(list(cands.values()))
        self._rank(list(cands.values()))
        best_first = sorted(cands.values(), key=lambda g: (-g.score, g.sparql))
        if self.batch_probes:  # an endpoint: the three expansions' requests go out side by side
            for found in self._expand_concurrently(q, best_first):
                for g in found:
                    self._add(cands, g)
        for expand in () if self.batch_probes else (self._typed, self._pairs, self._two_hops):
            if time.monotonic() > deadline:
                log.info("candidate budget of %.1fs spent; skipping %s", self.budget_s, expand.__name__)
                break
            for g in expand(q, best_first):
                self._add(cands, g)
        out = list(cands.values())
        if not out and self._local.timeouts:
            raise BackendTimeout(f"{self._local.timeouts} KG queries timed out and no candidate was found")
        _relative_features(out)
        self._rank(out)
        out.sort(key=lambda g: (-g.score, g.sparql))
        return out

    def _expand_concurrently(self, q: _Question, best_first: Sequence[Generated]) -> list[list[Generated]]:
        """The typed, pair and two-hop expansions run at once (each in a copy of this context,
        so the question's KG budget holds), their candidates in that order."""
        expansions = (self._typed, self._pairs, self._two_hops)
        with ThreadPoolExecutor(max_workers=len(expansions)) as pool:
            futures = [pool.submit(contextvars.copy_context().run, expand, q, best_first) for expand in expansions]
            return [list(f.result()) for f in futures]

    # ------------------------------------------------------------------ analysis

    def _analyze(self, question: str, lang: str, linked: Sequence[Mention] | None) -> _Question:
        tokens = tokenize(question)
        mentions = list(linked) if linked is not None else self.linker.link(question, lang, limit=MAX_MENTIONS)
        qtype = self.lexicon.expected_answer_type(question, lang) if self.lexicon else None
        q = _Question(question, lang, tokens, qtype, _anchors(mentions))
        q.classes = [m for m in mentions if m.is_class][:4]
        classes = self.index.classes_of(m.qid for m in mentions)  # every linked entity's: its name's evidence
        q.anchor_types = {m.qid: self.types.entity_type(classes.get(m.qid, ())) for m in q.mentions}
        q.type_words = type_words(mentions, classes)
        q.content_chars = sum(len(t) for t in tokens if not is_stopword(t)) or 1
        q.cased = aligned_cased(question, len(tokens))
        q.asked_words = self._asked_words(q)
        return q

    def _asked_words(self, q: _Question) -> frozenset[int]:
        """Positions of the question's words that a property-lexicon phrase matches well
        (:data:`ASKED_WORD_SCORE`): they say what is asked, not whom it is about."""
        if q.cased is None:
            return frozenset()
        matches = self.props.match(self._rest(q, ())[0], "", q.lang)
        forms = {w for m in matches.values() if m.lexicon >= ASKED_WORD_SCORE and m.lexicon == m.score
                 for w in m.words}
        return frozenset(i for i, t in enumerate(q.tokens) if self.props.form(t) in forms)

    def _rest(self, q: _Question, spans: Sequence[tuple[int, int]]) -> tuple[list[str], str]:
        """Folded question words outside ``spans`` (in order) and the CJK characters there."""
        inside = {i for a, b in spans for i in range(a, b)}
        words = [self.props.form(t) for i, t in enumerate(q.tokens) if i not in inside]
        cjk = "".join(t for i, t in enumerate(q.tokens) if i not in inside and is_cjk(t))
        return words, cjk

    def _prop_matches(self, q: _Question, spans: Sequence[tuple[int, int]],
                      cache: dict[tuple, dict[str, PropertyMatch]]) -> dict[str, PropertyMatch]:
        key = tuple(sorted(spans))
        if key not in cache:
            words, cjk = self._rest(q, spans)
            cache[key] = self.props.match(words, cjk, q.lang)
        return cache[key]

    # ------------------------------------------------------------------ KG access

    def _query(self, sparql: str, max_rows: int) -> list[dict[str, Term]]:
        """Rows of a bounded query; a rejected or timed-out query gives none (noted)."""
        try:
            return self.kg.query(sparql, timeout_s=self.timeout_s, max_rows=max_rows).rows
        except KGUnavailable as exc:
            raise BackendUnavailable(f"the KG is unavailable: {exc}") from exc
        except KGTimeout as exc:
            self._local.timeouts = self._timeouts() + 1
            log.debug("candidate query timed out (%s): %s", exc, sparql)
        except KGQueryError as exc:
            log.debug("candidate query rejected (%s): %s", exc, sparql)
        return []

    def _timeouts(self) -> int:
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
        timeouts = self._timeouts()
        rows = self._query(sparql, ADJACENCY_ROWS)
        for row in rows:
            p, n = row.get("p"), row.get("n")
            if p is None or n is None or not p.value.startswith(WDT):
                continue
            pid = local_id(p.value)
            if pid is None or not pid.startswith("P"):
                continue
            out.append(Adjacent(pid, outgoing, whole_number(n), value_kind(row.get("ex"))))
        out.sort(key=lambda a: a.pid)
        if self._timeouts() > timeouts:
            return out  # not cached: a later question may get the full answer
        if len(self._adjacency_cache) > 4096:
            self._adjacency_cache.clear()
        self._adjacency_cache[key] = out
        return out

    def answers(self, triples: Sequence[IdTriple], max_rows: int = 5000) -> list[Term]:
        """Execute a candidate graph (bounded) and return its ``?answer`` values."""
        return [r["answer"] for r in self._query(select(triples), max_rows) if "answer" in r]

    # ------------------------------------------------------------------ shapes

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
        timeouts = self._timeouts()
        rows = self._query(f"SELECT ?k ?p ?n ?ex WHERE {{ {' UNION '.join(branches)} }}", ADJACENCY_ROWS * len(keys))
        if self._timeouts() > timeouts:
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

    def _one_hop(self, q: _Question) -> list[Generated]:
        out = []
        cache: dict[tuple, dict[str, PropertyMatch]] = {}
        if self.batch_probes:
            self.prefetch_adjacency(q.mentions)
        for rank, m in enumerate(q.mentions):
            matches = self._prop_matches(q, [(m.start, m.end)], cache)
            adj = self.adjacency(m.qid, outgoing=True)
            if m.degree <= HUB_DEGREE:
                adj = adj + self.adjacency(m.qid, outgoing=False)
            for a in adj:
                pm = matches.get(a.pid, PropertyMatch())
                triples = forward(m.qid, a.pid) if a.forward else backward(m.qid, a.pid)
                feats = self._base_features(q, m, rank, pm, a)
                out.append(Generated(triples, "fwd" if a.forward else "bwd", feats, answers=a.count,
                                     anchor=m.qid, words=pm.words))
        return out

    def _typed(self, q: _Question, ranked: Sequence[Generated]) -> list[Generated]:
        """Narrow the best 1-hop graphs by a class: one the question names, or the answers'
        most frequent class; directly (``P31``) or through subclasses (``P31/P279*``).
        Over an endpoint the graphs' class counts, and then their answers through
        subclasses, are read in one request each."""
        graphs = [g for g in ranked if g.shape in ("fwd", "bwd") and 2 <= g.answers <= TYPE_MAX_ANSWERS][:TYPE_CHECKS]
        counted = self._batch_answer_classes(graphs) if self.batch_probes else {}
        plans = []
        for g in graphs:
            counts = counted[g.sparql] if g.sparql in counted else self._answer_classes(g.triples)
            named = {c.qid: c for c in q.classes if c.qid != g.anchor}
            wanted = [c for c in named if c in counts]
            top = max(counts.items(), key=lambda kv: (kv[1], kv[0]), default=None)
            if top is not None and top[0] not in named and top[1] >= 0.3 * g.answers:
                wanted.append(top[0])
            plans.append((g, counts, named, wanted))
        # over an endpoint, in one request: the answers through subclasses of every class not
        # known to have none (one without counts its direct instances again), and which have
        classes = {c for _g, _c, _n, wanted in plans for c in wanted}
        sub_counts = self._batch_counts([typed_sub(g.triples, c) for g, _c, _n, wanted in plans for c in wanted
                                         if self._subclass_cache.get(c, True)], classes) if self.batch_probes else {}
        out = []
        for g, counts, named, wanted in plans:
            for cls in wanted:
                mention = named.get(cls)
                direct = counts[cls]
                if direct < g.answers:
                    out.append(self._typed_candidate(q, g, cls, mention, direct, typed(g.triples, cls), "+type"))
                triples = typed_sub(g.triples, cls)
                counted = sub_counts.get(where(triples))
                if counted is not None or self._has_subclasses(cls):
                    n = counted if counted is not None else self._count(triples)
                    if direct < n < g.answers:
                        out.append(self._typed_candidate(q, g, cls, mention, n, triples, "+subtype"))
        return out

    def _batch_answer_classes(self, graphs: Sequence[Generated]) -> dict[str, dict[str, int]]:
        """:meth:`_answer_classes` of every graph in one request (a UNION, one branch per
        graph); a failed request gives none (each graph is then asked alone)."""
        if len(graphs) < 2:
            return {}
        p31 = short(prop_iri(P31))
        branches = [f"{{ SELECT ?g ?c (COUNT(DISTINCT ?answer) AS ?n) WHERE {{ {where(g.triples)} ?answer {p31} ?c . "
                    f"BIND({i} AS ?g) }} GROUP BY ?g ?c }}" for i, g in enumerate(graphs)]
        timeouts = self._timeouts()
        rows = self._query(f"SELECT ?g ?c ?n WHERE {{ {' UNION '.join(branches)} }}", 2000 * len(graphs))
        if self._timeouts() > timeouts:
            return {}
        out: dict[str, dict[str, int]] = {g.sparql: {} for g in graphs}
        for row in rows:
            i, c, n = row.get("g"), row.get("c"), row.get("n")
            cid = local_id(c.value) if c is not None else None
            if i is not None and cid is not None and n is not None and 0 <= whole_number(i, -1) < len(graphs):
                out[graphs[whole_number(i)].sparql][cid] = whole_number(n)
        return out

    def _batch_counts(self, graphs: Sequence[Sequence[IdTriple]], classes: Iterable[str] = ()) -> dict[str, int]:
        """:meth:`_count` of every graph, by its graph pattern, and :meth:`_has_subclasses`
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

    def _typed_candidate(self, q: _Question, g: Generated, cls: str, mention: Mention | None, n: int,
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
        feats["log_answers"] = math.log1p(n)
        feats["single_answer"] = 1.0 if n == 1 else 0.0
        feats["type_share"] = n / max(1, g.answers)
        class_type = self.types.class_type.get(cls)
        if class_type in _SPECIFIC:
            feats["type_fit"], feats["type_mismatch"] = _fit(class_type, q.qtype)
        return Generated(triples, g.shape + suffix, feats, answers=n, anchor=g.anchor, words=g.words,
                         class_span=(mention.start, mention.end) if mention is not None else None)

    def _answer_classes(self, triples: Sequence[IdTriple]) -> dict[str, int]:
        """``{class: how many answers are direct instances}`` of a graph's answers."""
        sparql = (f"SELECT ?c (COUNT(DISTINCT ?answer) AS ?n) WHERE {{ {where(triples)} "
                  f"?answer {short(prop_iri(P31))} ?c . }} GROUP BY ?c")
        counts: dict[str, int] = {}
        for row in self._query(sparql, 2000):
            c, n = row.get("c"), row.get("n")
            cid = local_id(c.value) if c is not None else None
            if cid is not None and n is not None:
                counts[cid] = whole_number(n)
        return counts

    def _count(self, triples: Sequence[IdTriple]) -> int:
        """How many distinct answers a graph has (0 on failure)."""
        rows = self._query(f"SELECT (COUNT(DISTINCT ?answer) AS ?n) WHERE {{ {where(triples)} }}", 1)
        n = rows[0].get("n") if rows else None
        return whole_number(n) if n is not None else 0

    def _has_subclasses(self, cls: str) -> bool:
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

    def _pairs(self, q: _Question, ranked: Sequence[Generated]) -> list[Generated]:
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
            sets.update(self._batch_answer_sets(list(needed.values())))
        for i, a in enumerate(anchors):
            for b in anchors[i + 1:]:
                (sa, ea), (sb, eb) = spans[a], spans[b]
                if sa < eb and sb < ea:
                    continue
                for ga in per_anchor[a]:
                    for gb in per_anchor[b]:
                        common = self._answer_set(ga, sets) & self._answer_set(gb, sets)
                        if not common:
                            continue
                        out.append(self._pair(q, ga, gb, len(common)))
        return out

    def _answer_set(self, g: Generated, sets: dict[str, set[str]]) -> set[str]:
        key = g.sparql
        if key not in sets:
            sets[key] = {t.value for t in self.answers(g.triples, PAIR_MAX_ANSWERS + 1) if t.kind == "uri"}
        return sets[key]

    def _batch_answer_sets(self, graphs: Sequence[Generated]) -> dict[str, set[str]]:
        """:meth:`_answer_set` of every graph in one request (a UNION, one bounded branch per
        graph); a failed request gives none (each graph is then asked alone)."""
        if len(graphs) < 2:
            return {}
        branches = [f"{{ SELECT DISTINCT ?g ?answer WHERE {{ {where(g.triples)} BIND({i} AS ?g) }} "
                    f"LIMIT {PAIR_MAX_ANSWERS + 1} }}" for i, g in enumerate(graphs)]
        timeouts = self._timeouts()
        rows = self._query(f"SELECT DISTINCT ?g ?answer WHERE {{ {' UNION '.join(branches)} }}",
                           (PAIR_MAX_ANSWERS + 1) * len(graphs))
        if self._timeouts() > timeouts:
            return {}
        out: dict[str, set[str]] = {g.sparql: set() for g in graphs}
        for row in rows:
            i, answer = row.get("g"), row.get("answer")
            if i is not None and answer is not None and answer.kind == "uri" and 0 <= whole_number(i, -1) < len(graphs):
                out[graphs[whole_number(i)].sparql].add(answer.value)
        return out

    def _pair(self, q: _Question, ga: Generated, gb: Generated, n: int) -> Generated:
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
        feats["n_entities"] = 2.0
        feats["log_answers"] = math.log1p(n)
        feats["single_answer"] = 1.0 if n == 1 else 0.0
        for k, v in fb.items():
            if k.startswith("pid="):
                feats[k] = max(feats.get(k, 0.0), v)
        return Generated(intersect(ga.triples, gb.triples), "and", feats, answers=n, anchor=ga.anchor,
                         words=ga.words | gb.words)

    def _two_hops(self, q: _Question, ranked: Sequence[Generated]) -> list[Generated]:
        out = []
        cache: dict[tuple, dict[str, PropertyMatch]] = {}
        firsts = [g for g in ranked if g.shape == "fwd" and 0 < g.answers <= TWO_HOP_MAX_MID
                  and g.features["prop_score"] > 0][:TWO_HOP_FIRST]
        mentions = {m.qid: m for m in q.mentions}
        firsts = [g for g in firsts if g.triples[0][0] in mentions]
        batched = self._batch_second_hops(firsts) if self.batch_probes else None
        for i, g in enumerate(firsts):
            entity, p1, _ = g.triples[0]
            m = mentions[entity]
            sparql = (f"SELECT ?p (COUNT(DISTINCT ?v) AS ?n) (SAMPLE(?v) AS ?ex) WHERE {{ "
                      f"{sparql_node(entity)} {short(prop_iri(p1))} ?x . ?x ?p ?v . }} GROUP BY ?p")
            matches = self._prop_matches(q, [(m.start, m.end)], cache)
            for row in batched[i] if batched is not None else self._query(sparql, ADJACENCY_ROWS):
                p, n = row.get("p"), row.get("n")
                pid = local_id(p.value) if p is not None and p.value.startswith(WDT) else None
                if pid is None or n is None or pid == p1:
                    continue
                pm = matches.get(pid)
                if pm is None or pm.score <= 0:
                    continue
                count = whole_number(n)
                a = Adjacent(pid, True, count, value_kind(row.get("ex")))
                feats = self._base_features(q, m, 0, pm, a)
                feats["hops"] = 2.0
                feats["anchor_fit"], feats["anchor_mismatch"] = _fit(q.anchor_types.get(entity),
                                                                     self.types.side_type(p1, "s"))
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

    def _batch_second_hops(self, firsts: Sequence[Generated]) -> list[list[dict[str, Term]]] | None:
        """The properties one hop past each first graph's answers, for every graph in one
        request (a UNION, one branch per graph); ``None`` when it fails (each is then asked alone)."""
        if len(firsts) < 2:
            return None
        branches = []
        for i, g in enumerate(firsts):
            entity, p1, _ = g.triples[0]
            branches.append(f"{{ SELECT ?k ?p (COUNT(DISTINCT ?v) AS ?n) (SAMPLE(?v) AS ?ex) WHERE {{ "
                            f"{sparql_node(entity)} {short(prop_iri(p1))} ?x . ?x ?p ?v . BIND({i} AS ?k) }} "
                            f"GROUP BY ?k ?p }}")
        timeouts = self._timeouts()
        rows = self._query(f"SELECT ?k ?p ?n ?ex WHERE {{ {' UNION '.join(branches)} }}", ADJACENCY_ROWS * len(firsts))
        if self._timeouts() > timeouts:
            return None
        out: list[list[dict[str, Term]]] = [[] for _ in firsts]
        for row in rows:
            k = row.get("k")
            i = whole_number(k, -1) if k is not None else -1
            if 0 <= i < len(firsts):
                out[i].append(row)
        return out

    # ------------------------------------------------------------------ features & ranking

    def _base_features(self, q: _Question, m: Mention, rank: int, pm: PropertyMatch, a: Adjacent) -> dict[str, float]:
        qtype = q.qtype
        answer_side, anchor_side = ("o", "s") if a.forward else ("s", "o")
        answer_type = a.kind if a.kind in _LITERALS else self.types.side_type(a.pid, answer_side)
        fit, mismatch = _fit(answer_type, qtype)
        anchor_fit, anchor_mismatch = _fit(q.anchor_types.get(m.qid), self.types.side_type(a.pid, anchor_side))
        words = [w for w in self._rest(q, [(m.start, m.end)])[0] if not self.props.is_function(w, q.lang)]
        matched_share = min(1.0, len(pm.words) / len(words)) if words else 1.0
        return {
            f"pid={a.pid}": 1.0,
            "explained": min(1.0, m.coverage + pm.chars / q.content_chars),
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
            **name_features(q.cased, m.start, m.end, q.name_stops(m.qid)),
        }

    def _rank(self, cands: list[Generated]) -> None:
        for g, score in zip(cands, self.ranker.score_many([g.features for g in cands]), strict=True):
            g.score = round(score, 6)

    @staticmethod
    def _add(cands: dict[str, Generated], g: Generated) -> None:
        key = g.sparql
        old = cands.get(key)
        if old is None or g.features.get("link_score", 0) > old.features.get("link_score", 0):
            cands[key] = g


def _relative_features(cands: Sequence[Generated]) -> None:
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


def _typed(entities: Sequence[str], type_words: Mapping[str, frozenset[int]]) -> frozenset[int]:
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


def _exactly_named(mentions: Sequence[Mention]) -> frozenset[int]:
    """Token positions some mention names exactly (by a label or alias, as written, folded or
    inflected; not a fuzzy, partial or sound-alike match)."""
    return frozenset(i for m in mentions if m.kind in EXACT_LINKS for i in range(m.start, m.end))


def unexplained_neighbours(q: _Question, m: Mention, named: frozenset[int]) -> list[str]:
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


def _unexplained(q: _Question, i: int, named: frozenset[int]) -> bool:
    token = q.tokens[i]
    return (token.isalpha() and not is_cjk(token) and not is_stopword(token) and i not in q.asked_words
            and i not in named)


def type_words(mentions: Sequence[Mention], classes: dict[str, list[str]]) -> dict[str, frozenset[int]]:
    """Per linked entity, the question's token positions linked to one of its ``P31``
    classes (« den Film Titanic »: "Film" names a class of Titanic, the film)."""
    spans = [(m.qid, range(m.start, m.end)) for m in mentions if m.is_class]
    out: dict[str, frozenset[int]] = {}
    for qid, own in classes.items():
        words = frozenset(i for cls, span in spans if cls in own for i in span)
        if words:
            out[qid] = words
    return out


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
