"""Quality and speed of the local candidate generator on the dev benchmark.

For every answerable question of ``../shared/data/bench`` and every language string it
carries (each string is its own question), generate candidates and check:

* recall@1: the top candidate's answer set has F1 = 1 against the gold;
* recall@10: one of the first ten candidates does;
* candidate-generation latency (``LocalBackend.ask``), p50 / p95.

r@k is measured on ``LocalBackend.ask`` (every shape, complex ones included); simple@k on
the simple query graphs alone (``LocalBackend.generate``), to show what each layer adds.
"named" is the share of questions whose entity has any label or alias in the KG: the KG
holds about 61k nodes without a name, which no linker can find, so it bounds recall.
"per question" weighs every question once (the mean over its language strings).

Figures are printed overall, per source and per language, for all questions and for
the held-out ``test`` split.  Targets: recall@1 >= 50 %, recall@10 >= 75 %, latency
p50 <= 150 ms, p95 <= 600 ms.

    .venv/bin/python benchmarks/backend_quality.py [--split test] [--source S] [--limit N] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.settings import DEFAULT_BENCH_DIR
from training.ranker import BenchItem, _backend, bench_items, f1_sparql


def evaluate(backend, items: Sequence[BenchItem], *, progress: bool = True) -> list[dict]:
    """One record per item: r@1, r@10, rank of the first exact candidate, latency of ``ask``."""
    out = []
    started = time.monotonic()
    named = backend.index.entity_stats({e for item in items for e in item.entities})
    for i, item in enumerate(items):
        t0 = time.perf_counter()
        cands = backend.ask(item.text, item.lang)
        ms = (time.perf_counter() - t0) * 1000
        exact: dict[str, bool] = {}
        rank = _first_exact(backend, [c.sparql for c in cands], item, exact)
        simple = _first_exact(backend, [g.sparql for g in backend.generate(item.text, item.lang)], item, exact)
        linkable = any(named[e].names > 0 for e in item.entities if e in named)
        out.append({"id": item.qid, "source": item.source, "lang": item.lang, "split": item.split,
                    "r1": rank == 1, "r10": rank is not None, "rank": rank, "ms": ms, "n": len(cands),
                    "s1": simple == 1, "s10": simple is not None,
                    "named": linkable, "top": cands[0].sparql if cands else None})
        if progress and (i + 1) % 200 == 0:
            print(f"  {i + 1}/{len(items)} ({time.monotonic() - started:.0f}s)", file=sys.stderr)
    return out


def _first_exact(backend, sparqls: Sequence[str], item: BenchItem, cache: dict[str, bool]) -> int | None:
    """1-based rank of the first of the top ten queries whose answers have F1 = 1, else ``None``."""
    for r, sparql in enumerate(sparqls[:10]):
        if sparql not in cache:
            cache[sparql] = f1_sparql(backend.kg, sparql, item.gold) >= 0.999
        if cache[sparql]:
            return r + 1
    return None


def _pct(values: Sequence[bool]) -> str:
    return f"{100 * sum(values) / len(values):5.1f}%" if values else "    -"


def _quantile(values: Sequence[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def report(records: Sequence[dict], title: str) -> dict:
    """Print a table of r@1/r@10 by group; return the figures."""
    groups: dict[str, list[dict]] = defaultdict(list)
    for r in records:
        groups["all"].append(r)
        groups[f"source={r['source']}"].append(r)
        groups[f"lang={r['lang']}"].append(r)
    print(f"\n== {title} ({len(records)} question strings)")
    print(f"{'group':<18}{'n':>6}{'r@1':>9}{'r@10':>9}{'named':>9}{'simple@1':>10}{'simple@10':>10}")
    figures = {}
    for name in sorted(groups, key=lambda g: (g != "all", not g.startswith("source"), g)):
        rs = groups[name]
        figures[name] = {"n": len(rs), "r@1": sum(r["r1"] for r in rs) / len(rs),
                         "r@10": sum(r["r10"] for r in rs) / len(rs),
                         "named": sum(r["named"] for r in rs) / len(rs)}
        print(f"{name:<18}{len(rs):>6}{_pct([r['r1'] for r in rs]):>9}{_pct([r['r10'] for r in rs]):>9}"
              f"{_pct([r['named'] for r in rs]):>9}{_pct([r['s1'] for r in rs]):>10}{_pct([r['s10'] for r in rs]):>10}")
    per_q: dict[str, list[dict]] = defaultdict(list)
    for r in records:
        per_q[r["id"]].append(r)
    q1 = statistics.mean(statistics.mean(x["r1"] for x in rs) for rs in per_q.values())
    q10 = statistics.mean(statistics.mean(x["r10"] for x in rs) for rs in per_q.values())
    s1 = statistics.mean(statistics.mean(x["s1"] for x in rs) for rs in per_q.values())
    s10 = statistics.mean(statistics.mean(x["s10"] for x in rs) for rs in per_q.values())
    figures["per_question"] = {"n": len(per_q), "r@1": q1, "r@10": q10, "simple@1": s1, "simple@10": s10}
    print(f"{'per question':<18}{len(per_q):>6}{100 * q1:8.1f}%{100 * q10:8.1f}%{'':>9}{100 * s1:9.1f}%"
          f"{100 * s10:9.1f}%   (each question once, its language strings averaged)")
    return figures


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench", type=Path, default=DEFAULT_BENCH_DIR)
    ap.add_argument("--cache-dir", type=Path, default=None)
    ap.add_argument("--split", choices=["train", "dev", "test"], help="only this split")
    ap.add_argument("--source", action="append", help="only this source (sqwd, wwq, rubq1, mintaka); repeatable")
    ap.add_argument("--limit", type=int, default=0, help="evaluate every k-th item only (quick runs)")
    ap.add_argument("--json", type=Path, help="write per-item records here")
    args = ap.parse_args(argv)
    backend, _ = _backend(args.cache_dir)
    items = list(bench_items(args.bench))
    if args.split:
        items = [i for i in items if i.split == args.split]
    if args.source:
        items = [i for i in items if i.source in args.source]
    if args.limit:
        items = items[::max(1, len(items) // args.limit)]
    backend.generate("warm up: where was Albert Einstein born?", "en")
    print(f"ranker: {backend.ranker.info.get('kind', '?')}; {len(items)} question strings", file=sys.stderr)
    records = evaluate(backend, items)
    figures = {"all": report(records, "all answerable questions")}
    test = [r for r in records if r["split"] == "test"]
    if test and not args.split:
        figures["test"] = report(test, "held-out test split")
    ms = [r["ms"] for r in records]
    figures["latency_ms"] = {"p50": _quantile(ms, 0.5), "p95": _quantile(ms, 0.95), "mean": statistics.mean(ms)}
    print(f"\ncandidate generation latency: p50 {figures['latency_ms']['p50']:.0f} ms, "
          f"p95 {figures['latency_ms']['p95']:.0f} ms, mean {figures['latency_ms']['mean']:.0f} ms "
          f"(targets p50 <= 150, p95 <= 600)")
    if args.json:
        args.json.write_text(json.dumps({"figures": figures, "records": records}, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
