"""Where one question's time goes: per-stage latency, KG queries and validator pairs.

Runs the real pipeline (the configured KG, backend and shipped validator, as ``kgqa ask``
builds it; torch on one thread) over issue 33's written sets
(``benchmarks/data/partial_understanding.json`` and ``kg_lacks.json``, as
``benchmarks/trust.py``) and, with ``--bench``, a deterministic sample of benchmark
questions (``--split``, ``--limit`` per file, every language string with ``--lang all``),
and prints per question, median and p95 (nearest rank):

* each stage of :data:`qa.pipeline.STAGES` (``Turn.timings_ms``), ``total``, and
  ``unstaged`` (total minus the stages: the guard and the decision components);
* the KG queries the question sent (each one a round trip to a query worker on the
  embedded store) and the time spent in them;
* the validator's ``predict`` calls, the pairs they scored and the time spent in them;
* the garbage collector's runs (all, and of the oldest generation) and their time.

The pipeline is first warmed as the chat and ``kgqa serve`` warm it
(:func:`service.workers.warm`; ``--no-service-warmup`` leaves it out), then ``--warmup``
questions are asked untimed.  Run it under ``taskset -c 0`` for one core.  ``--dump FILE`` writes every turn's JSON
(``Turn.to_json`` without ``timings_ms``) one a line, so that two runs' outputs can be
compared item by item (``--compare OLD NEW``); nothing is asserted.

Usage::

    taskset -c 0 .venv/bin/python benchmarks/stage_latency.py [--bench ../shared/data/bench/*.json
        --split test --limit 20 --lang all] [--no-written] [--dump out/turns.jsonl]
    .venv/bin/python benchmarks/stage_latency.py --compare out/before.jsonl out/after.jsonl
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.settings import load_settings  # noqa: E402
from kg.client import KG, QueryResult  # noqa: E402
from qa.pipeline import STAGES, Pipeline  # noqa: E402
from qa.score import Scorer  # noqa: E402
from service.factory import build_pipeline, open_kg  # noqa: E402
from service.workers import warm  # noqa: E402

WRITTEN = (ROOT / "benchmarks" / "data" / "partial_understanding.json", ROOT / "benchmarks" / "data" / "kg_lacks.json")


@dataclass
class Tally:
    """Calls and seconds, reset per question."""

    calls: int = 0
    items: int = 0
    seconds: float = 0.0


class CountingKG:
    """The KG, counting the queries sent through it and the time they took."""

    def __init__(self, kg: KG, tally: Tally) -> None:
        self.kg = kg
        self.tally = tally
        self.name = kg.name

    def query(self, sparql: str, *, timeout_s: float | None = None, max_rows: int | None = None) -> QueryResult:
        t0 = time.perf_counter()
        try:
            return self.kg.query(sparql, timeout_s=timeout_s, max_rows=max_rows)
        finally:
            self.tally.calls += 1
            self.tally.seconds += time.perf_counter() - t0


class CountingScorer:
    """The validator, counting ``predict`` calls, pairs and time."""

    def __init__(self, scorer: Scorer, tally: Tally) -> None:
        self.scorer = scorer
        self.tally = tally

    def predict(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        t0 = time.perf_counter()
        try:
            return self.scorer.predict(pairs)
        finally:
            self.tally.calls += 1
            self.tally.items += len(pairs)
            self.tally.seconds += time.perf_counter() - t0


class GCTimer:
    """Time spent in the cyclic garbage collector (``gc.callbacks``), by generation."""

    def __init__(self, tally: Tally) -> None:
        self.tally = tally
        self._started = 0.0
        gc.callbacks.append(self)

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        self.tally.seconds += time.perf_counter() - self._started
        self.tally.calls += 1
        self.tally.items += info["generation"] == 2


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def written_questions() -> list[dict]:
    out = []
    for path in WRITTEN:
        out += [{"id": q["id"], "question": q["question"], "lang": q["lang"]}
                for q in json.loads(path.read_text(encoding="utf-8"))["questions"]]
    return out


def bench_questions(paths: Sequence[Path], split: str, limit: int | None, lang: str | None) -> list[dict]:
    from evaluation.formats import load_datasets
    from evaluation.harness import select_items

    items = select_items(load_datasets(list(paths)), lang=lang, split=split, limit=limit)
    return [{"id": f"{i.dataset}:{i.id}", "question": i.text, "lang": i.lang} for i in items]


def compare(old: Path, new: Path) -> int:
    """Item-by-item comparison of two ``--dump`` files; prints the first differences."""
    a = [json.loads(line) for line in old.read_text(encoding="utf-8").splitlines()]
    b = [json.loads(line) for line in new.read_text(encoding="utf-8").splitlines()]
    differ = [(x, y) for x, y in zip(a, b, strict=False) if x != y]
    print(f"{len(a)} vs {len(b)} turns; {len(differ)} differ")
    for x, y in differ[:5]:
        keys = sorted(k for k in {*x, *y} if x.get(k) != y.get(k))
        print(f"  {x.get('question')!r}: " + "; ".join(f"{k}: {x.get(k)!r} -> {y.get(k)!r}" for k in keys)[:2000])
    return 0 if not differ and len(a) == len(b) else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bench", nargs="*", type=Path, default=[], help="benchmark files to sample")
    parser.add_argument("--split", default="test")
    parser.add_argument("--limit", type=int, default=None, help="questions of each benchmark file")
    parser.add_argument("--lang", default=None, help="'all': every language string (as kgqa evaluate)")
    parser.add_argument("--no-written", action="store_true", help="leave out issue 33's written sets")
    parser.add_argument("--no-service-warmup", action="store_true",
                        help="time without the service's warm-up (service.workers.warm)")
    parser.add_argument("--warmup", type=int, default=3, help="questions asked first and not timed")
    parser.add_argument("--dump", type=Path, help="write every turn's JSON (without timings) here")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("OLD", "NEW"))
    args = parser.parse_args()
    if args.compare:
        return compare(*args.compare)
    import torch

    torch.set_num_threads(1)
    kg_tally, scorer_tally, gc_tally = Tally(), Tally(), Tally()
    GCTimer(gc_tally)
    settings = load_settings(os.environ)
    pipeline: Pipeline = build_pipeline(settings, kg=CountingKG(open_kg(settings), kg_tally))
    if pipeline.validation is not None:
        pipeline.validation = replace(pipeline.validation,
                                      scorer=CountingScorer(pipeline.validation.scorer, scorer_tally))
    questions = ([] if args.no_written else written_questions()) + bench_questions(
        args.bench, args.split, args.limit, args.lang)
    if not args.no_service_warmup:
        warm(pipeline)
    for q in questions[:args.warmup]:
        pipeline.answer(q["question"], q["lang"])
    rows: list[dict[str, float]] = []
    dump = args.dump.open("w", encoding="utf-8") if args.dump else None
    for q in questions:
        for tally in (kg_tally, scorer_tally, gc_tally):
            tally.calls, tally.items, tally.seconds = 0, 0, 0.0
        turn = pipeline.answer(q["question"], q["lang"])
        timings = turn.timings_ms
        row = {s: timings.get(s, 0.0) for s in STAGES}
        row["total"] = timings.get("total", 0.0)
        row["unstaged"] = row["total"] - sum(timings.get(s, 0.0) for s in STAGES)
        row.update({"kg queries": kg_tally.calls, "kg ms": kg_tally.seconds * 1000,
                    "predict calls": scorer_tally.calls, "pairs scored": scorer_tally.items,
                    "predict ms": scorer_tally.seconds * 1000, "gc runs": gc_tally.calls,
                    "full gc runs": gc_tally.items, "gc ms": gc_tally.seconds * 1000})
        rows.append(row)
        if dump is not None:
            data = turn.to_json()
            data.pop("timings_ms", None)
            dump.write(json.dumps({"id": q["id"], **data}, ensure_ascii=False, sort_keys=True) + "\n")
    if dump is not None:
        dump.close()
    print(f"{len(rows)} questions ({'' if args.no_written else 'written sets'}"
          f"{' + ' if args.bench and not args.no_written else ''}"
          f"{f'{args.split} sample of {len(args.bench)} files' if args.bench else ''}), torch 1 thread")
    print(f"{'per question':<16} {'median':>9} {'p95':>9} {'mean':>9}")
    for key in rows[0]:
        values = [r[key] for r in rows]
        print(f"{key:<16} {statistics.median(values):>9.1f} {percentile(values, 0.95):>9.1f} "
              f"{statistics.fmean(values):>9.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
