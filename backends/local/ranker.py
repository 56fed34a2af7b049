"""The candidate ranker of the local generator: a small model over the features
:mod:`backends.local.generator` computes (link quality, entity prior, lexicon match, type fit,
query size, hop count, ...): gradient-boosted trees (default) or a logistic regression.

It is trained on the ``train`` split of the dev questions (:func:`evaluation.splits.split_of`):
a candidate is positive when its answer set has F1 = 1 against the gold answers.  Only
the model is saved (``assets/ranker.json``: coefficients or trees, no data).  Reproduce with::

    .venv/bin/python -m training.ranker train

Without the file a hand-set heuristic with the same interface is used.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path

from core.errors import ModelLoadError
from core.settings import RANKER_PATH

DEFAULT_PATH = RANKER_PATH

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
    def load_default(path: Path = DEFAULT_PATH) -> Ranker:
        """The model at ``path`` (``assets/ranker.json``) when present, else :meth:`heuristic`."""
        return Ranker.load(path) if Path(path).is_file() else Ranker.heuristic()


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
