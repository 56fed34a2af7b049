"""What bounding every query costs (issue 35): ``python benchmarks/bounded_queries.py [-n N]
[--kg-source PATH] [--cache-dir DIR] [--bench-dir DIR]`` answers N dev questions (default
200, a fixed shuffle of the benchmark files) with the local backend, validator off, twice
over the same store: with every query run in this process (``EmbeddedKG(store)``, the old
way: no deadline the engine keeps, no memory limit, network reachable) and with every
query run in the bounded worker pool (``kg.bounded.open_bounded``: what the CLI,
``kgqa evaluate``, ``kgqa serve`` and the chat use now).  It prints, for each, the
per-question latency (p50, p95, max), the queries per question and the added time per
query, and checks that both give the same answers."""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from backends.local.generator import LocalBackend
from core.settings import DEFAULT_BENCH_DIR, DEFAULT_KG_SOURCE, PROJECT_ROOT, load_settings
from evaluation.formats import load_dataset
from kg.bounded import open_bounded
from kg.build import build_kg
from kg.client import KG, EmbeddedKG, QueryResult
from kg.store import open_store
from qa.pipeline import Pipeline


class Counting:
    """A KG that counts the queries it passes on."""

    def __init__(self, kg: KG) -> None:
        self.kg, self.name, self.count = kg, kg.name, 0

    def query(self, sparql: str, *, timeout_s: float | None = None, max_rows: int | None = None) -> QueryResult:
        self.count += 1
        return self.kg.query(sparql, timeout_s=timeout_s, max_rows=max_rows)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-n", type=int, default=200)
    parser.add_argument("--kg-source", type=Path, default=DEFAULT_KG_SOURCE)
    parser.add_argument("--cache-dir", type=Path, default=PROJECT_ROOT / ".cache")
    parser.add_argument("--bench-dir", type=Path, default=DEFAULT_BENCH_DIR)
    args = parser.parse_args()
    settings = load_settings({}, kg_source=args.kg_source, cache_dir=args.cache_dir)
    paths = build_kg(args.kg_source, args.cache_dir, progress=False)
    questions = [(t.string, t.language) for path in sorted(args.bench_dir.glob("*.json"))
                 for q in load_dataset(path).questions for t in q.texts]
    random.Random(35).shuffle(questions)
    questions = questions[:args.n]
    kgs = {"in process": Counting(EmbeddedKG(open_store(paths))), "bounded": Counting(open_bounded(paths))}
    pipes = {name: Pipeline(LocalBackend.from_settings(settings, kg), kg) for name, kg in kgs.items()}
    for pipe in pipes.values():  # warm both (detectors, lexicon, first worker)
        pipe.answer("Where was Albert Einstein born?", "en", use_validator=False)
    for kg in kgs.values():
        kg.count = 0
    latency: dict[str, list[float]] = {name: [] for name in pipes}
    answers: dict[str, list[tuple[str, ...]]] = {name: [] for name in pipes}
    for i, (text, lang) in enumerate(questions):
        order = list(pipes) if i % 2 == 0 else list(reversed(pipes))  # alternate who goes first
        for name in order:
            t0 = time.perf_counter()
            turn = pipes[name].answer(text, lang, use_validator=False)
            latency[name].append((time.perf_counter() - t0) * 1000)
            answers[name].append(tuple(a.value for a in turn.answers) + (str(turn.boolean),))
    print(f"questions: {len(questions)}  store: {paths.store}")
    for name, values in latency.items():
        queries = kgs[name].count / len(questions)
        print(f"{name:>10}: p50 {percentile(values, 0.5):.1f} ms  p95 {percentile(values, 0.95):.1f} ms  "
              f"max {max(values):.1f} ms  mean {statistics.mean(values):.1f} ms  queries/question {queries:.1f}")
    added = statistics.mean(latency["bounded"]) - statistics.mean(latency["in process"])
    per_query = added / max(kgs["bounded"].count / len(questions), 1)
    print(f"added by bounding: {added:.1f} ms per question (mean), {per_query:.3f} ms per query")
    same = sum(a == b for a, b in zip(answers["in process"], answers["bounded"], strict=True))
    print(f"same answers: {same}/{len(questions)}")
    kgs["bounded"].kg.runner.close()  # type: ignore[attr-defined]


if __name__ == "__main__":
    main()
