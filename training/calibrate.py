"""Gate calibration: simulate the pipeline on dev candidates and choose the policy and
threshold (see :mod:`validator.gate` for the policies)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from validator.gate import GatePolicy

CORRECT, WRONG, ABSTAIN = 1, -1, 0


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
