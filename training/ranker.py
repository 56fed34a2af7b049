"""Training of the local generator's candidate ranker (``kgqa train ranker``):
collect candidates of the ``train`` split, fit, report ``dev``."""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from backends.local.generator import LocalBackend
from backends.local.ranker import DEFAULT_PATH, FEATURES, MIN_PROPERTY_POSITIVES, LinearRanker, Ranker, TreeRanker
from core.errors import KGError
from core.settings import DEFAULT_BENCH_DIR, load_settings
from evaluation.answers import normalize_binding, normalize_boolean, normalize_term, prf
from evaluation.splits import split_of
from kg.build import build_kg
from kg.client import EmbeddedKG
from kg.store import open_store

# --------------------------------------------------------------------------- bench items


@dataclass(frozen=True)
class BenchItem:
    """One question string of the dev benchmark with its gold answer values."""

    qid: str
    source: str
    lang: str
    text: str
    gold: frozenset[str]
    split: str
    entities: tuple[str, ...] = ()  # the question's entities (SimpleQuestions: the gold triple's subject)


def bench_items(bench_dir: Path, *, answerable_only: bool = True) -> Iterator[BenchItem]:
    """Every (question, language string) of ``bench_dir/*.json``; each language is an item."""

    yield from file_items(sorted(Path(bench_dir).glob("*.json")), answerable_only=answerable_only)


def file_items(paths: Sequence[Path], *, answerable_only: bool = True) -> Iterator[BenchItem]:
    """Every (question, language string) of the QALD-JSON files ``paths``."""

    for path in paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        for q in data.get("questions", []):
            if answerable_only and q.get("kind") != "answerable":
                continue
            gold = set()
            for ans in q.get("answers", []):
                for b in ans.get("results", {}).get("bindings", []):
                    for v in b.values():
                        gold.add(normalize_binding(v))
            entities = tuple(q.get("question_entities", []))
            triple = q.get("gold_triple")
            if triple:
                entities = (triple[0],)  # the subject, also for inverse (R…) properties
            for s in q.get("question", []):
                if s.get("string"):
                    yield BenchItem(q["id"], q.get("source", path.stem), s["language"], s["string"],
                                    frozenset(gold), split_of(q["id"]), entities)


def f1_of(backend, triples, gold: frozenset[str]) -> float:
    """F1 of a candidate graph's answers against ``gold``."""

    got = {normalize_term(t) for t in backend.answers(triples, max_rows=20000)}
    return prf(got, gold)[2]


def f1_sparql(kg, sparql: str, gold: frozenset[str], *, timeout_s: float = 10.0) -> float:
    """F1 of any candidate query's answers (first column, or ASK boolean) against ``gold``."""


    try:
        result = kg.query(sparql, timeout_s=timeout_s, max_rows=20000)
    except KGError:
        return 0.0
    if result.boolean is not None:
        return prf({normalize_boolean(result.boolean)}, gold)[2]
    return prf({normalize_term(t) for t in result.column() if t is not None}, gold)[2]


# --------------------------------------------------------------------------- training


def collect(backend, items: Sequence[BenchItem], *, per_question: int = 250, progress: bool = True
            ) -> list[tuple[str, list[dict[str, float]], list[float]]]:
    """For each item: the features of its candidates and each candidate's F1."""
    rows = []
    started = time.monotonic()
    for i, item in enumerate(items):
        cands = backend.generate(item.text, item.lang)[:per_question]
        rows.append((f"{item.qid}|{item.lang}", [c.features for c in cands],
                     [f1_of(backend, c.triples, item.gold) for c in cands]))
        if progress and (i + 1) % 100 == 0:
            print(f"  {i + 1}/{len(items)} questions ({time.monotonic() - started:.0f}s)", file=sys.stderr)
    return rows


def _feature_names(rows) -> tuple[str, ...]:
    """The fixed features plus a learned bias for every property with enough train positives."""
    pid_counts: dict[str, int] = {}
    for _key, feats, f1s in rows:
        for fe, f1 in zip(feats, f1s, strict=True):
            if f1 >= 0.999:
                for name in fe:
                    if name.startswith("pid="):
                        pid_counts[name] = pid_counts.get(name, 0) + 1
    return FEATURES + tuple(sorted(k for k, v in pid_counts.items() if v >= MIN_PROPERTY_POSITIVES))


def _matrix(rows, names: Sequence[str]):
    """Design matrix, labels (F1 = 1) and per-question weights over questions with a positive."""
    import numpy as np

    x, y, w = [], [], []
    for _key, feats, f1s in rows:
        if not any(f >= 0.999 for f in f1s):
            continue
        for fe, f1 in zip(feats, f1s, strict=True):
            x.append([float(fe.get(name, 0.0)) for name in names])
            y.append(1 if f1 >= 0.999 else 0)
            w.append(1.0 / len(feats))
    wa = np.array(w)
    return np.array(x), np.array(y), wa * len(wa) / wa.sum()


def fit(rows, *, c: float = 1.0) -> LinearRanker:
    """Fit the logistic regression on collected rows (label: F1 == 1)."""
    from sklearn.linear_model import LogisticRegression

    names = _feature_names(rows)
    xa, ya, wa = _matrix(rows, names)
    mean = xa.mean(axis=0)
    scale = xa.std(axis=0)
    scale[scale < 1e-6] = 1.0
    model = LogisticRegression(C=c, max_iter=2000, class_weight="balanced")
    model.fit((xa - mean) / scale, ya, sample_weight=wa)
    return LinearRanker(names, tuple(float(v) for v in model.coef_[0]), float(model.intercept_[0]),
                        tuple(float(v) for v in mean), tuple(float(v) for v in scale))


def fit_trees(rows, *, iterations: int = 150, leaves: int = 15, learning_rate: float = 0.05) -> TreeRanker:
    """Fit small gradient-boosted trees (deterministic: fixed seed, no early-stopping split)."""
    from sklearn.ensemble import HistGradientBoostingClassifier

    names = _feature_names(rows)
    xa, ya, wa = _matrix(rows, names)
    model = HistGradientBoostingClassifier(max_iter=iterations, max_leaf_nodes=leaves, learning_rate=learning_rate,
                                           l2_regularization=1.0, min_samples_leaf=40, early_stopping=False,
                                           random_state=0)
    model.fit(xa, ya, sample_weight=wa)
    trees = []
    for (predictor,) in model._predictors:
        nodes = predictor.nodes
        trees.append({
            "feature": [int(v) for v in nodes["feature_idx"]],
            "threshold": [float(v) for v in nodes["num_threshold"]],
            "left": [int(v) for v in nodes["left"]],
            "right": [int(v) for v in nodes["right"]],
            "value": [round(float(v), 7) for v in nodes["value"]],
            "leaf": [int(v) for v in nodes["is_leaf"]],
        })
    ranker = TreeRanker(names, float(model._baseline_prediction.ravel()[0]), trees)
    check = ranker.raw_many([dict(zip(names, row, strict=True)) for row in xa[:200]])
    expected = model.decision_function(xa[:200])
    if max(abs(a - b) for a, b in zip(check, expected, strict=True)) > 1e-4:
        raise ValueError("exported trees disagree with the fitted model")
    return ranker


def recall_at(rows, ranker: Ranker, k: int) -> float:
    """Share of items whose top-``k`` (by ``ranker``) holds an F1 = 1 candidate."""
    hits = 0
    for _key, feats, f1s in rows:
        raw = ranker.raw_many(feats)
        order = sorted(range(len(feats)), key=lambda i: -raw[i])[:k]
        hits += any(f1s[i] >= 0.999 for i in order)
    return hits / max(1, len(rows))


def _backend(cache_dir: Path | None):


    settings = load_settings({}, **({"cache_dir": cache_dir} if cache_dir else {}))
    kg = EmbeddedKG(open_store(build_kg(settings.kg_source, settings.cache_dir, progress=False)))
    backend = LocalBackend.from_settings(settings, kg)
    return backend, settings


def train(argv: Sequence[str] | None = None) -> int:
    """``kgqa train ranker``: collect candidates on ``train``, fit, report ``dev``."""

    ap = argparse.ArgumentParser(prog="kgqa train ranker")
    ap.add_argument("--bench", type=Path, default=DEFAULT_BENCH_DIR)
    ap.add_argument("--out", type=Path, default=DEFAULT_PATH)
    ap.add_argument("--cache-dir", type=Path, default=None)
    ap.add_argument("--rows", type=Path, default=None, help="reuse/keep collected rows (pickle, not committed)")
    ap.add_argument("--fresh", action="store_true", help="start from the heuristic, not the saved ranker")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--model", choices=["trees", "logistic"], default="trees")
    ap.add_argument("-C", type=float, default=1.0, help="inverse regularization of the logistic model")
    args = ap.parse_args(argv)
    backend, _settings = _backend(args.cache_dir)
    if args.fresh:
        backend.ranker = Ranker.heuristic()
    items = list(bench_items(args.bench))
    train_items = [i for i in items if i.split == "train"]
    dev_items = [i for i in items if i.split == "dev"]
    if args.limit:
        train_items, dev_items = train_items[:args.limit], dev_items[:args.limit // 3]
    if args.rows and args.rows.is_file():
        train_rows, dev_rows = pickle.loads(args.rows.read_bytes())
    else:
        print(f"collecting candidates for {len(train_items)} train + {len(dev_items)} dev items", file=sys.stderr)
        train_rows, dev_rows = collect(backend, train_items), collect(backend, dev_items)
        if args.rows:
            args.rows.parent.mkdir(parents=True, exist_ok=True)
            args.rows.write_bytes(pickle.dumps((train_rows, dev_rows)))
    ranker = fit_trees(train_rows) if args.model == "trees" else fit(train_rows, c=args.C)
    before = backend.ranker
    ranker.info = {
        "kind": "gradient_boosted_trees" if args.model == "trees" else "logistic_regression",
        "label": "candidate answer set has F1 = 1 against gold",
        "train_items": len(train_rows),
        "dev_recall@1": round(recall_at(dev_rows, ranker, 1), 4),
        "dev_recall@10": round(recall_at(dev_rows, ranker, 10), 4),
        "dev_recall@1_before": round(recall_at(dev_rows, before, 1), 4),
        "train_recall@1": round(recall_at(train_rows, ranker, 1), 4),
        "oracle_dev": round(recall_at(dev_rows, ranker, 10**6), 4),
    }
    ranker.save(args.out)
    print(json.dumps(ranker.info, indent=1))
    return 0
