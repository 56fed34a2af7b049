"""The validator at run time (its ONNX export, ONNX Runtime) against the torch network it
was exported from, on the test split's strings.

Every question string of the shared bench files in the ``test`` split
(:func:`evaluation.splits.split_of`; every language) is answered twice by the real
pipeline, over one KG and one backend: once with the ONNX scorer (what ships), once with
the torch network.  Prints:

* scores: max and p99 |ONNX - torch| over every (question, verbalization) pair the
  pipeline scored, and over every verbalized candidate of every string (``--candidates``
  per string at most, scored directly by both; target: within 0.01);
* decisions: the share of strings whose turn is the same both ways (answered or not, the
  same kept query, the same answers; target >= 99.5 %), and the strings that differ;
* timing: the mean time of one scoring call each way (the pipeline's ``score`` stage).

Usage: ``.venv/bin/python benchmarks/validator_onnx.py [--limit N] [--threads 1]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.settings import load_settings
from evaluation.formats import load_datasets
from evaluation.harness import select_items
from evaluation.metrics import percentile
from training.build import bench_paths


class Recording:
    """A scorer that remembers every pair and score it gave, and its time."""

    def __init__(self, scorer: object) -> None:
        self.scorer = scorer
        self.scores: dict[tuple[str, str], float] = {}
        self.seconds: list[float] = []

    def predict(self, pairs: list[tuple[str, str]]) -> list[float]:
        started = time.perf_counter()
        out = self.scorer.predict(pairs)
        self.seconds.append(time.perf_counter() - started)
        self.scores.update(zip(pairs, out, strict=True))
        return out


def decision(turn: object) -> tuple:
    """What a user sees of a turn: answered or not, the query kept, the answers."""
    return (turn.status, turn.answered, turn.sparql, tuple(sorted(a.value for a in turn.answers)), turn.boolean)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, default=0, help="at most N strings (0: all)")
    parser.add_argument("--threads", type=int, default=1, help="threads of each forward pass")
    parser.add_argument("--candidates", type=int, default=30, help="verbalized candidates per string scored directly")
    args = parser.parse_args(argv)

    import torch

    from qa.pipeline import Validation
    from service.factory import build_pipeline, make_backend, open_kg
    from validator.inference import set_threads
    from validator.runtime import load_torch_encoder

    torch.set_num_threads(args.threads)
    set_threads(args.threads)
    settings = load_settings(os.environ)
    kg = open_kg(settings)
    backend = make_backend(settings, kg)
    onnx_pipeline = build_pipeline(settings, kg=kg, backend=backend, require_validator=True)
    torch_pipeline = build_pipeline(settings, kg=kg, backend=backend, require_validator=True)
    reference, config = load_torch_encoder(settings.validator_dir, settings.model_dir)
    onnx_scorer = Recording(onnx_pipeline.validation.scorer)
    torch_scorer = Recording(reference)
    onnx_pipeline.validation = Validation(onnx_pipeline.validation.verbalizer, onnx_scorer,
                                          onnx_pipeline.validation.gate, onnx_pipeline.validation.probability)
    torch_pipeline.validation = Validation(torch_pipeline.validation.verbalizer, torch_scorer,
                                           torch_pipeline.validation.gate, torch_pipeline.validation.probability)
    items = select_items(load_datasets(bench_paths()), lang="all", split="test")
    strings = list(dict.fromkeys(item.text for item in items))
    if args.limit:
        strings = strings[:args.limit]
    differ = []
    direct: list[float] = []
    direct_crossed = 0
    for done, text in enumerate(strings, start=1):
        if done % 100 == 0:
            print(f"... {done} strings, {len(differ)} differ, direct pairs max |diff| "
                  f"{max(direct, default=0.0):.5f}", flush=True)
        a, b = onnx_pipeline.answer(text), torch_pipeline.answer(text)
        if decision(a) != decision(b):
            differ.append((text, decision(a)[:3], decision(b)[:3]))
        pairs = list(dict.fromkeys((a.question, c.verbalization) for c in a.candidates if c.verbalization))
        pairs = pairs[:args.candidates]
        if pairs:
            mine, theirs = onnx_scorer.scorer.predict(pairs), reference.predict(pairs)
            direct += [abs(x - y) for x, y in zip(mine, theirs, strict=True)]
            direct_crossed += sum((x >= config.threshold) != (y >= config.threshold)
                                  for x, y in zip(mine, theirs, strict=True))
    shared = [pair for pair in onnx_scorer.scores if pair in torch_scorer.scores]
    diffs = [abs(onnx_scorer.scores[p] - torch_scorer.scores[p]) for p in shared]
    crossed = sum((onnx_scorer.scores[p] >= config.threshold) != (torch_scorer.scores[p] >= config.threshold)
                  for p in shared)
    same = len(strings) - len(differ)
    print(f"validator: {config.layers} layers, threshold {config.threshold}; {len(strings)} test-split strings; "
          f"forward-pass threads {args.threads}; load {os.getloadavg()[0]:.2f}/{os.cpu_count()}")
    if diffs:
        print(f"scores: {len(diffs)} pairs; |onnx - torch| max {max(diffs):.5f}  p99 {percentile(diffs, 99):.5f}  "
              f"mean {statistics.fmean(diffs):.6f}; pairs on the other side of the threshold: {crossed}")
    if direct:
        print(f"every verbalized candidate: {len(direct)} pairs; |onnx - torch| max {max(direct):.5f}  "
              f"p99 {percentile(direct, 99):.5f}; pairs on the other side of the threshold: {direct_crossed}")
    print(f"decisions: identical on {same}/{len(strings)} strings ({100 * same / max(1, len(strings)):.2f} %)")
    for text, mine, theirs in differ[:20]:
        print(f"  differs: {text!r}: onnx {mine} / torch {theirs}")
    if onnx_scorer.seconds and torch_scorer.seconds:
        print(f"scoring call: onnx mean {1000 * statistics.fmean(onnx_scorer.seconds):.1f} ms "
              f"(p95 {1000 * percentile(onnx_scorer.seconds, 95):.1f}), torch mean "
              f"{1000 * statistics.fmean(torch_scorer.seconds):.1f} ms "
              f"(p95 {1000 * percentile(torch_scorer.seconds, 95):.1f}) over {len(onnx_scorer.seconds)} calls")
    return 0


if __name__ == "__main__":
    sys.exit(main())
