"""What the records (:mod:`training.records`) keep of a question's first candidates: each
candidate executed, its answers typed and (with the validator) its verbalization scored, as
one feature dict per candidate.  The shipped gate is fitted on the validator and backend
scores and the query shape (:func:`training.records.gate_inputs`); the other features
describe the candidate for the figures and the probability map.

Evidence per candidate (first :data:`TOP_K` candidates of the backend's list):

* linking and relation (the local generator's features: match kind, link quality and
  coverage, the share of the question's capitalized name the span covers, the entity's
  degree prior, the property phrase's score and language);
* answer type: the type the question word announces (``expected_answer_type`` of the
  property lexicon, every supported language) against the executed answers' kinds (people by
  ``P31`` human, located things by ``P17``, literal datatypes) and their number;
* the list: backend score, rank and margins, the cross-encoder's score and margin, query
  shape, question language, how many of the other candidates give the same answers.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from core.errors import KGError
from kg.client import KG, QueryResult, value_kind
from kg.labels import HUMAN_CLASS
from kg.sparql import WD
from qa.candidate import Candidate
from qa.reading.lexicon import PropertyLexicon
from qa.score import Scorer, best_reading_scores
from qa.verbalize import Verbalizer, readings_with_english
from validator.gate import clip_unit

TOP_K = 5
MAX_ROWS = 201  # one more than the pipeline shows
TYPE_SAMPLE = 5  # answer entities per candidate whose type is looked up

_LOCATED = "|".join(f"<http://www.wikidata.org/prop/direct/{p}>" for p in ("P17", "P131", "P30", "P625"))

BACKEND_FEATURES: tuple[str, ...] = (
    "link_score", "link_quality", "link_prior", "link_coverage", "link_ambiguity", "link_fuzzy", "link_partial",
    "link_phonetic", "link_label", "link_class", "link_gap", "name_cover", "name_extra", "prop_score", "prop_lex",
    "prop_kg", "prop_same_lang", "prop_none", "prop_gap", "rest_matched", "explained", "explained_gap", "type_fit",
    "type_mismatch", "anchor_fit", "anchor_mismatch", "literal_unwanted", "qtype_literal", "hops", "n_entities",
    "has_type", "type_link", "forward", "p31", "log_answers", "pair_shared",
)
LANGS = ("en", "ru", "de", "fr", "es", "it", "pt", "uk", "zh", "ja", "ar", "hi")
QTYPES = ("person", "place", "date", "number", "count", "boolean", "organization", "work", "string")
SHAPES = ("plain", "count", "ask", "order", "filter")



@dataclass(frozen=True)
class AnswerKinds:
    """What one candidate's executed answers are."""

    n: int = 0
    error: bool = False
    boolean: bool | None = None
    uri: float = 0.0
    date: float = 0.0
    number: float = 0.0
    string: float = 0.0
    human: float = 0.0
    located: float = 0.0
    values: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Evidence:
    """Everything the model reads for one question: per first candidate a feature dict."""

    rows: list[dict[str, float]]
    kinds: list[AnswerKinds]
    validator_scores: tuple[float, ...] = ()
    verbalizations: tuple[str, ...] = ()


def execute(kg: KG, sparql: str, timeout_s: float) -> QueryResult | None:
    """The candidate's result (first :data:`MAX_ROWS` rows), ``None`` when it fails."""
    try:
        return kg.query(sparql, timeout_s=timeout_s, max_rows=MAX_ROWS)
    except KGError:
        return None


def entity_types(kg: KG, iris: Sequence[str], timeout_s: float) -> dict[str, tuple[bool, bool]]:
    """``{iri: (is a human, is located: has a country, region, continent or coordinates)}``
    for entity IRIs (one query for all)."""
    safe = [i for i in dict.fromkeys(iris) if i.startswith(WD) and i[len(WD):].isalnum()]
    if not safe:
        return {}
    values = " ".join(f"<{i}>" for i in safe)
    sparql = (f"SELECT ?x ?h ?l WHERE {{ VALUES ?x {{ {values} }} "
              f"BIND(EXISTS {{ ?x <http://www.wikidata.org/prop/direct/P31> <{WD}{HUMAN_CLASS}> }} AS ?h) "
              f"BIND(EXISTS {{ ?x {_LOCATED} ?c }} AS ?l) }}")
    try:
        result = kg.query(sparql, timeout_s=timeout_s)
    except KGError:
        return {}
    return {row["x"].value: (row["h"].value == "true", row["l"].value == "true")
            for row in result.rows if "x" in row and "h" in row and "l" in row}


def answer_kinds(kg: KG, results: Sequence[QueryResult | None], timeout_s: float) -> list[AnswerKinds]:
    """The kinds of every candidate's answers (entity types looked up for a sample)."""
    columns = [[t for t in r.column() if t is not None] if r is not None else [] for r in results]
    samples = [[t.value for t in col if t.kind == "uri"][:TYPE_SAMPLE] for col in columns]
    types = entity_types(kg, [i for s in samples for i in s], timeout_s)
    out = []
    for result, col, sample in zip(results, columns, samples, strict=True):
        if result is None:
            out.append(AnswerKinds(error=True))
            continue
        if result.boolean is not None:
            out.append(AnswerKinds(n=1, boolean=result.boolean, values=frozenset({str(result.boolean)})))
            continue
        n = len(col)
        counts = Counter(value_kind(t) for t in col)
        share = {k: v / n for k, v in counts.items()}
        typed = [types[i] for i in sample if i in types]
        out.append(AnswerKinds(
            n=n, uri=share.get("uri", 0.0), date=share.get("date", 0.0), number=share.get("number", 0.0),
            string=share.get("string", 0.0),
            human=sum(h for h, _ in typed) / len(typed) if typed else 0.0,
            located=sum(loc for _, loc in typed) / len(typed) if typed else 0.0,
            values=frozenset(t.value for t in col)))
    return out


def _type_features(qtype: str | None, k: AnswerKinds) -> dict[str, float]:
    fits = {
        "person": k.human,
        "place": k.located * (1.0 - k.human),
        "date": k.date,
        "number": k.number,
        "count": k.number,
        "boolean": 1.0 if k.boolean is not None else 0.0,
        "organization": k.uri * (1.0 - k.human),
        "work": k.uri * (1.0 - k.human),
        "string": k.string,
    }
    fit = fits.get(qtype or "", 0.0)
    return {"atype_fit": fit, "atype_mismatch": (1.0 - fit) if qtype in fits else 0.0}


def features(question: str, lang: str, qtype: str | None, candidates: Sequence[Candidate],
             kinds: Sequence[AnswerKinds], validator_scores: Sequence[float] = ()) -> list[dict[str, float]]:
    """The feature dict of each of the first ``len(kinds)`` candidates."""
    top = list(candidates[: len(kinds)])
    scores = [float(c.score) for c in top]
    rows = []
    for i, (cand, kind) in enumerate(zip(top, kinds, strict=True)):
        given = dict(cand.features)
        group = same_answers(kinds, i)
        row = {name: float(given.get(name, 0.0)) for name in BACKEND_FEATURES}
        others = scores[:i] + scores[i + 1:]
        row.update({
            "has_features": 1.0 if given else 0.0,
            "rank": float(i),
            "backend": scores[i],
            "backend_gap_best": scores[0] - scores[i],
            "backend_margin": scores[i] - max(others) if others else 1.0,
            "backend_next": scores[i] - scores[i + 1] if i + 1 < len(scores) else scores[i],
            "n_candidates": float(min(len(candidates), 60)),
            "ans_n": math.log1p(kind.n),
            "ans_single": 1.0 if kind.n == 1 else 0.0,
            "ans_empty": 1.0 if kind.n == 0 else 0.0,
            "ans_error": 1.0 if kind.error else 0.0,
            "ans_bool": 1.0 if kind.boolean is not None else 0.0,
            "ans_true": 1.0 if kind.boolean else 0.0,
            "ans_uri": kind.uri, "ans_date": kind.date, "ans_number": kind.number, "ans_string": kind.string,
            "ans_human": kind.human, "ans_located": kind.located,
            "agree": float(len(group) - 1),
            "q_len": float(min(len(question), 200)) / 100.0,
            **_type_features(qtype, kind),
            **{f"qtype_{t}": 1.0 if qtype == t else 0.0 for t in QTYPES},
            "qtype_none": 1.0 if qtype is None else 0.0,
            **{f"lang_{x}": 1.0 if lang == x else 0.0 for x in LANGS},
            **{f"shape_{s}": 1.0 if cand.shape == s else 0.0 for s in SHAPES},
        })
        row.update(group_features(group, scores))
        if validator_scores:
            v = [float(x) for x in validator_scores]
            rest = v[:i] + v[i + 1:]
            row.update({"v_score": v[i], "v_margin": v[i] - max(rest) if rest else v[i], "v_best": max(v),
                        "v_rank": float(sorted(v, reverse=True).index(v[i])),
                        "group_v_max": max(v[j] for j in group), "group_v_mean": sum(v[j] for j in group) / len(group)})
        rows.append(row)
    return rows


def same_answers(kinds: Sequence[AnswerKinds], i: int) -> list[int]:
    """The candidates (``i`` among them) whose executed answers are the same non-empty set
    as candidate ``i``'s: different readings of the question that agree on the answer."""
    if not kinds[i].n:
        return [i]
    return [j for j, other in enumerate(kinds) if j == i or (other.n and other.values == kinds[i].values)]


def group_features(group: Sequence[int], scores: Sequence[float]) -> dict[str, float]:
    """The backend's support for one answer set: the agreeing candidates' backend scores
    summed (clipped to 1) and combined as independent votes (``1 - prod(1 - s)``), the
    best rank among them, and how many there are."""
    clipped = [clip_unit(scores[j]) for j in group]
    return {"group_size": float(len(group)), "group_backend": min(1.0, sum(clipped)),
            "group_backend_or": 1.0 - math.prod(1.0 - s for s in clipped), "group_rank": float(min(group))}


class EvidenceReader:
    """Reads the first :data:`TOP_K` candidates of a question as the pipeline would: executes,
    types and (with a scorer) scores them by their best reading."""

    def __init__(self, kg: KG, lexicon: PropertyLexicon | None, *, scorer: Scorer | None = None,
                 verbalize: Verbalizer | None = None, k: int = TOP_K, timeout_s: float = 5.0) -> None:
        self.kg = kg
        self.lexicon = lexicon
        self.scorer = scorer
        self.verbalize = verbalize
        self.k = k
        self.timeout_s = timeout_s

    def evidence(self, question: str, lang: str, candidates: Sequence[Candidate]) -> Evidence:
        """Execute, type and (with the validator) score the first ``k`` candidates, each by its
        best reading as the pipeline reads it (:func:`readings_with_english`, with the question
        so that a question not in English also has its plain readings said in its own words)."""
        top = list(candidates[: self.k])
        qtype = self.lexicon.expected_answer_type(question, lang) if self.lexicon else None
        results = [execute(self.kg, c.sparql, self.timeout_s) for c in top]
        kinds = answer_kinds(self.kg, results, self.timeout_s)
        scores: tuple[float, ...] = ()
        texts: tuple[str, ...] = ()
        if self.scorer is not None and self.verbalize is not None and top:
            readings = readings_with_english(self.verbalize, top, lang, question=question)
            texts = tuple(r[0] for r in readings)
            scores = tuple(best_reading_scores(self.scorer, question, readings, lang, [c.links for c in top]))
        return Evidence(features(question, lang, qtype, candidates, kinds, scores), kinds, scores, texts)
