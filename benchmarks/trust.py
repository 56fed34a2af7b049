"""Issue 33's figures: answer only what was understood whole, and say which "I don't know".

Runs the real pipeline (the configured KG, backend and shipped validator, as ``kgqa ask``
builds it) over two question sets written for the issue and prints:

* ``benchmarks/data/partial_understanding.json``: questions a reading of the KG answers
  only in part, each with a plausible wrong reading (target: 0 answered; a COUNT is no
  answer, and the replies that say "my data lists N: …" instead are counted apart);
* ``benchmarks/data/kg_lacks.json``: natural questions about facts the KG lacks (target:
  >= 75 % ``understood_no_value``, ``understood_unnamed`` or ``unknown_entity``, 0 answered);
* per-question latency p50 / p95 (``Turn.timings_ms["total"]``), with torch on one thread,
  after the pipeline is warmed as the chat and ``kgqa serve`` warm it before their first user
  (:func:`service.workers.warm`: language detectors loaded, one question answered; leave it out
  with ``--no-service-warmup``) and ``--warmup`` questions; run it under ``taskset -c 0`` for
  one core (``benchmarks/stage_latency.py`` says where the time goes).

Usage::

    taskset -c 0 .venv/bin/python benchmarks/trust.py [--set partial|lacks|both] [--verbose]

Prints figures only; writes nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.settings import load_settings  # noqa: E402
from qa.pipeline import Pipeline  # noqa: E402
from service.factory import build_pipeline  # noqa: E402
from service.workers import warm as warm_service  # noqa: E402

SETS = {"partial": ROOT / "benchmarks" / "data" / "partial_understanding.json",
        "lacks": ROOT / "benchmarks" / "data" / "kg_lacks.json"}
HONEST = ("understood_no_value", "understood_unnamed", "unknown_entity")
"""The honest replies to a fact the KG lacks: understood with no value (or only values without
a name), or a name nothing is called."""


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def run(pipeline: Pipeline, questions: list[dict], verbose: bool) -> tuple[list[dict], list[float]]:
    """Every question through the pipeline, in the language it is written in."""
    out, times = [], []
    for item in questions:
        turn = pipeline.answer(item["question"], item["lang"])
        times.append(turn.timings_ms.get("total", 0.0))
        row = {**item, "answered": turn.answered, "key": turn.message_key, "withheld_by": turn.withheld_by,
               "answers": [a.label for a in turn.answers[:3]]}
        out.append(row)
        if verbose:
            print(f"  {item['id']} [{item['lang']}] {item['question']} -> answered={turn.answered} "
                  f"{turn.message_key} {turn.withheld_by or ''} {row['answers']}", flush=True)
    return out, times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", choices=["partial", "lacks", "both"], default="both")
    parser.add_argument("--warmup", type=int, default=3, help="questions asked first and not timed")
    parser.add_argument("--no-service-warmup", action="store_true",
                        help="time without the service's warm-up (language detectors load on first use)")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    import torch

    torch.set_num_threads(1)
    pipeline = build_pipeline(load_settings(os.environ))
    if not args.no_service_warmup:
        warm_service(pipeline)
    names = ["partial", "lacks"] if args.set == "both" else [args.set]
    warm = json.loads(SETS[names[0]].read_text(encoding="utf-8"))["questions"][:args.warmup]
    run(pipeline, warm, False)
    all_times: list[float] = []
    for name in names:
        questions = json.loads(SETS[name].read_text(encoding="utf-8"))["questions"]
        print(f"== {name}: {SETS[name].name}, {len(questions)} questions in "
              f"{len({q['lang'] for q in questions})} languages", flush=True)
        rows, times = run(pipeline, questions, args.verbose)
        all_times += times
        answered = [r for r in rows if r["answered"]]
        listed = [r for r in rows if r["key"] == "data_lists"]
        print(f"answered: {len(answered)} of {len(rows)} (not answered but told 'my data lists N: …': {len(listed)})")
        print("message keys: " + ", ".join(f"{k} {n}" for k, n in Counter(r["key"] for r in rows).most_common()))
        print("withheld by: " + ", ".join(f"{k} {n}" for k, n in Counter(r["withheld_by"] or "-" for r in rows)
                                          .most_common()))
        if name == "partial":
            by_kind = Counter(r["kind"] for r in answered)
            print("answered by kind: " + (", ".join(f"{k} {n}" for k, n in by_kind.most_common()) or "none"))
        else:
            honest = sum(r["key"] in HONEST for r in rows)
            print(f"{', '.join(HONEST[:-1])} or {HONEST[-1]}: {honest} of {len(rows)} = {honest / len(rows):.1%}; "
                  f"as expected: {sum(r['key'] == r['expect'] for r in rows)}")
        for r in answered:
            print(f"  answered {r['id']} [{r['lang']}] {r['question']} -> {r['answers']} ({r['key']})")
    print(f"latency per question (ms, {len(all_times)} questions, torch 1 thread): "
          f"p50 {statistics.median(all_times):.0f}, p95 {percentile(all_times, 0.95):.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
