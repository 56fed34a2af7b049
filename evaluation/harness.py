"""Run the answering pipeline over benchmark items and score each one.

An *item* is one language version of one question.  Each item goes through
:meth:`qa.pipeline.Pipeline.answer` exactly as in the chat; the shown answer
(``Turn.answers`` or ``Turn.boolean`` when ``Turn.answered``) is compared with the gold
after :mod:`evaluation.answers` normalization.  The top candidates are executed on the
pipeline's KG to tell which are relevant (their result has F1 = 1 against the gold), which
feeds P@k, NDCG@k and the NLPCC ranking metrics (answerable items on which the pipeline
did not fail).  "Before validation" is the backend order; "after validation" (when the
validator ran) keeps, in backend order, the candidates the gate accepts on their own.

A pipeline failure (an error status or an exception) never stops the run: the item is
recorded with its error and counted as an abstention.
"""

from __future__ import annotations

import hashlib
import logging
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from core.errors import KGError
from evaluation.answers import normalize_boolean, normalize_terms
from evaluation.formats import AnswerSet, Dataset, Question
from evaluation.metrics import PRF, Counts, ats_value, prf_from_counts
from evaluation.splits import split_of
from kg.client import Term
from qa.pipeline import Pipeline, Turn
from qa.turn import Status

log = logging.getLogger(__name__)

RANK_DEPTH = 10
FULL_ROWS = 100_000
FAILED_STATUSES = (Status.ERROR, Status.SERVICE_ERROR, Status.BAD_INPUT, "exception")
"""Turn statuses of a pipeline failure, plus ``exception`` (the pipeline raised)."""
SPLITS = ("train", "dev", "test", "all")


@dataclass(frozen=True)
class EvalItem:
    """One language version of one benchmark question."""

    question: Question
    lang: str
    text: str
    dataset: str

    @property
    def id(self) -> str:
        """The question id (shared by all language versions)."""
        return self.question.id


def _texts_for(q: Question, lang: str | None) -> list[Any]:
    if lang is None:
        return [t for t in q.texts if t.string.strip()][:1]
    if lang == "all":
        return [t for t in q.texts if t.string.strip()]
    return [t for t in q.texts if t.language == lang and t.string.strip()][:1]


def select_items(
    datasets: Sequence[tuple[str, Dataset]],
    *,
    lang: str | None = None,
    split: str = "all",
    limit: int | None = None,
) -> list[EvalItem]:
    """The items to evaluate.

    ``lang``: ``None`` = each question's first string, ``"all"`` = every string as its own
    item, ``"xx"`` = the ``xx`` string (questions without one are skipped).  ``split``
    keeps the questions of one :func:`evaluation.splits.split_of` split.  ``limit`` keeps N
    of the remaining questions *of each dataset*: a deterministic pseudo-random sample
    (stable hash of the ids), so that a sample mixes answerable and unanswerable questions
    however the file is ordered; the file's order is kept.
    """
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; expected one of {SPLITS}")
    items: list[EvalItem] = []
    for name, dataset in datasets:
        eligible = [q for q in dataset.questions
                    if (split == "all" or split_of(q.id) == split) and _texts_for(q, lang)]
        if limit is not None:
            keep = {id(q) for q in sorted(eligible, key=lambda q: _sample_key(q.id))[:limit]}
            eligible = [q for q in eligible if id(q) in keep]
        for q in eligible:
            items.extend(EvalItem(q, t.language, t.string, name) for t in _texts_for(q, lang))
    return items


def _sample_key(question_id: str) -> str:
    """A stable pseudo-random order of ids (independent of the split's own hash)."""
    return hashlib.sha256(f"sample:{question_id}".encode()).hexdigest()


def gold_values(q: Question) -> set[str]:
    """The normalized gold answer set (empty when unanswerable or without gold)."""
    if q.answers is None:
        return set()
    if q.answers.boolean is not None:
        return {normalize_boolean(q.answers.boolean)}
    return normalize_terms(q.answers.values())


@dataclass
class ItemResult:
    """Everything measured for one item."""

    id: str
    lang: str
    question: str
    dataset: str
    source: str | None
    kind: str
    complexity: list[str]
    split: str
    answerable: bool
    status: str
    error: str | None
    answered: bool
    counts: Counts
    qald: PRF
    plain: PRF
    correct: bool
    ats: int
    latency_ms: float
    system: AnswerSet
    sparql: str | None = None
    confidence: float | None = None
    rank: int | None = None
    validator: str = "off"
    n_candidates: int = 0
    rel_before: list[bool] | None = None
    rel_after: list[bool] | None = None
    n_relevant: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        """True when the pipeline errored on this item (counted as abstained)."""
        return self.status in FAILED_STATUSES

    def to_json(self) -> dict[str, Any]:
        """A JSON-able record (``items.jsonl``)."""
        return {
            "id": self.id, "lang": self.lang, "question": self.question, "dataset": self.dataset,
            "source": self.source, "kind": self.kind, "complexity": self.complexity, "split": self.split,
            "status": self.status, "error": self.error, "answered": self.answered, "correct": self.correct,
            "ats": self.ats, "precision_qald": self.qald.precision, "recall": self.qald.recall,
            "f1": self.qald.f1, "tp": self.counts.tp, "fp": self.counts.fp, "fn": self.counts.fn,
            "latency_ms": self.latency_ms, "sparql": self.sparql, "confidence": self.confidence,
            "rank": self.rank, "validator": self.validator, "n_candidates": self.n_candidates,
            "relevant_before": self.rel_before, "relevant_after": self.rel_after,
            "n_relevant": self.n_relevant, "answers": self.system.to_qald(), "notes": self.notes,
        }


def _shown_answers(pipeline: Pipeline, turn: Turn, notes: list[str]) -> AnswerSet:
    """The answer the user was shown, as an answer set, as the QALD output carries it: the
    values shown plus those with no name (:attr:`Turn.unnamed`, never shown in the chat); the
    full result set when the pipeline truncated it for display (re-executing the shown query)."""
    if not turn.answered:
        return AnswerSet(vars=["result"])
    if turn.boolean is not None:
        return AnswerSet(boolean=turn.boolean)
    terms = [Term("uri" if a.kind == "uri" else "literal", a.value, a.datatype,
                  a.label_lang if a.kind != "uri" else None) for a in turn.answers]
    terms += [Term("uri", iri) for iri in turn.unnamed]  # not shown in the chat, but in the QALD output
    if turn.sparql and turn.total_answers > len(turn.answers):
        try:
            result = pipeline.kg.query(turn.sparql, timeout_s=pipeline.query_timeout_s, max_rows=FULL_ROWS)
            terms = [t for t in result.column() if t.kind != "bnode"]
        except KGError as exc:
            notes.append(f"full answer set unavailable, scored the {len(terms)} shown: {exc}")
    return AnswerSet.of_terms(terms)


def _system_values(answers: AnswerSet) -> set[str]:
    if answers.boolean is not None:
        return {normalize_boolean(answers.boolean)}
    return normalize_terms(answers.values())


class _Relevance:
    """Executes candidate queries once each and tells whether they answer the question."""

    def __init__(self, pipeline: Pipeline, gold: set[str]) -> None:
        self.pipeline = pipeline
        self.gold = gold
        self.cache: dict[str, bool] = {}

    def __call__(self, sparql: str) -> bool:
        if sparql not in self.cache:
            self.cache[sparql] = self._check(sparql)
        return self.cache[sparql]

    def _check(self, sparql: str) -> bool:
        try:
            result = self.pipeline.kg.query(sparql, timeout_s=self.pipeline.query_timeout_s, max_rows=FULL_ROWS)
        except KGError:
            return False
        values = {normalize_boolean(result.boolean)} if result.boolean is not None else normalize_terms(
            result.column())
        return prf_from_counts(Counts.of(values, self.gold)).f1 == 1.0


def _rank_lists(pipeline: Pipeline, turn: Turn, gold: set[str],
                depth: int) -> tuple[list[bool], list[bool] | None, int]:
    relevant = _Relevance(pipeline, gold)
    before = [relevant(c.sparql) for c in turn.candidates[:depth]]
    after = None
    if turn.validator == "on":
        kept = [c for c in turn.candidates if c.passed]  # what the gate stage let through
        after = [relevant(c.sparql) for c in kept[:depth]]
    return before, after, sum(1 for v in relevant.cache.values() if v)


def _result(item: EvalItem, gold: set[str], *, status: str, error: str | None, answered: bool,
            system: AnswerSet, latency_ms: float, notes: list[str]) -> ItemResult:
    counts = Counts.of(_system_values(system), gold)
    qald = prf_from_counts(counts, qald=True)
    correct = answered and qald.f1 == 1.0
    q = item.question
    return ItemResult(
        id=q.id, lang=item.lang, question=item.text, dataset=item.dataset, source=q.source, kind=q.kind,
        complexity=q.complexity, split=split_of(q.id), answerable=q.kind != "unanswerable" and bool(gold),
        status=status, error=error, answered=answered, counts=counts, qald=qald,
        plain=prf_from_counts(counts, qald=False), correct=correct, ats=ats_value(answered, correct),
        latency_ms=latency_ms, system=system, notes=notes,
    )


def evaluate_item(pipeline: Pipeline, item: EvalItem, *, use_validator: bool = True, depth: int = RANK_DEPTH,
                  detect_lang: bool = False) -> ItemResult:
    """Answer one item through the pipeline and score it; never raises for pipeline bugs."""
    gold = gold_values(item.question)
    started = time.perf_counter()
    try:
        given = None if detect_lang else item.lang  # a given language is also the one the question is read in
        turn = pipeline.answer(item.text, given, use_validator=use_validator, question_lang=given)
    except Exception as exc:  # a pipeline bug must not abort the run: it is logged and recorded
        log.exception("pipeline failed on %s (%s)", item.id, item.lang)
        return _result(item, gold, status="exception", error=f"{type(exc).__name__}: {exc}", answered=False,
                       system=AnswerSet(vars=["result"]), latency_ms=round((time.perf_counter() - started) * 1000, 1),
                       notes=[])
    notes = list(turn.notes)
    latency = turn.timings_ms.get("total", round((time.perf_counter() - started) * 1000, 1))
    answered = turn.answered and turn.status not in FAILED_STATUSES
    system = _shown_answers(pipeline, turn, notes) if answered else AnswerSet(vars=["result"])
    res = _result(item, gold, status=turn.status, error=turn.error, answered=answered, system=system,
                  latency_ms=float(latency), notes=notes)
    res.sparql, res.confidence, res.rank = (turn.sparql, turn.confidence, turn.rank) if answered else (None, None, None)
    res.validator, res.n_candidates = turn.validator, len(turn.candidates)
    if res.answerable and not res.failed:
        res.rel_before, res.rel_after, res.n_relevant = _rank_lists(pipeline, turn, gold, depth)
    return res


def run_items(pipeline: Pipeline, items: Sequence[EvalItem], *, use_validator: bool = True,
              progress: bool = True, desc: str = "evaluate", detect_lang: bool = False) -> list[ItemResult]:
    """Evaluate every item in order, with a progress bar on stderr."""
    from tqdm import tqdm

    results = []
    bar = tqdm(items, desc=desc, unit="q", file=sys.stderr, disable=not progress, dynamic_ncols=True)
    for item in bar:
        result = evaluate_item(pipeline, item, use_validator=use_validator, detect_lang=detect_lang)
        results.append(result)
        if progress:
            done = len(results)
            bar.set_postfix(ats=f"{sum(r.ats for r in results) / done:+.2f}",
                            failed=sum(1 for r in results if r.failed), refresh=False)
    return results
