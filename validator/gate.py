"""The gate: keep one candidate whose validator score clears the threshold, or abstain;
and the calibration of that threshold on the ``dev`` split by simulating the pipeline.

Policies (the combination of validator score and backend rank is configurable):

* ``first``: the first candidate in backend order whose score reaches the threshold
  (the paper's filter: drop rejected candidates, keep the ranking);
* ``best``: the highest validator score, if it reaches the threshold;
* ``blend``: among candidates that reach the threshold, the highest
  ``score - rank_weight * log2(1 + rank)`` (rank 0 = the backend's best);
* ``mix``: the threshold applies to ``(1 - w) * score + w * backend_score`` (``w`` =
  ``rank_weight``), and the highest mixed score is kept.

Complex shapes (:data:`COMPLEX_SHAPES`: COUNT, ASK, ORDER BY, FILTER) come from a different
generator whose backend scores are not on the simple ranker's scale; with a
``complex_threshold`` set, such a candidate passes when its *validator* score alone reaches
that threshold (calibrated on complex candidates only).  Which of the passing candidates is
kept is decided as for every other candidate (for ``mix``: the highest blended score, so
among equally plausible verbalizations the backend's order still counts).

Simulation: the pipeline executes the kept candidate and shows its answers; an empty
result or a failing query ends in an abstention.  Per question ATS is +1 for a correct
shown answer, 0 for an abstention and -1 for a wrong one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from qa.gate import Decision, Reading
from qa.turn import Compared
from validator.probability import AnswerModel

POLICIES = ("first", "best", "blend", "mix")

BACKEND_RANK_WEIGHTS: dict[str, float] = {"qanswer": 0.0}
"""The gate's weight on the backend score per backend, where it is not the calibrated one
(``config.json``'s ``rank_weight`` was fitted on the local ranker's scores).  QAnswer's
confidences are on another scale and uncalibrated until measured on its replies: the gate
reads its candidates by the validator score alone (weight 0)."""


def backend_rank_weight(calibrated: float, backend: str) -> float:
    """The gate's weight on ``backend``'s scores: :data:`BACKEND_RANK_WEIGHTS`'s, else the
    calibrated one."""
    return BACKEND_RANK_WEIGHTS.get(backend, calibrated)


@dataclass(frozen=True)
class GatePolicy:
    """How the gate combines validator scores with backend order; ``complex_threshold``
    (optional) gates complex-shape candidates by their validator score alone.  Implements
    the pipeline's :class:`qa.gate.Gate` (``reachable``, ``passes``, ``choose``)."""

    mode: str = "first"
    rank_weight: float = 0.0
    complex_threshold: float | None = None
    judged: int = 0  # the first candidates scored whatever their backend score (0: only reachable ones)

    def __post_init__(self) -> None:
        if self.mode not in POLICIES:
            raise ValueError(f"unknown gate policy {self.mode!r}; expected one of {POLICIES}")

    def choose(self, backend_scores: Sequence[float], validator_scores: Sequence[float],
               threshold: float, complex_mask: Sequence[bool] = ()) -> int | None:
        """Index of the kept candidate, or ``None`` to abstain (``complex_mask[i]``: the
        candidate ``i`` has a complex shape).  The pipeline's gate stage
        (:class:`qa.gate.Gate`)."""
        return choose(self, validator_scores, threshold, backend_scores, complex_mask)

    def __call__(self, backend_scores: Sequence[float], validator_scores: Sequence[float],
                 threshold: float, complex_mask: Sequence[bool] = ()) -> int | None:
        """The same as :meth:`choose`."""
        return self.choose(backend_scores, validator_scores, threshold, complex_mask)

    @property
    def score_name(self) -> str:
        """The name of the score compared with the answer threshold: "blended" for ``mix``,
        else "validator"."""
        return "blended" if self.mode == "mix" else "validator"

    def gated_score(self, validator_score: float, backend_score: float) -> float:
        """The score the threshold applies to: the validator score, or for ``mix`` its
        blend ``(1 - w) * score + w * backend_score`` (backend score clipped to 0..1)."""
        if self.mode != "mix":
            return validator_score
        w = self.rank_weight
        return (1 - w) * validator_score + w * clip_unit(backend_score)

    def compared(self, validator_score: float, backend_score: float, threshold: float, complex_shape: bool = False,
                 *, yes_no: bool = False) -> Compared:
        """What :meth:`passes` compares for one candidate: a complex candidate under a
        ``complex_threshold`` is judged by its validator score against that threshold (named
        "yes/no" for an ASK); otherwise the gated score (a blend for ``mix``) against
        ``threshold``."""
        if complex_shape and self.complex_threshold is not None:
            return Compared(validator_score, self.complex_threshold, "validator", "yes_no" if yes_no else "complex")
        return Compared(self.gated_score(validator_score, backend_score), threshold, self.score_name, "answer")

    def reachable(self, backend_score: float, threshold: float, complex_shape: bool = False) -> bool:
        """Whether a candidate with this backend score could pass the gate at all, i.e.
        with a perfect validator score of 1.0.  Only ``mix`` mixes in the backend score;
        for it, candidates below ``(threshold - (1 - w)) / w`` never pass: when no candidate
        of a list is reachable the pipeline abstains without scoring (exact shortcut).
        A complex candidate under a ``complex_threshold`` is always reachable."""
        if complex_shape and self.complex_threshold is not None:
            return self.complex_threshold <= 1.0
        return self.mode != "mix" or self.gated_score(1.0, backend_score) >= threshold

    def passes(self, backend_scores: Sequence[float], validator_scores: Sequence[float], threshold: float,
               complex_mask: Sequence[bool] = ()) -> list[bool]:
        """Per candidate: whether it clears its threshold (the kept one is chosen among these)."""
        return passing_mask(self, validator_scores, threshold, backend_scores, complex_mask)

    def decide(self, readings: Sequence[Reading], threshold: float) -> Decision:
        """The pipeline's gate stage (:class:`qa.gate.Gate`): each scored reading's comparison
        and the kept index (an unscored reading can never be kept)."""
        backend = [r.backend_score for r in readings]
        values = [-1.0 if r.validator_score is None else r.validator_score for r in readings]
        mask = [r.complex_shape for r in readings]
        compared = tuple(None if r.validator_score is None else
                         self.compared(r.validator_score, r.backend_score, threshold, r.complex_shape,
                                       yes_no=r.shape == "ask") for r in readings)
        return Decision(compared, self.choose(backend, values, threshold, mask))

    def split_mask(self, complex_mask: Sequence[bool], n: int) -> np.ndarray:
        """Which of ``n`` candidates the complex threshold gates (none without one)."""
        mask = np.zeros(n, dtype=bool)
        if self.complex_threshold is not None:
            given = np.asarray(list(complex_mask)[:n], dtype=bool)
            mask[: len(given)] = given
        return mask


def gate(backend_scores: Sequence[float], validator_scores: Sequence[float], threshold: float,
         complex_mask: Sequence[bool] = ()) -> int | None:
    """The default gate (policy ``first``, one threshold for every shape): index of the
    kept candidate, or ``None``.

    Candidates arrive best first; ``first`` uses that order, not the backend scores.
    """
    return choose(GatePolicy(), validator_scores, threshold, backend_scores, complex_mask)


def _blended(policy: GatePolicy, validator_scores: Sequence[float], backend_scores: Sequence[float]) -> list[float]:
    scores = list(validator_scores)
    if policy.mode == "mix":
        backend = list(backend_scores) + [0.0] * (len(scores) - len(backend_scores))
        scores = [policy.gated_score(v, b) for v, b in zip(scores, backend, strict=False)]
    return scores


def passing_mask(policy: GatePolicy, validator_scores: Sequence[float], threshold: float,
                 backend_scores: Sequence[float] = (), complex_mask: Sequence[bool] = ()) -> list[bool]:
    """Per candidate: its gated score reaches ``threshold``, or, for a complex candidate
    under a ``complex_threshold``, its validator score reaches that one."""
    scores = _blended(policy, validator_scores, backend_scores)
    by_shape = policy.split_mask(complex_mask, len(scores))
    return [bool(validator_scores[i] >= policy.complex_threshold) if by_shape[i]  # type: ignore[operator]
            else s >= threshold for i, s in enumerate(scores)]


def choose(policy: GatePolicy, validator_scores: Sequence[float], threshold: float,
           backend_scores: Sequence[float] = (), complex_mask: Sequence[bool] = ()) -> int | None:
    """The index ``policy`` keeps at ``threshold``, or ``None`` (the preference among the
    passing candidates is the same whatever threshold let them pass)."""
    scores = _blended(policy, validator_scores, backend_scores)
    passing = [i for i, ok in enumerate(passing_mask(policy, validator_scores, threshold, backend_scores,
                                                     complex_mask)) if ok]
    if not passing:
        return None
    if policy.mode == "first":
        return passing[0]
    if policy.mode in ("best", "mix"):
        return max(passing, key=lambda i: (scores[i], -i))
    return max(passing, key=lambda i: (scores[i] - policy.rank_weight * math.log2(1 + i), -i))


def clip_unit(value: float) -> float:
    """``value`` clipped into [0, 1]."""
    return min(1.0, max(0.0, float(value)))


@dataclass(frozen=True)
class LearnedGate:
    """The shipped gate: the validator judges the first ``model.judged`` readings, and the
    most probable of them (:class:`validator.probability.AnswerModel`) is kept when its
    probability reaches the model's threshold.  The threshold the pipeline passes in is the
    model's own (``service.factory``); each compared score is that probability.

    ``fallback``: the calibrated score gate (``config.json``) at ``fallback_threshold``; where
    no probability reaches the threshold, a reading that gate keeps is kept (what the gate
    compared for it is recorded): the answers the score gate gave, held to its own
    left-out precision, are never lost to the model's evidence (two readings that agree make
    a small margin)."""

    model: AnswerModel
    fallback: GatePolicy | None = None
    fallback_threshold: float = 1.0

    @property
    def judged(self) -> int:
        """How many of the first candidates are scored."""
        return self.model.judged

    @property
    def threshold(self) -> float:
        """The probability a kept answer must reach (written in the model's asset only)."""
        return self.model.threshold

    def reachable(self, backend_score: float, threshold: float, complex_shape: bool = False) -> bool:
        """Beyond the first :attr:`judged` readings none is scored."""
        return False

    def decide(self, readings: Sequence[Reading], threshold: float) -> Decision:
        """Each scored reading's probability against ``threshold``; the most probable kept
        when it reaches it (ties: the backend's order)."""
        probabilities = self.model.probabilities(readings)
        compared = tuple(None if p is None else
                         Compared(round(p, 6), threshold, "probability", "yes_no" if r.shape == "ask" else "answer")
                         for p, r in zip(probabilities, readings, strict=True))
        best = max((i for i, p in enumerate(probabilities) if p is not None),
                   key=lambda i: (probabilities[i], -i), default=None)
        if best is not None and (probabilities[best] or 0.0) >= threshold:
            return Decision(compared, best)
        if self.fallback is None:
            return Decision(compared, None)
        kept = self.fallback.decide(readings, self.fallback_threshold)
        if kept.chosen is None:
            return Decision(compared, None)
        by_score = kept.compared[kept.chosen]
        chance = probabilities[kept.chosen]
        if by_score is not None and chance is not None:
            by_score = replace(by_score, probability=round(chance, 6))
        return Decision(tuple(by_score if i == kept.chosen else c for i, c in enumerate(compared)), kept.chosen)
