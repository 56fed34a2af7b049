"""The one calibrated probability that a shown answer is right.

The gate (:class:`validator.gate.LearnedGate`) does not compare a raw score with a
threshold: it reads, for each of the first readings, the evidence the pipeline holds on it
(:class:`qa.gate.Reading`: the validator's score, the backend's rank and score, the margin
to the next reading on both, the candidate's shape, the question's language, how its
entities were linked, how many other scored readings give the same answers) and turns it
into the chance that showing this reading is right.  The backend's ranker is weaker on a
question not in English, so the validator's score and the backend's may weigh differently
there (``foreign``, ``validator_logit_foreign``, ``backend_foreign``).
:func:`features` names that evidence; :class:`AnswerModel` is a logistic regression over
it, fitted by :mod:`training.probability` on the ``dev`` split of every bench source with
each source left out in turn, and saved with its threshold as a small JSON asset
(``assets/validator/gate.json``).  The threshold is written there and nowhere else.

A shape or language the model never saw adds nothing of its own: its indicator is simply
absent, so a new candidate shape is scored like every other answer (by the validator's
score and the rest of the evidence); no feature lumps the shapes together as "complex"."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.errors import ModelLoadError
from core.settings import VALIDATOR_DIR
from qa.gate import Reading

GATE_FILE = "gate.json"
GATE_PATH = VALIDATOR_DIR / GATE_FILE
JUDGED = 5
"""How many of the backend's first candidates the validator judges (within the latency budget)."""
FUZZY_LINKS = frozenset({"fuzzy", "partial", "phonetic"})
EPS = 1e-4


def _logit(p: float) -> float:
    p = min(1.0 - EPS, max(EPS, float(p)))
    return math.log(p / (1.0 - p))


def features(readings: Sequence[Reading], i: int) -> dict[str, float]:
    """The named evidence on reading ``i`` of a list (only scored readings are compared with
    one another; a reading that answers as this one does is no rival: :meth:`Reading.agrees`)."""
    me = readings[i]
    v = me.validator_score if me.validator_score is not None else 0.0
    others = [r for j, r in enumerate(readings) if j != i and r.validator_score is not None and not me.agrees(r)]
    best_other_v = max((r.validator_score or 0.0 for r in others), default=0.0)
    b = min(1.0, max(0.0, float(me.backend_score)))
    best_other_b = max((min(1.0, max(0.0, float(r.backend_score))) for r in others), default=0.0)
    link_scores = [lk.score for lk in me.links]
    foreign = 0.0 if me.lang.split("-")[0] == "en" else 1.0
    agree = sum(1 for j, r in enumerate(readings) if j != i and r.validator_score is not None and me.agrees(r))
    out = {
        "validator_logit": _logit(v),
        "validator": v,
        "validator_margin": v - best_other_v,
        "validator_best": 1.0 if v >= best_other_v else 0.0,
        "backend": b,
        "backend_margin": b - best_other_b,
        "rank_log": math.log2(1 + me.rank),
        "rank_first": 1.0 if me.rank == 0 else 0.0,
        "link_min": min(link_scores) if link_scores else 1.0,
        "link_fuzzy": 1.0 if any(lk.kind in FUZZY_LINKS for lk in me.links) else 0.0,
        "entities": float(len({lk.qid for lk in me.links})),
        "foreign": foreign,
        "validator_logit_foreign": foreign * _logit(v),
        "backend_foreign": foreign * b,
        "agree": float(min(agree, 3)),
        "worded": 1.0 if me.worded else 0.0,
        f"shape={me.shape or 'unknown'}": 1.0,
        f"lang={me.lang}": 1.0,
    }
    return out


@dataclass(frozen=True)
class AnswerModel:
    """A logistic regression over :func:`features` (standardized by ``means`` and ``scales``)
    and the threshold the gate applies to its probability."""

    names: tuple[str, ...]
    means: tuple[float, ...]
    scales: tuple[float, ...]
    weights: tuple[float, ...]
    intercept: float
    threshold: float
    judged: int = JUDGED
    info: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        n = len(self.names)
        if not n or not (len(self.means) == len(self.scales) == len(self.weights) == n) \
                or any(s <= 0 for s in self.scales) or not 0.0 <= self.threshold <= 1.0 or self.judged < 1:
            raise ValueError("an answer model needs as many means, positive scales and weights as names, "
                             "a threshold in [0, 1] and at least one judged reading")

    def vector(self, named: Mapping[str, float]) -> list[float]:
        """The standardized feature vector of one reading's named evidence."""
        return [(float(named.get(n, 0.0)) - m) / s for n, m, s in zip(self.names, self.means, self.scales, strict=True)]

    def log_odds(self, named: Mapping[str, float]) -> float:
        """The log-odds that showing the reading with this evidence is right."""
        return self.intercept + sum(w * x for w, x in zip(self.weights, self.vector(named), strict=True))

    def probability(self, named: Mapping[str, float]) -> float:
        """The chance that showing the reading with this evidence is right."""
        return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, self.log_odds(named)))))

    def probabilities(self, readings: Sequence[Reading]) -> list[float | None]:
        """Per reading, its probability (``None`` for one the validator did not score)."""
        return [None if r.validator_score is None else self.probability(features(readings, i))
                for i, r in enumerate(readings)]

    def to_json(self) -> dict[str, Any]:
        """The asset's object."""
        return {"names": list(self.names), "means": list(self.means), "scales": list(self.scales),
                "weights": list(self.weights), "intercept": self.intercept, "threshold": self.threshold,
                "judged": self.judged, "info": self.info}

    def save(self, path: Path) -> None:
        """Write the model as JSON."""
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> AnswerModel:
        """Parse the asset's object (``ValueError``/``KeyError``/``TypeError`` when it is not one)."""
        return cls(tuple(str(n) for n in data["names"]), tuple(float(x) for x in data["means"]),
                   tuple(float(x) for x in data["scales"]), tuple(float(x) for x in data["weights"]),
                   float(data["intercept"]), float(data["threshold"]), int(data.get("judged", JUDGED)),
                   dict(data.get("info", {})))


def load_answer_model(path: Path = GATE_PATH) -> AnswerModel | None:
    """The model saved at ``path``; ``None`` when there is none.  A file that cannot be read
    as a model raises :class:`ModelLoadError`."""
    if not path.exists():
        return None
    try:
        return AnswerModel.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ModelLoadError(path, f"not an answer model: {exc}") from exc
