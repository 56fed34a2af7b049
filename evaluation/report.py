"""Aggregate item results into ``metrics.json`` and write the run's files.

The keys of ``metrics.json`` are a stable contract.  Top level and every group carry:
``n``, ``macro_precision_qald``, ``macro_recall``, ``macro_f1_qald``, ``micro_f1``, ``ats``,
``answered``, ``correct``, ``wrong``, ``abstained``, ``precision_at_k`` and ``ndcg_at_k``
(keys ``"1"``, ``"3"``, ``"5"``, ``"10"``), ``mrr`` and ``latency_ms`` (``p50``, ``p95``).
The groups are ``per_language {lang: …}`` and ``per_kind {answerable, unanswerable}``.
Extra keys (``per_source``, ``per_complexity``, ``ranking``, ``nlpcc``, ``config``,
``failures``, ``without_validator``, …) may be added but never renamed.

Ranking metrics are defined over *answerable* items only (no candidate can be relevant to an
unanswerable question) on which the pipeline did not fail; ``ranked_n`` says how many items
they cover, and they are ``null`` when there are none.  The contract's ``precision_at_k``,
``ndcg_at_k`` and ``mrr`` use the list the gate chose from: after validation when the
validator ran, else the backend order.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from evaluation.formats import AnswerSet, Dataset, Question, QuestionText, write_qald_json
from evaluation.harness import ItemResult
from evaluation.metrics import (
    accuracy_at_n,
    ats,
    averaged_f1,
    mean_average_precision,
    mrr,
    ndcg_at_k,
    percentile,
    precision_at_k,
    set_scores,
)

CONTRACT_K = (1, 3, 5, 10)
CURVE_K = tuple(range(1, 11))
CONTRACT_KEYS = ("n", "macro_precision_qald", "macro_recall", "macro_f1_qald", "micro_f1", "ats", "answered",
                 "correct", "wrong", "abstained", "precision_at_k", "ndcg_at_k", "mrr", "latency_ms")


def _r(value: float | None) -> float | None:
    return None if value is None else round(value, 6)


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _ranked(results: Sequence[ItemResult], which: str) -> list[tuple[list[bool], int]]:
    out = []
    for r in results:
        rel = r.rel_after if which == "after" else r.rel_before
        if r.answerable and rel is not None:
            out.append((rel, r.n_relevant))
    return out


def ranking_block(results: Sequence[ItemResult], which: str, ks: Iterable[int] = CURVE_K) -> dict[str, Any] | None:
    """P@k, NDCG@k, MRR, MAP and Accuracy@N over one candidate list (``before``/``after``);
    ``None`` when no answerable item has that list."""
    ranked = _ranked(results, which)
    if not ranked:
        return None
    lists = [rel for rel, _ in ranked]
    ks = tuple(ks)
    return {
        "n": len(ranked),
        "precision_at_k": {str(k): _r(_mean([precision_at_k(rel, k) for rel in lists])) for k in ks},
        "ndcg_at_k": {str(k): _r(_mean([ndcg_at_k(rel, k, n_rel) for rel, n_rel in ranked])) for k in ks},
        "mrr": _r(mrr(lists)),
        "map": _r(mean_average_precision(lists)),
        "accuracy_at_n": {str(k): _r(accuracy_at_n(lists, k)) for k in CONTRACT_K},
    }


def primary_list(results: Sequence[ItemResult]) -> str:
    """``after`` when the validator scored candidates in this run, else ``before``."""
    return "after" if any(r.rel_after is not None for r in results) else "before"


def group_metrics(results: Sequence[ItemResult], *, which: str = "before") -> dict[str, Any]:
    """The contract's metrics (plus a few extras) for a group of items."""
    scores = set_scores([r.counts for r in results])
    ranking = ranking_block(results, which, CONTRACT_K)
    latencies = [r.latency_ms for r in results]
    answered = sum(1 for r in results if r.answered)
    correct = sum(1 for r in results if r.correct)
    out = {
        "n": len(results),
        "macro_precision_qald": _r(scores.macro_precision_qald),
        "macro_recall": _r(scores.macro_recall),
        "macro_f1_qald": _r(scores.macro_f1_qald),
        "micro_f1": _r(scores.micro_f1),
        "ats": _r(ats([r.ats for r in results])),
        "answered": answered,
        "correct": correct,
        "wrong": answered - correct,
        "abstained": len(results) - answered,
        "precision_at_k": ranking["precision_at_k"] if ranking else {str(k): None for k in CONTRACT_K},
        "ndcg_at_k": ranking["ndcg_at_k"] if ranking else {str(k): None for k in CONTRACT_K},
        "mrr": ranking["mrr"] if ranking else None,
        "latency_ms": {"p50": _r(percentile(latencies, 50)), "p95": _r(percentile(latencies, 95))},
        "ranked_n": ranking["n"] if ranking else 0,
        "macro_precision": _r(scores.macro_precision),
        "macro_f1": _r(scores.macro_f1),
        "micro_precision": _r(scores.micro_precision),
        "micro_recall": _r(scores.micro_recall),
        "partially_correct": sum(1 for r in results if r.answered and 0 < r.qald.f1 < 1),
        "failed": sum(1 for r in results if r.failed),
    }
    if not results:  # an empty group has counts but no scores
        for key in ("macro_precision_qald", "macro_recall", "macro_f1_qald", "micro_f1", "ats", "macro_precision",
                    "macro_f1", "micro_precision", "micro_recall"):
            out[key] = None
    return out


def _groups(results: Sequence[ItemResult], keys: Callable[[ItemResult], Iterable[str]],
            which: str) -> dict[str, dict[str, Any]]:
    buckets: dict[str, list[ItemResult]] = defaultdict(list)
    for r in results:
        for key in keys(r):
            buckets[key].append(r)
    return {k: group_metrics(v, which=which) for k, v in sorted(buckets.items())}


def build_metrics(results: Sequence[ItemResult], config: dict[str, Any] | None = None) -> dict[str, Any]:
    """The full ``metrics.json`` object of one run."""
    which = primary_list(results)
    out = group_metrics(results, which=which)
    out["per_language"] = _groups(results, lambda r: [r.lang], which)
    out["per_kind"] = {k: group_metrics([r for r in results if r.kind == k], which=which)
                       for k in ("answerable", "unanswerable")}
    out["per_source"] = _groups(results, lambda r: [r.source or r.dataset], which)
    out["per_complexity"] = _groups(results, lambda r: r.complexity, which)
    out["per_split"] = _groups(results, lambda r: [r.split], which)
    primary = ranking_block(results, which)
    out["ranking"] = {
        "list": f"{which}_validation",
        "before_validation": ranking_block(results, "before"),
        "after_validation": ranking_block(results, "after"),
    }
    out["nlpcc"] = {
        "mrr": primary["mrr"] if primary else None,
        "accuracy_at_n": primary["accuracy_at_n"] if primary else None,
        "map": primary["map"] if primary else None,
        "averaged_f1": _r(averaged_f1(r.plain.f1 for r in results)),
    }
    out["failures"] = [{"id": r.id, "lang": r.lang, "status": r.status, "error": r.error}
                       for r in results if r.failed]
    if config is not None:
        out["config"] = config
    return out


def answers_datasets(results: Sequence[ItemResult]) -> dict[str, Dataset]:
    """System answers as QALD-JSON datasets, one per language, keyed by the benchmark ids
    (the first item per id and language wins)."""
    by_lang: dict[str, dict[str, Question]] = defaultdict(dict)
    for r in results:
        if r.id in by_lang[r.lang]:
            continue
        answers = r.system if r.answered else AnswerSet(vars=["result"])
        by_lang[r.lang][r.id] = Question(
            id=r.id, texts=[QuestionText(r.lang, r.question)],
            query={"sparql": r.sparql} if r.sparql else {}, answers=answers,
        )
    return {lang: Dataset(id=f"kgqa-answers-{lang}", questions=list(qs.values())) for lang, qs in by_lang.items()}


def write_answers(results: Sequence[ItemResult], out_dir: Path, suffix: str = "") -> list[Path]:
    """``answers.<lang><suffix>.json`` files, uploadable to GERBIL QA."""
    paths = []
    for lang, dataset in sorted(answers_datasets(results).items()):
        path = Path(out_dir) / f"answers.{lang}{suffix}.json"
        write_qald_json(dataset, path)
        paths.append(path)
    return paths


def write_items(results: Sequence[ItemResult], path: Path) -> None:
    """One JSON record per item (for error analysis)."""
    with Path(path).open("w", encoding="utf-8") as fh:
        for r in results:
            fh.write(json.dumps(r.to_json(), ensure_ascii=False) + "\n")


def write_metrics(metrics: dict[str, Any], path: Path) -> None:
    """``metrics.json``."""
    Path(path).write_text(json.dumps(metrics, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
