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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

CORRECT, WRONG, ABSTAIN = 1, -1, 0
POLICIES = ("first", "best", "blend", "mix")


COMPLEX_SHAPES = ("count", "ask", "order", "filter")


def shape_of(sparql: str) -> str:
    """The candidate's query shape: ``count``, ``ask``, ``order`` (ORDER BY: superlatives,
    two-entity comparisons), ``filter`` (comparatives) or ``plain``."""
    text = sparql.upper()
    head = text.split("{", 1)[0]
    if "ASK" in head.split():
        return "ask"
    if "COUNT(" in text.replace(" ", ""):
        return "count"
    if "ORDER BY" in text:
        return "order"
    if "FILTER" in text:
        return "filter"
    return "plain"


def is_complex(sparql: str) -> bool:
    """Whether a candidate has one of the :data:`COMPLEX_SHAPES`."""
    return shape_of(sparql) in COMPLEX_SHAPES


@dataclass(frozen=True)
class GatePolicy:
    """How the gate combines validator scores with backend order; ``complex_threshold``
    (optional) gates complex-shape candidates by their validator score alone."""

    mode: str = "first"
    rank_weight: float = 0.0
    complex_threshold: float | None = None

    def __post_init__(self) -> None:
        if self.mode not in POLICIES:
            raise ValueError(f"unknown gate policy {self.mode!r}; expected one of {POLICIES}")

    def __call__(self, backend_scores: Sequence[float], validator_scores: Sequence[float],
                 threshold: float, complex_mask: Sequence[bool] = ()) -> int | None:
        """Index of the kept candidate, or ``None`` to abstain (``complex_mask[i]``: the
        candidate ``i`` has a complex shape)."""
        return choose(self, validator_scores, threshold, backend_scores, complex_mask)

    def gated_score(self, validator_score: float, backend_score: float) -> float:
        """The score the threshold applies to: the validator score, or for ``mix`` its
        blend ``(1 - w) * score + w * backend_score`` (backend score clipped to 0..1)."""
        if self.mode != "mix":
            return validator_score
        w = self.rank_weight
        return (1 - w) * validator_score + w * _clip(backend_score)

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


def _clip(value: float) -> float:
    return min(1.0, max(0.0, float(value)))


@dataclass(frozen=True)
class SimItem:
    """One question for the simulation: validator scores and the outcome of showing
    each candidate (``CORRECT``, ``WRONG`` or ``ABSTAIN`` for an empty/failed result)."""

    scores: tuple[float, ...]
    outcomes: tuple[int, ...]
    answerable: bool = True
    backend: tuple[float, ...] = ()
    complex: tuple[bool, ...] = ()


@dataclass(frozen=True)
class GateReport:
    """What the gate does on a set of questions."""

    ats: float
    answered: int
    correct: int
    wrong: int
    abstained: int
    precision: float
    coverage: float
    abstention_unanswerable: float | None
    n: int

    def to_json(self) -> dict[str, float | int | None]:
        """A JSON-ready dict."""
        return dict(self.__dict__)


def _gated(item: SimItem, policy: GatePolicy) -> tuple[np.ndarray, np.ndarray]:
    """(scores the threshold applies to, preference among passing candidates)."""
    scores = np.asarray(item.scores, dtype=np.float64)
    order = np.arange(len(scores), dtype=np.float64)
    if policy.mode == "mix":
        backend = np.zeros_like(scores)
        given = np.clip(np.asarray(item.backend[: len(scores)], dtype=np.float64), 0.0, 1.0)
        backend[: len(given)] = given
        scores = (1 - policy.rank_weight) * scores + policy.rank_weight * backend
    if policy.mode == "first":
        return scores, -order  # earliest passing wins
    if policy.mode in ("best", "mix"):
        return scores, scores - 1e-9 * order
    return scores, scores - policy.rank_weight * np.log2(1 + order) - 1e-9 * order


def outcomes_by_threshold(items: Sequence[SimItem], policy: GatePolicy, thresholds: np.ndarray) -> np.ndarray:
    """``(len(items), len(thresholds))`` outcome matrix of the gate (the thresholds vary the
    policy's threshold; complex candidates under a ``complex_threshold`` keep theirs)."""
    out = np.zeros((len(items), len(thresholds)), dtype=np.int8)
    for row, item in enumerate(items):
        if not item.scores:
            continue
        scores, preference = _gated(item, policy)
        passing = scores[None, :] >= thresholds[:, None]
        by_shape = policy.split_mask(item.complex, len(scores))
        if by_shape.any():
            assert policy.complex_threshold is not None
            own = np.asarray(item.scores, dtype=np.float64)
            passing[:, by_shape] = (own[by_shape] >= policy.complex_threshold)[None, :]
        eff = np.where(passing, preference[None, :], -np.inf)
        idx = eff.argmax(axis=1)
        chosen = np.asarray(item.outcomes, dtype=np.int8)[idx]
        out[row] = np.where(passing.any(axis=1), chosen, ABSTAIN)
    return out


def report(items: Sequence[SimItem], outcomes: Iterable[int]) -> GateReport:
    """Summarize per-question outcomes."""
    values = list(outcomes)
    n = len(values)
    correct = sum(1 for v in values if v == CORRECT)
    wrong = sum(1 for v in values if v == WRONG)
    answered = correct + wrong
    unanswerable = [v for it, v in zip(items, values, strict=True) if not it.answerable]
    return GateReport(
        ats=(correct - wrong) / n if n else 0.0, answered=answered, correct=correct, wrong=wrong,
        abstained=n - answered, precision=correct / answered if answered else 0.0,
        coverage=answered / n if n else 0.0,
        abstention_unanswerable=(sum(1 for v in unanswerable if v != CORRECT and v != WRONG) / len(unanswerable)
                                 if unanswerable else None),
        n=n)


def simulate(items: Sequence[SimItem], policy: GatePolicy, threshold: float) -> GateReport:
    """The gate's report at one threshold."""
    matrix = outcomes_by_threshold(items, policy, np.asarray([threshold], dtype=np.float64))
    return report(items, matrix[:, 0].tolist())


def baseline(items: Sequence[SimItem]) -> GateReport:
    """No validator: the backend's top candidate is always shown."""
    return report(items, [it.outcomes[0] if it.outcomes else ABSTAIN for it in items])


@dataclass(frozen=True)
class Calibration:
    """The chosen policy and threshold, and the dev ATS they reach."""

    policy: GatePolicy
    threshold: float
    ats: float


def threshold_grid(items: Sequence[SimItem], size: int = 400, top: int = 2000) -> np.ndarray:
    """Candidate thresholds: a 0..1 grid, a fine grid towards 1, quantiles of the
    observed scores and every one of the ``top`` highest scores (where gates live)."""
    scores = np.asarray([s for it in items for s in it.scores], dtype=np.float64)
    grid = np.concatenate([np.linspace(0.0, 1.0, 201), 1.0 - np.logspace(-1, -5, 120)])
    if scores.size:
        grid = np.concatenate([grid, np.quantile(scores, np.linspace(0.0, 1.0, size)),
                               np.sort(scores)[-top:]])
    return np.unique(np.clip(grid, 0.0, 1.0))


def calibrate(items: Sequence[SimItem], policies: Sequence[GatePolicy] | None = None,
              thresholds: np.ndarray | None = None, smooth: int = 2, *, min_precision: float | None = None,
              min_answered: int = 10) -> Calibration:
    """The (policy, threshold) maximising ATS on ``items``.

    ATS per threshold is averaged over ``smooth`` neighbours on each side before taking
    the maximum, so a lone spike does not win over a stable plateau.  With
    ``min_precision``, only settings whose shown answers reach that precision (on at
    least ``min_answered`` answers) compete; when none does, plain ATS decides.
    """
    if not items:
        raise ValueError("cannot calibrate on zero questions")
    policies = list(policies or default_policies())
    grid = threshold_grid(items) if thresholds is None else np.asarray(thresholds, dtype=np.float64)
    best: Calibration | None = None
    fallback: Calibration | None = None
    for policy in policies:
        outcomes = outcomes_by_threshold(items, policy, grid)
        ats = outcomes.mean(axis=0, dtype=np.float64)
        kernel = np.ones(2 * smooth + 1) / (2 * smooth + 1)
        smoothed = np.convolve(np.pad(ats, smooth, mode="edge"), kernel, mode="valid") if smooth else ats
        i = int(smoothed.argmax())
        if fallback is None or ats[i] > fallback.ats + 1e-12:
            fallback = Calibration(policy, float(grid[i]), float(ats[i]))
        if min_precision is None:
            continue
        correct = (outcomes == CORRECT).sum(axis=0)
        answered = correct + (outcomes == WRONG).sum(axis=0)
        ok = (answered >= min_answered) & (correct >= min_precision * np.maximum(answered, 1))
        if ok.any():
            j = int(np.where(ok, smoothed, -np.inf).argmax())
            if best is None or ats[j] > best.ats + 1e-12:
                best = Calibration(policy, float(grid[j]), float(ats[j]))
    result = best or fallback
    assert result is not None
    return result


def default_policies() -> list[GatePolicy]:
    """The policies calibration tries."""
    return [GatePolicy("first"), GatePolicy("best"),
            *(GatePolicy("blend", w) for w in (0.02, 0.05, 0.1, 0.2)),
            *(GatePolicy("mix", w) for w in (0.1, 0.25, 0.4, 0.55))]
