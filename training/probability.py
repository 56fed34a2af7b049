"""Fit the map from the gate's compared score to the chance that a shown answer is right
(:mod:`validator.probability`)::

    nice kgqa train --only records   # the records (if not collected yet)
    kgqa train probability            # assets/validator/probability.json

Data: the answer-confidence records (:mod:`training.records`): every bench string run
through the real backend with its first candidates scored by the shipped cross-encoder and
labelled right or wrong by executing them.  For each string, the candidate the shipped
gate keeps (at any threshold) and its compared score; strings whose kept candidate comes
back empty are left out (the pipeline abstains on them).

Fit: isotonic regression of right/wrong on the score over the ``dev`` strings of every
benchmark source (the cross-encoder never trained on them); each step is then shrunk
towards one half by its number of strings (``(right + 1) / (n + 2)``) and made monotone
again, so a step seen on a handful of strings never says 0 % or 100 %.

Transfer, reported and saved with the map: for each source in turn, the map is fitted on
the *other* sources' ``dev`` strings and read on the left-out source's unseen (``dev`` and
``test``) strings: Brier score, and among the answers the shipped threshold shows, the mean
probability said against the share actually right.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.isotonic import IsotonicRegression

from core.settings import load_settings
from training.records import (
    SYNTHETIC,
    Record,
    bench_dev,
    gate_inputs,
    read_records,
    records_path,
    training_records,
    unseen,
)
from validator.gate import GatePolicy
from validator.model import read_config
from validator.probability import PROBABILITY_FILE, AnswerProbability

MIN_STRINGS = 20
"""Fewest kept answers a map is fitted on."""


@dataclass(frozen=True)
class Kept:
    """The candidate the gate keeps for one string: its compared score and whether its
    answers are right."""

    score: float
    right: bool


def kept(record: Record, policy: GatePolicy) -> Kept | None:
    """What ``policy`` keeps for ``record`` with no threshold, when it is compared with
    the answer threshold and returns answers; ``None`` otherwise (no candidate, a complex
    shape under its own threshold, an empty result)."""
    if not record.rows:
        return None
    validator, backend, complex_mask = gate_inputs(record)
    index = policy.choose(backend, validator, -np.inf, complex_mask)
    if index is None or record.n_answers[index] == 0 or policy.split_mask(complex_mask, len(validator))[index]:
        return None
    compared = policy.compared(validator[index], backend[index], 0.0)
    return Kept(compared.score, bool(record.correct[index]))


def fit(items: Sequence[Kept], policy: GatePolicy, info: dict[str, Any] | None = None) -> AnswerProbability:
    """The shrunk isotonic map of ``items`` (see the module docstring)."""
    if len(items) < MIN_STRINGS:
        raise ValueError(f"{len(items)} kept answers are too few to fit a probability map (at least {MIN_STRINGS})")
    scores = np.asarray([k.score for k in items], dtype=np.float64)
    right = np.asarray([k.right for k in items], dtype=np.float64)
    steps = IsotonicRegression(y_min=0.0, y_max=1.0, out_of_bounds="clip").fit(scores, right).predict(scores)
    lows, highs, shrunk, sizes = [], [], [], []
    for value in np.unique(steps):
        members = steps == value
        n, k = int(members.sum()), float(right[members].sum())
        lows.append(scores[members].min())
        highs.append(scores[members].max())
        shrunk.append((k + 1.0) / (n + 2.0))
        sizes.append(n)
    order = np.argsort(lows)
    centres = (np.asarray(lows) + np.asarray(highs))[order] / 2
    monotone = IsotonicRegression().fit(centres, np.asarray(shrunk)[order],
                                        sample_weight=np.asarray(sizes)[order]).predict(centres)
    xs: list[float] = []
    ps: list[float] = []
    for j, i in enumerate(order):
        for x in (lows[i], highs[i]):
            if not xs or x > xs[-1]:
                xs.append(round(float(x), 6))
                ps.append(round(float(monotone[j]), 6))
    return AnswerProbability(tuple(xs), tuple(ps), policy.mode, policy.rank_weight, dict(info or {}))


def transfer(items: Sequence[Kept], probability: AnswerProbability, threshold: float) -> dict[str, Any]:
    """How the map reads on ``items``: Brier score, and among those shown at ``threshold``
    the mean probability said against the share right."""
    said = np.asarray([probability.probability(k.score) for k in items])
    right = np.asarray([k.right for k in items], dtype=np.float64)
    shown = np.asarray([k.score >= threshold for k in items])
    return {"n": len(items), "brier": round(float(np.mean((said - right) ** 2)), 4) if len(items) else None,
            "shown": int(shown.sum()),
            "said_when_shown": round(float(said[shown].mean()), 3) if shown.any() else None,
            "right_when_shown": round(float(right[shown].mean()), 3) if shown.any() else None}


def kept_items(records: Sequence[Record], policy: GatePolicy) -> list[Kept]:
    """What ``policy`` keeps for each of ``records`` (those where it keeps something)."""
    return [k for r in records if (k := kept(r, policy)) is not None]


def left_out(records: Sequence[Record], policy: GatePolicy, threshold: float) -> dict[str, dict[str, Any]]:
    """Per bench source: the map fitted on the other sources' ``dev`` strings
    (:func:`training.records.bench_dev`), read on this source's strings the
    cross-encoder never saw (:func:`training.records.unseen`)."""
    figures: dict[str, dict[str, Any]] = {}
    for source in sorted({r.source for r in records} - {SYNTHETIC}):
        others, mine = kept_items(bench_dev(records, source), policy), kept_items(unseen(records, source), policy)
        if len(others) >= MIN_STRINGS and mine:
            figures[source] = transfer(mine, fit(others, policy), threshold)
    return figures


def build(records: Sequence[Record], policy: GatePolicy, threshold: float) -> AnswerProbability:
    """The shipped map: fitted on every bench source's ``dev`` strings, with the left-out
    figures and the ``test`` figures in its ``info``."""
    dev = kept_items(bench_dev(records), policy)
    info: dict[str, Any] = {"score_name": policy.score_name, "fitted_on": f"{len(dev)} dev strings",
                            "threshold": threshold}
    probability = fit(dev, policy, info)
    test = [r for r in records if r.split == "test" and r.source != SYNTHETIC]
    info["test"] = transfer(kept_items(test, policy), probability, threshold)
    info["left_out"] = left_out(records, policy, threshold)
    return AnswerProbability(probability.scores, probability.probabilities, policy.mode, policy.rank_weight, info)


def main(argv: Sequence[str] | None = None) -> int:
    """Fit and save the map for the shipped gate."""
    parser = argparse.ArgumentParser(prog="kgqa train probability")
    parser.add_argument("--records", type=Path, default=None,
                        help="answer-confidence records (default: the cache's, from kgqa train --only records)")
    parser.add_argument("--out", type=Path, default=None, help="default: <validator dir>/probability.json")
    args = parser.parse_args(argv)
    settings = load_settings(os.environ)
    path = args.records or records_path(settings)
    records = training_records(read_records(path))
    if not records:
        print(f"no records at {path}: run kgqa train --only records first", file=sys.stderr)
        return 1
    config = read_config(settings.validator_dir)
    policy = GatePolicy(config.gate, config.rank_weight, config.complex_threshold)
    probability = build(records, policy, config.threshold)
    out = args.out or settings.validator_dir / PROBABILITY_FILE
    probability.save(out)
    print(f"wrote {out}: {len(probability.scores)} points, test {probability.info['test']}")
    for source, figures in probability.info["left_out"].items():
        print(f"  left out {source}: {figures}")
    return 0

