"""The probability that a shown answer is right, read off the gate's compared score.

The gate keeps a candidate when its compared score (for the ``mix`` policy: the blend of
validator and backend scores) reaches the threshold.  That score is not a probability: a
blended 0.95 does not mean that 95 % of such answers are right.  :mod:`training.probability`
fits, on the ``dev`` questions of every benchmark source, a monotone map from the score the
gate compares to the share of right answers among those kept at that score (isotonic
regression, each step shrunk towards one half by its number of questions, so a step seen
on a handful of questions never says 100 %).  This module reads that map
(``assets/validator/probability.json``) and applies it; the chat shows the result as the
chance that the answer is right.

The map belongs to one gate policy (mode and rank weight): a map fitted for another policy
is not used.  Complex shapes (COUNT, ASK, ...) are gated by the validator score alone
against a threshold of their own; the map does not cover them (no estimate).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from core.errors import ModelLoadError
from core.settings import VALIDATOR_DIR
from qa.turn import Compared
from validator.gate import GatePolicy

log = logging.getLogger(__name__)

PROBABILITY_FILE = "probability.json"
PROBABILITY_PATH = VALIDATOR_DIR / PROBABILITY_FILE


@dataclass(frozen=True)
class AnswerProbability:
    """A monotone map from the gate's compared score to the probability that the kept
    answer is right: linear between the fitted points ``(scores[i], probabilities[i])``,
    flat beyond the first and last.  Implements :class:`qa.gate.Probability`."""

    scores: tuple[float, ...]
    probabilities: tuple[float, ...]
    mode: str
    rank_weight: float
    info: dict[str, Any]

    def __post_init__(self) -> None:
        xs, ps = np.asarray(self.scores), np.asarray(self.probabilities)
        if not len(xs) or len(xs) != len(ps) or np.any(np.diff(xs) < 0) or np.any(np.diff(ps) < 0) \
                or ps.min() < 0.0 or ps.max() > 1.0:
            raise ValueError("a probability map needs as many non-decreasing scores as probabilities in [0, 1]")

    @property
    def score_name(self) -> str:
        """The compared score this map reads ("blended" or "validator")."""
        return GatePolicy(self.mode, self.rank_weight).score_name

    def fits(self, policy: GatePolicy) -> bool:
        """Whether this map was fitted for ``policy``'s compared score."""
        return policy.mode == self.mode and abs(policy.rank_weight - self.rank_weight) < 1e-9

    def probability(self, score: float) -> float:
        """The probability for one compared score."""
        return float(np.interp(score, self.scores, self.probabilities))

    def __call__(self, compared: Compared) -> float | None:
        """The probability that an answer kept on ``compared`` is right; ``None`` for a
        comparison the map does not cover (a complex shape's own threshold, another score)."""
        if compared.threshold_name != "answer" or compared.score_name != self.score_name:
            return None
        return self.probability(compared.score)

    def to_json(self) -> dict[str, Any]:
        """The file's object."""
        return {"mode": self.mode, "rank_weight": self.rank_weight, "score_name": self.score_name,
                "scores": list(self.scores), "probabilities": list(self.probabilities), "info": self.info}

    def save(self, path: Path) -> None:
        """Write the map as JSON."""
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def load_probability(path: Path = PROBABILITY_PATH) -> AnswerProbability | None:
    """The map saved at ``path``; ``None`` when there is none.  A file that cannot be
    read as a map raises :class:`ModelLoadError`."""
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return AnswerProbability(tuple(float(x) for x in data["scores"]),
                                 tuple(float(p) for p in data["probabilities"]), str(data["mode"]),
                                 float(data["rank_weight"]), dict(data.get("info", {})))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ModelLoadError(path, f"not an answer probability map: {exc}") from exc


def probability_for(policy: GatePolicy, path: Path = PROBABILITY_PATH) -> AnswerProbability | None:
    """The map at ``path`` when it was fitted for ``policy``; ``None`` when there is none
    or it belongs to another policy (logged: refit with ``kgqa train probability``)."""
    found = load_probability(path)
    if found is not None and not found.fits(policy):
        log.warning("%s was fitted for gate %s (rank weight %s), not %s (%s): no answer probability",
                    path, found.mode, found.rank_weight, policy.mode, policy.rank_weight)
        return None
    return found
