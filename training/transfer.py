"""Choose the gate's policy by leaving one source out, so that it transfers to sources it
has not seen (issue 13)::

    nice kgqa train --only records   # the records, scored by the shipped validator
    kgqa train gate --write          # assets/validator/config.json: rank_weight, threshold
    kgqa train probability           # the probability map of the policy shipped

Data: the answer-confidence records (:mod:`training.records`), every bench string run
through the real backend with the language detected as the chat detects it, its first
candidates scored by the shipped cross-encoder as the pipeline scores them and labelled
by executing them.  ``kgqa train validator`` calibrates the gate on its own candidate
records when it trains; this step, run once the pipeline's records exist, picks the policy
that ships.

Rule: for each candidate policy (the ``mix`` blend at a rank weight, :data:`WEIGHTS`) and
precision floor (:data:`FLOORS`), each bench source is left out in turn.  Its threshold is
the lowest at which the *other* sources' ``dev`` strings reach the floor (with at least
:data:`MIN_SHOWN` shown), and the policy is measured on the left-out source's strings the
cross-encoder never saw (``dev`` and ``test``).  Among the pairs whose worst left-out
precision (over sources with at least :data:`MIN_SHOWN` shown) reaches
:data:`TARGET_PRECISION`, the one with the most left-out right answers net of wrong ones
(the numerator of ATS) ships, ties to the higher worst precision; its threshold is the
one the same floor gives on every source's ``dev`` strings.  The complex threshold
(complex shapes, by their validator score alone) stays as the build calibrated it.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from core.settings import load_settings
from training.calibrate import ABSTAIN, CORRECT, WRONG, SimItem, outcomes_by_threshold
from training.records import (
    SYNTHETIC,
    TARGET_PRECISION,
    Record,
    bench_dev,
    gate_inputs,
    read_records,
    records_path,
    unseen,
)
from validator.config import read_config, write_config
from validator.gate import GatePolicy

WEIGHTS = tuple(round(w, 2) for w in np.arange(0.0, 0.501, 0.05))
FLOORS = tuple(round(f, 2) for f in np.arange(0.90, 0.991, 0.01))
GRID = np.round(np.arange(0.5, 0.9951, 0.005), 3)
MIN_SHOWN = 10


def sim_item(record: Record) -> SimItem:
    """A record as the gate simulation reads it: a candidate whose result is empty is an
    abstention (the pipeline shows nothing), a non-empty wrong one a wrong answer."""
    scores, backend, complex_mask = gate_inputs(record)
    outcomes = tuple(CORRECT if ok else (WRONG if n > 0 else ABSTAIN)
                     for ok, n in zip(record.correct, record.n_answers, strict=False))
    return SimItem(tuple(scores), outcomes, record.answerable, tuple(backend), tuple(complex_mask))


@dataclass(frozen=True)
class Shown:
    """Right and wrong answers shown on a set of strings."""

    right: int
    wrong: int

    @property
    def shown(self) -> int:
        """Answers shown."""
        return self.right + self.wrong

    @property
    def precision(self) -> float:
        """Right among shown (1.0 when nothing is shown)."""
        return self.right / self.shown if self.shown else 1.0


def counts(items: Sequence[SimItem], policy: GatePolicy, thresholds: np.ndarray = GRID) -> list[Shown]:
    """Per threshold (of :data:`GRID` unless given): what ``policy`` shows on ``items``."""
    matrix = outcomes_by_threshold(items, policy, thresholds)
    right, wrong = (matrix == CORRECT).sum(axis=0), (matrix == WRONG).sum(axis=0)
    return [Shown(int(r), int(w)) for r, w in zip(right, wrong, strict=True)]


def lowest(counts: Sequence[Shown], floor: float) -> float:
    """The lowest threshold of :data:`GRID` at which at least :data:`MIN_SHOWN` answers are
    shown with precision ``floor`` (1.0: none; the gate never answers)."""
    ok = [float(t) for t, c in zip(GRID, counts, strict=True) if c.shown >= MIN_SHOWN and c.precision >= floor]
    return min(ok, default=1.0)


@dataclass(frozen=True)
class Choice:
    """One (rank weight, floor) pair: per left-out source its threshold and what it shows,
    and the threshold on every source's ``dev`` strings."""

    weight: float
    floor: float
    left_out: dict[str, tuple[float, Shown]]
    threshold: float

    @property
    def worst(self) -> float:
        """The worst left-out precision over sources with at least :data:`MIN_SHOWN` shown."""
        return min((s.precision for _, s in self.left_out.values() if s.shown >= MIN_SHOWN), default=1.0)

    @property
    def net(self) -> int:
        """Left-out right answers minus wrong ones, summed over the sources."""
        return sum(s.right - s.wrong for _, s in self.left_out.values())

    def to_json(self) -> dict[str, Any]:
        """What ships with the config (``extra.transfer``): the floor, the worst left-out
        precision and each left-out source's threshold, right and wrong answers."""
        return {"floor": self.floor, "worst_left_out": round(self.worst, 4), "net_left_out": self.net,
                "left_out": {src: {"threshold": t, "right": s.right, "wrong": s.wrong}
                             for src, (t, s) in self.left_out.items()}}

    def line(self) -> str:
        """One row of the printed table."""
        parts = " ".join(f"{src} {t:.3f}: {s.right}/{s.shown}" for src, (t, s) in self.left_out.items())
        return (f"w {self.weight:.2f} floor {self.floor:.2f}  worst {self.worst:.3f}  net {self.net:4d}  "
                f"threshold {self.threshold:.3f} | {parts}")


def sweep(records: Sequence[Record], complex_threshold: float | None, weights: Sequence[float] = WEIGHTS,
          floors: Sequence[float] = FLOORS) -> list[Choice]:
    """Every (weight, floor) pair with each source left out (see the module's rule)."""
    sources = sorted({r.source for r in records if r.source != SYNTHETIC})

    def items(rs: Sequence[Record]) -> list[SimItem]:
        return [sim_item(r) for r in rs]

    others = {src: items(bench_dev(records, src)) for src in sources}
    left_out = {src: items(unseen(records, src)) for src in sources}
    every = items(bench_dev(records))
    out = []
    for weight in weights:
        policy = GatePolicy("mix", float(weight), complex_threshold)
        calibrating = {src: counts(others[src], policy) for src in sources}
        measured = {src: counts(left_out[src], policy) for src in sources}
        everywhere = counts(every, policy)
        for floor in floors:
            left = {}
            for src in sources:
                t = lowest(calibrating[src], floor)
                left[src] = (t, measured[src][int(np.searchsorted(GRID, t))] if t < 1.0 else Shown(0, 0))
            out.append(Choice(float(weight), float(floor), left, lowest(everywhere, floor)))
    return out


def choose(choices: Sequence[Choice], target: float = TARGET_PRECISION) -> Choice | None:
    """The pair that ships: worst left-out precision at ``target`` or above, then the most
    net left-out right answers, then the higher worst precision (``None``: no pair)."""
    ok = [c for c in choices if c.worst >= target and c.threshold < 1.0]
    return max(ok, key=lambda c: (c.net, c.worst, -c.weight), default=None)


def best_right(items: Sequence[SimItem], complex_threshold: float | None, weights: Sequence[float] = WEIGHTS,
               target: float = TARGET_PRECISION) -> tuple[Shown, float, float]:
    """The ceiling of the ``mix`` family on ``items``: the most right answers any rank weight
    of ``weights`` and threshold of :data:`GRID` shows at precision ``target`` or above, both
    chosen *knowing which answers are right* (an oracle, not a policy that could ship).
    Returns what it shows (ties to the fewer wrong), its weight and threshold (``Shown(0, 0)``
    when nothing qualifies)."""
    best = (Shown(0, 0), 0.0, 1.0)
    for weight in weights:
        for t, c in zip(GRID, counts(items, GatePolicy("mix", float(weight), complex_threshold)), strict=True):
            if c.shown and c.precision >= target and (c.right, -c.wrong) > (best[0].right, -best[0].wrong):
                best = (c, float(weight), float(t))
    return best


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="kgqa train gate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="write the chosen rank weight and threshold into "
                                                             "the validator's config.json")
    parser.add_argument("--all", action="store_true", help="print every pair, not only those that qualify")
    args = parser.parse_args(argv)
    settings = load_settings(os.environ)
    records = read_records(records_path(settings))
    if not records:
        print("no records: run  nice kgqa train --only records")
        return 1
    config = read_config(settings.validator_dir)
    choices = sweep(records, config.complex_threshold)
    for c in choices:
        if args.all or c.worst >= TARGET_PRECISION:
            print(c.line())
    print(f"shipped now: {config.gate} w {config.rank_weight} threshold {config.threshold}")
    best = choose(choices)
    if best is None:
        print(f"no pair reaches a worst left-out precision of {TARGET_PRECISION}")
        return 1
    print(f"chosen: {best.line()}")
    if args.write:
        extra = {**(config.extra or {}), "transfer": best.to_json()}
        write_config(replace(config, gate="mix", rank_weight=best.weight, threshold=best.threshold, extra=extra),
                     settings.validator_dir)
        print(f"wrote {settings.validator_dir / 'config.json'}")
    return 0

