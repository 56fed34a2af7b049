"""Does the shipped gate transfer?  Its figures per split, source and language, from the
records ``kgqa train --only records`` wrote (every bench string through the real backend,
its first candidates executed, typed and scored).

Printed, per language (the language of the bench string):

* precision of shown answers (target >= 0.92),
* correct on answerable strings (targets: >= 50 % en, >= 40 % ru),
* abstention on unanswerable strings (target >= 95 %);

for the held-out ``test`` split, and with each source left out (its threshold the lowest at
which the other sources' ``dev`` strings reach the floor; figures on the left-out source's
``dev`` and ``test`` strings: the cross-encoder was trained on every source's ``train``
questions, and its scores of those are overfitted).  ``--written`` runs the real pipeline
on the written test sets in ``tests/data`` instead.  ``--ceiling`` asks whether the recall
targets are reachable at all: per group, the most right answers any rank weight and
threshold of the blend shows at precision 0.92, both chosen knowing which answers are right.

    .venv/bin/python benchmarks/gate_transfer.py
    .venv/bin/python benchmarks/gate_transfer.py --written
    .venv/bin/python benchmarks/gate_transfer.py --latency 200   # per-question pipeline latency
    .venv/bin/python benchmarks/gate_transfer.py --ceiling       # could any threshold meet the targets?
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from core.settings import load_settings
from training.records import Record, gate_inputs, read_records, records_path, training_records, unseen
from training.transfer import MIN_SHOWN, best_right, counts, sim_item, sweep
from validator.gate import GatePolicy
from validator.model import read_config

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
WRITTEN = DATA / "written_simple.json"
NAMESAKES = DATA / "namesakes.json"


@dataclass(frozen=True)
class Outcome:
    """One question under the gate: 1.0 when it shows an answer (0.0 when it abstains), and whether that is right."""

    probability: float
    correct: bool
    answerable: bool
    lang: str
    source: str


@dataclass(frozen=True)
class Figures:
    """What a threshold does on a set of questions."""

    n: int
    shown: int
    correct: int
    answerable: int
    unanswerable: int
    abstained_unanswerable: int

    @property
    def precision(self) -> float:
        """Correct among shown (1.0 when nothing is shown)."""
        return self.correct / self.shown if self.shown else 1.0

    @property
    def recall(self) -> float:
        """Correct among answerable strings."""
        return self.correct / self.answerable if self.answerable else 0.0

    @property
    def abstention(self) -> float:
        """Abstention on unanswerable strings."""
        return self.abstained_unanswerable / self.unanswerable if self.unanswerable else 1.0

    def line(self) -> str:
        """One printable line."""
        return (f"n={self.n:5d}  shown={self.shown:5d}  wrong={self.shown - self.correct:4d}  "
                f"precision={self.precision:.3f}  correct/answerable={self.correct}/{self.answerable}"
                f" = {self.recall:.1%}  abstention(unanswerable)={self.abstention:.1%} (n={self.unanswerable})")


def figures(items: Sequence[Outcome], threshold: float) -> Figures:
    """Shown answers, precision, correct on answerable and abstention at ``threshold``."""
    shown = [o.correct if o.probability >= threshold else None for o in items]
    return Figures(len(items), sum(x is not None for x in shown), sum(bool(x) for x in shown),
                   sum(o.answerable for o in items), sum(not o.answerable for o in items),
                   sum(1 for o, x in zip(items, shown, strict=True) if not o.answerable and x is None))


def per_language(items: Sequence[Outcome], threshold: float) -> dict[str, Figures]:
    """Figures per language, plus ``all``."""
    langs: dict[str, list[Outcome]] = defaultdict(list)
    for o in items:
        langs[o.lang].append(o)
    out = {lang: figures(group, threshold) for lang, group in sorted(langs.items())}
    out["all"] = figures(items, threshold)
    return out


def old_gate(records: Sequence[Record], threshold: float | None = None) -> list[Outcome]:
    """The shipped gate (validator ``mix`` blend with the backend score, its calibrated
    threshold or ``threshold``; complex shapes by the validator score alone) over the same
    first candidates: shown answers have probability 1, abstentions 0."""
    config = read_config(load_settings(os.environ).validator_dir)
    policy = GatePolicy(config.gate, config.rank_weight, config.complex_threshold)
    at = config.threshold if threshold is None else threshold
    out = []
    for r in records:
        scores, backend, complex_mask = gate_inputs(r)
        chosen = policy(backend, scores, at, complex_mask) if r.rows else None
        shown = chosen is not None and r.n_answers[chosen] > 0
        out.append(Outcome(1.0 if shown else 0.0, bool(shown and r.correct[chosen]), r.answerable, r.lang, r.source))
    return out


GATE_FLOOR = 0.95  # the calibration sources' dev precision when the config does not say (training.transfer)
TARGET = 0.92  # the precision each left-out source must reach


def shipped_floor() -> float:
    """The floor :mod:`training.transfer` chose the shipped gate at (``config.extra``), else
    :data:`GATE_FLOOR`."""
    extra = read_config(load_settings(os.environ).validator_dir).extra or {}
    return float(extra.get("transfer", {}).get("floor", GATE_FLOOR))


def gate_left_out(records: Sequence[Record], floor: float = GATE_FLOOR) -> float:
    """The shipped gate (the validator's ``mix`` blend) with each bench source left out, as
    :mod:`training.transfer` measures it: its threshold the lowest at which the other
    sources' ``dev`` strings reach ``floor`` with at least ``MIN_SHOWN`` shown, measured on
    the left-out source's strings the cross-encoder never saw (:func:`unseen`), per
    language.  Returns the worst left-out precision (sources with at least ``MIN_SHOWN``
    shown)."""
    config = read_config(load_settings(os.environ).validator_dir)
    choice = sweep(records, config.complex_threshold, weights=(config.rank_weight,), floors=(floor,))[0]
    for source, (threshold, _) in choice.left_out.items():
        table = per_language(old_gate(unseen(records, source), threshold), 0.5)
        print_table(f"LEFT OUT {source}, shipped gate (threshold {threshold:.3f}: the others' dev reach "
                    f"{floor}; its dev and test strings)", table)
    print(f"the rule on every source's dev: threshold {choice.threshold:.3f}")
    verdict = "met" if choice.worst >= TARGET else "not met"
    print(f"worst left-out precision of the shipped gate (>= {MIN_SHOWN} shown): {choice.worst:.3f} "
          f"(target {TARGET}: {verdict})")
    return choice.worst


def print_table(title: str, table: dict[str, Figures]) -> None:
    print(title)
    for lang, fig in table.items():
        print(f"  {lang:4s} {fig.line()}")


def bench(args: argparse.Namespace) -> int:
    settings = load_settings(os.environ)
    records = training_records(read_records(records_path(settings)))
    if not records:
        print("no records: run  nice kgqa train --only records")
        return 1
    test = [r for r in records if r.source != "synthetic" and r.split == "test"]
    print(f"{len(records)} records, {len(test)} test strings")
    print_table("TEST split, shipped gate (validator mix gate, first candidates)", per_language(old_gate(test), 0.5))
    gate_left_out(records, args.gate_floor if args.gate_floor is not None else shipped_floor())
    return 0


def written(args: argparse.Namespace) -> int:
    from service.factory import build_pipeline

    settings = load_settings(os.environ)
    pipeline = build_pipeline(settings)
    for path, namesake in ((WRITTEN, False), (NAMESAKES, True)):
        rows = json.loads(path.read_text(encoding="utf-8"))
        tally: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        times = []
        for row in rows:
            t0 = time.perf_counter()
            turn = pipeline.answer(row["question"])
            times.append((time.perf_counter() - t0) * 1000)
            got = {a.id for a in turn.answers if a.id}
            if not turn.answered:
                verdict = "right" if namesake else "abstain"
            elif namesake:
                verdict = "wrong"
            else:
                verdict = "right" if got == set(row["expected"]) else "wrong"
            for key in (row["lang"], "all"):
                tally[key][verdict] += 1
            if args.verbose or verdict == "wrong":
                print(f"  {verdict:7s} [{row['lang']}] {row['question']} -> {sorted(got)} "
                      f"(confidence {turn.confidence})")
        print(f"{path.name}: " + "  ".join(
            f"{lang} {t['right']}/{sum(t.values())} right, {t['wrong']} wrong" for lang, t in sorted(tally.items())))
        print(f"  latency p50 {statistics.median(times):.0f} ms, max {max(times):.0f} ms")
    return 0


CEILING_WEIGHTS = tuple(round(w, 2) for w in np.arange(0.0, 1.0001, 0.05))
TARGET_RECALL = {"en": 0.50, "ru": 0.40}  # right on answerable strings


def ceiling(args: argparse.Namespace) -> int:
    """Could the gate's family meet the recall targets at all?  Per group (the ``test`` split
    per language; each source's strings the cross-encoder never saw, per language): what the
    shipped gate shows, and the most right answers any rank weight (0 to 1) and threshold
    shows at precision 0.92 or above, both chosen knowing which answers are right (an
    oracle: :func:`training.transfer.best_right`).  Where even these fall short of the
    target, no threshold or weight of the gate can meet it on those strings."""
    settings = load_settings(os.environ)
    real = [r for r in read_records(records_path(settings))
            if r.source != "synthetic"]
    if not real:
        print("no records: run  nice kgqa train --only records")
        return 1
    config = read_config(settings.validator_dir)
    policy = GatePolicy(config.gate, config.rank_weight, config.complex_threshold)
    groups = {f"test split, {lang}": [r for r in real if r.split == "test" and r.lang == lang]
              for lang in TARGET_RECALL}
    for source in sorted({r.source for r in real}):
        for lang in TARGET_RECALL:
            strings = [r for r in unseen(real, source) if r.lang == lang]
            if any(r.answerable for r in strings):
                groups[f"{source} unseen, {lang}"] = strings
    print(f"shipped gate: {config.gate} w {config.rank_weight} threshold {config.threshold}; "
          f"best: any w in 0-1 and threshold at precision >= {TARGET}, chosen on the strings' own labels")
    for name, strings in groups.items():
        items = [sim_item(r) for r in strings]
        answerable = sum(r.answerable for r in strings)
        shipped = counts(items, policy, np.asarray([config.threshold]))[0]
        best, weight, threshold = best_right(items, config.complex_threshold, CEILING_WEIGHTS, TARGET)
        target = TARGET_RECALL[name.rsplit(" ", 1)[-1]]
        verdict = "reachable" if best.right >= target * answerable else "out of reach"
        print(f"  {name:22s} answerable {answerable:4d} | shipped {shipped.right:3d} right, {shipped.wrong:2d} wrong "
              f"({shipped.right / answerable:6.1%}) | best blend {best.right:3d} right, {best.wrong:2d} wrong "
              f"({best.right / answerable:6.1%}; w {weight:.2f}, threshold {threshold:.3f}) | "
              f"target {target:.0%}: {verdict}")
    return 0


def latency(args: argparse.Namespace) -> int:
    """Per-question pipeline latency on random bench strings (one torch thread)."""
    import random

    import torch

    from evaluation.formats import load_datasets
    from evaluation.harness import select_items
    from service.factory import build_pipeline
    from training.build import bench_paths

    torch.set_num_threads(1)
    pipeline = build_pipeline(load_settings(os.environ))
    items = select_items(load_datasets(bench_paths()), lang="all")
    random.Random(7).shuffle(items)
    stages: dict[str, list[float]] = defaultdict(list)
    for item in items[: args.latency]:
        turn = pipeline.answer(item.text)
        for stage, ms in turn.timings_ms.items():
            stages[stage].append(ms)
    for stage, values in sorted(stages.items()):
        values.sort()
        p95 = values[min(len(values) - 1, int(0.95 * len(values)))]
        print(f"{stage:12s} n={len(values):4d}  p50 {statistics.median(values):7.1f} ms  p95 {p95:7.1f} ms  "
              f"mean {statistics.fmean(values):7.1f} ms")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gate-floor", type=float, default=None, help="the precision the calibration "
                        "sources' dev strings must reach when a source is left out (default: the floor "
                        f"training.transfer chose, else {GATE_FLOOR})")
    parser.add_argument("--written", action="store_true", help="the written test sets through the pipeline")
    parser.add_argument("--latency", type=int, default=0, help="time the pipeline on N random bench strings")
    parser.add_argument("--ceiling", action="store_true", help="the most right answers any weight and threshold "
                        "of the gate could show at the precision target, per group (an oracle)")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    if args.ceiling:
        return ceiling(args)
    if args.latency:
        return latency(args)
    return written(args) if args.written else bench(args)


if __name__ == "__main__":
    sys.exit(main())
