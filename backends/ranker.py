"""The candidate ranker of the local generator: a small model over the features
:mod:`backends.local` computes (link quality, entity prior, lexicon match, type fit,
query size, hop count, ...): gradient-boosted trees (default) or a logistic regression.

It is trained on the ``train`` split of the dev questions (:func:`evaluation.splits.split_of`):
a candidate is positive when its answer set has F1 = 1 against the gold answers.  Only
the model is saved (``assets/ranker.json``: coefficients or trees, no data).  Reproduce with::

    .venv/bin/python -m backends.ranker train

Without the file a hand-set heuristic with the same interface is used.
"""

from __future__ import annotations

import argparse
import json
import math
import pickle
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from backends.errors import ModelLoadError

DEFAULT_PATH = Path(__file__).resolve().parent.parent / "assets" / "ranker.json"

FEATURES: tuple[str, ...] = (
    "link_score", "link_quality", "link_prior", "link_coverage", "coverage", "link_ambiguity", "link_fuzzy",
    "link_class", "link_rank", "link_min", "prop_score", "prop_lex", "prop_kg", "prop_same_lang", "prop_none",
    "prop_min", "prop_first", "rest_matched", "type_fit", "type_mismatch", "qtype_person_bwd", "qtype_literal",
    "literal_unwanted", "forward", "hops", "n_entities", "has_type", "type_link", "type_coverage", "type_share",
    "p31", "log_answers", "single_answer", "explained", "prop_contiguous", "pair_shared", "link_gap", "prop_gap",
    "prop_gap_anchor", "explained_gap", "anchor_fit", "anchor_mismatch", "type_subclasses", "type_from_answers",
    "link_partial", "link_label", "link_phonetic",
)
MIN_PROPERTY_POSITIVES = 4  # a property gets its own learned bias once this many train positives use it

_HEURISTIC: dict[str, float] = {
    "link_score": 3.0, "link_coverage": 1.5, "prop_score": 4.0, "prop_none": -1.5, "type_fit": 0.7,
    "type_mismatch": -1.0, "hops": -1.2, "has_type": 0.6, "type_link": 1.0, "n_entities": 0.8,
    "literal_unwanted": -1.0, "link_fuzzy": -0.5, "p31": -0.3, "log_answers": -0.1,
}


class Ranker:
    """Scores candidate feature dicts; :meth:`score` is a probability in [0, 1].

    Two kinds share this interface: :class:`LinearRanker` (logistic regression) and
    :class:`TreeRanker` (small gradient-boosted trees).  Unknown features are ignored.
    """

    features: tuple[str, ...] = ()
    info: dict

    def raw_many(self, rows: Sequence[Mapping[str, float]]) -> list[float]:
        """Log-odds of each feature dict."""
        raise NotImplementedError

    def raw(self, feats: Mapping[str, float]) -> float:
        """Log-odds of one feature dict."""
        return self.raw_many([feats])[0]

    def score_many(self, rows: Sequence[Mapping[str, float]]) -> list[float]:
        """Probabilities in [0, 1] that each candidate's answers are exactly right."""
        return [_sigmoid(z) for z in self.raw_many(rows)]

    def score(self, feats: Mapping[str, float]) -> float:
        """Probability in [0, 1] that the candidate's answers are exactly right."""
        return _sigmoid(self.raw(feats))

    def to_json(self) -> dict:
        """The model as JSON-able data (coefficients or trees; never training data)."""
        raise NotImplementedError

    def save(self, path: Path) -> None:
        """Write the model to ``path`` as JSON."""
        Path(path).write_text(json.dumps(self.to_json(), separators=(",", ":")) + "\n", encoding="utf-8")

    @staticmethod
    def heuristic() -> LinearRanker:
        """Hand-set weights, used before any training."""
        return LinearRanker(FEATURES, tuple(_HEURISTIC.get(f, 0.0) for f in FEATURES), -4.0,
                            info={"kind": "heuristic"})

    @staticmethod
    def load(path: Path) -> Ranker:
        """Read a saved model; raises :class:`ModelLoadError` naming the file."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
            if data.get("kind") == "trees":
                return TreeRanker.from_json(data)
            return LinearRanker(tuple(data["features"]), tuple(data["coef"]), float(data["intercept"]),
                                tuple(data["mean"]), tuple(data["scale"]), data.get("info", {}))
        except FileNotFoundError as exc:
            raise ModelLoadError(path, "ranker model not found") from exc
        except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
            raise ModelLoadError(path, f"corrupt ranker model: {exc}") from exc

    @staticmethod
    def load_default() -> Ranker:
        """``assets/ranker.json`` when present, else :meth:`heuristic`."""
        return Ranker.load(DEFAULT_PATH) if DEFAULT_PATH.is_file() else Ranker.heuristic()


def _sigmoid(z: float) -> float:
    if z < -60:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))


class LinearRanker(Ranker):
    """``sigmoid(intercept + Σ coef_i · (x_i - mean_i) / scale_i)``."""

    def __init__(self, features: Sequence[str], coef: Sequence[float], intercept: float,
                 mean: Sequence[float] = (), scale: Sequence[float] = (), info: dict | None = None) -> None:
        n = len(features)
        self.features = tuple(features)
        self.coef = tuple(float(c) for c in coef)
        self.intercept = float(intercept)
        self.mean = tuple(mean) or (0.0,) * n
        self.scale = tuple(scale) or (1.0,) * n
        self.info = dict(info or {})
        if not (len(self.coef) == len(self.mean) == len(self.scale) == n):
            raise ValueError("ranker vectors differ in length")
        if any(sd <= 0 for sd in self.scale):
            raise ValueError("ranker scales must be positive")
        self._weights = {f: c / sd for f, c, sd in zip(self.features, self.coef, self.scale, strict=True)}
        self._bias = self.intercept - sum(c * mu / sd for c, mu, sd in zip(self.coef, self.mean, self.scale,
                                                                          strict=True))

    def raw_many(self, rows: Sequence[Mapping[str, float]]) -> list[float]:
        """Linear log-odds of each feature dict."""
        w, b = self._weights, self._bias
        return [b + sum(w[k] * float(v) for k, v in feats.items() if k in w) for feats in rows]

    def to_json(self) -> dict:
        """Coefficients, standardization and training info."""
        return {"version": 1, "kind": "logistic", "features": list(self.features),
                "coef": [round(c, 6) for c in self.coef], "intercept": round(self.intercept, 6),
                "mean": [round(m, 6) for m in self.mean], "scale": [round(s, 6) for s in self.scale],
                "info": self.info}


class TreeRanker(Ranker):
    """Gradient-boosted regression trees on the log-odds scale (numeric splits ``x <= t``)."""

    def __init__(self, features: Sequence[str], baseline: float, trees: Sequence[Mapping[str, Sequence]],
                 info: dict | None = None) -> None:
        import numpy as np

        self.features = tuple(features)
        self.baseline = float(baseline)
        self.info = dict(info or {})
        self._index = {f: i for i, f in enumerate(self.features)}
        feat, thr, left, right, value, leaf, roots = [], [], [], [], [], [], []
        for tree in trees:
            base = len(feat)
            roots.append(base)
            n = len(tree["value"])
            for key in ("feature", "threshold", "left", "right", "leaf"):
                if len(tree[key]) != n:
                    raise ValueError(f"tree field {key!r} has the wrong length")
            feat += [int(f) for f in tree["feature"]]
            thr += [float(t) for t in tree["threshold"]]
            left += [base + int(i) for i in tree["left"]]
            right += [base + int(i) for i in tree["right"]]
            value += [float(v) for v in tree["value"]]
            leaf += [bool(x) for x in tree["leaf"]]
        self._trees = [dict(t) for t in trees]
        self._feat, self._thr = np.array(feat, dtype=np.int64), np.array(thr)
        self._left, self._right = np.array(left, dtype=np.int64), np.array(right, dtype=np.int64)
        self._value, self._leaf = np.array(value), np.array(leaf, dtype=bool)
        self._roots = np.array(roots, dtype=np.int64)
        if len(feat) and (self._feat.max() >= len(self.features) or self._feat.min() < 0):
            raise ValueError("tree feature index out of range")

    def raw_many(self, rows: Sequence[Mapping[str, float]]) -> list[float]:
        """Baseline plus the leaf values reached in every tree (vectorized over candidates and trees)."""
        import numpy as np

        if not rows:
            return []
        x = np.zeros((len(rows), len(self.features)))
        for i, feats in enumerate(rows):
            for k, v in feats.items():
                j = self._index.get(k)
                if j is not None:
                    x[i, j] = float(v)
        node = np.repeat(self._roots[:, None], len(rows), axis=1)  # trees x candidates
        cols = np.arange(len(rows))[None, :]
        for _ in range(64):
            inner = ~self._leaf[node]
            if not inner.any():
                break
            go_left = x[cols, self._feat[node]] <= self._thr[node]
            step = np.where(go_left, self._left[node], self._right[node])
            node = np.where(inner, step, node)
        return (self.baseline + self._value[node].sum(axis=0)).tolist()

    def to_json(self) -> dict:
        """The trees, their features and training info."""
        return {"version": 1, "kind": "trees", "features": list(self.features),
                "baseline": round(self.baseline, 8), "trees": self._trees, "info": self.info}

    @classmethod
    def from_json(cls, data: Mapping) -> TreeRanker:
        """Rebuild from :meth:`to_json` data."""
        return cls(tuple(data["features"]), float(data["baseline"]), list(data["trees"]), data.get("info", {}))


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
    from evaluation.answers import normalize_binding
    from evaluation.splits import split_of

    for path in sorted(Path(bench_dir).glob("*.json")):
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
    from evaluation.answers import normalize_term, prf

    got = {normalize_term(t) for t in backend.answers(triples, max_rows=20000)}
    return prf(got, gold)[2]


def f1_sparql(kg, sparql: str, gold: frozenset[str], *, timeout_s: float = 10.0) -> float:
    """F1 of any candidate query's answers (first column, or ASK boolean) against ``gold``."""
    from backends.errors import KGError
    from evaluation.answers import normalize_boolean, normalize_term, prf

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
    from backends.local import LocalBackend
    from chat.settings import load_settings
    from kg.build import build_kg
    from kg.client import EmbeddedKG
    from kg.store import open_store

    settings = load_settings({}, **({"cache_dir": cache_dir} if cache_dir else {}))
    kg = EmbeddedKG(open_store(build_kg(settings.kg_source, settings.cache_dir, progress=False)))
    backend = LocalBackend.from_settings(settings, kg)
    return backend, settings


def train(argv: Sequence[str] | None = None) -> int:
    """``python -m backends.ranker train``: collect candidates on ``train``, fit, report ``dev``."""
    from chat.settings import DEFAULT_BENCH_DIR

    ap = argparse.ArgumentParser(prog="python -m backends.ranker train")
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


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: ``python -m backends.ranker train [...]``."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] != "train":
        print("usage: python -m backends.ranker train [--bench DIR] [--out FILE] [--rows FILE]", file=sys.stderr)
        return 2
    return train(argv[1:])


if __name__ == "__main__":
    sys.exit(main())
