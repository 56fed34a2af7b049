"""The hostile-candidate probe of issue 35, with its figures: ``python benchmarks/probe_corpus.py
[--kg-source PATH] [--timeout S]`` serves every candidate of ``tests/hostile_candidates.py``
from a fake backend, answers each through the pipeline (validator off: the top candidate
runs) on the embedded store opened bounded (``kg.bounded``), and prints: candidates per
kind, rejections by reason, what became of the ones the guard let through, answers given
(must be 0), requests the 127.0.0.1 listener received (must be 0), the slowest turn and
execute stage, the guard's time per candidate, and the query workers' peak memory.

Without ``--kg-source`` it builds the tiny test graph in a temporary folder."""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from backends.fake import FakeBackend
from kg.bounded import open_bounded
from kg.build import build_kg
from kg.store import build_store
from qa.candidate import Candidate
from qa.guard import screen
from qa.pipeline import Pipeline
from tests import tiny_kg
from tests.hostile_candidates import hostile
from tests.service.faulty_http import Reply, ScriptedServer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kg-source", type=Path, default=None)
    parser.add_argument("--cache-dir", type=Path, default=None)
    parser.add_argument("--timeout", type=float, default=5.0)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="kgqa-probe-"))
    if args.kg_source is None:
        source = work / "tiny.nt"
        source.write_text(tiny_kg.ntriples(), encoding="utf-8")
        paths = build_store(source, work / "cache", progress=False)
    else:
        paths = build_kg(args.kg_source, args.cache_dir or work / "cache", progress=False)
    kg = open_bounded(paths)
    listener = ScriptedServer(lambda req: Reply.json({"head": {"vars": ["answer"]}, "results": {"bindings": []}}))
    with listener:
        corpus = hostile(listener.url)
        started = time.perf_counter()
        for _, _, sparql in corpus:
            screen([Candidate(sparql, 1.0)])
        guard_ms = (time.perf_counter() - started) * 1000 / len(corpus)
        scripted = {f"probe {i}": [Candidate(sparql, 0.99)] for i, (_, _, sparql) in enumerate(corpus)}
        pipe = Pipeline(FakeBackend(scripted), kg, query_timeout_s=args.timeout)
        reasons: Counter[str] = Counter()
        let_through: list[str] = []
        answered: list[str] = []
        slowest_turn = slowest_execute = 0.0
        slow: list[tuple[float, str, dict[str, float]]] = []
        for i, (kind, name, _) in enumerate(corpus):
            turn = pipe.answer(f"probe {i}", "en", use_validator=False)
            reasons.update(r["reason"] for r in turn.rejected)
            if turn.candidates:
                let_through.append(f"{kind}/{name}: {turn.status}" + (f" ({turn.error[:80]})" if turn.error else ""))
            if turn.answered:
                answered.append(f"{kind}/{name}")
            slowest_turn = max(slowest_turn, turn.timings_ms.get("total", 0.0))
            slow.append((turn.timings_ms.get("total", 0.0), f"{kind}/{name}", turn.timings_ms))
            slowest_execute = max(slowest_execute, turn.timings_ms.get("execute", 0.0))
    kinds = Counter(kind for kind, _, _ in corpus)
    print(f"store: {paths.store}")
    print(f"candidates: {len(corpus)} in {len(kinds)} kinds: {dict(kinds)}")
    print(f"rejected by the guard: {sum(reasons.values())}: {dict(reasons.most_common())}")
    print(f"let through ({len(let_through)}):")
    for line in let_through:
        print(f"  {line}")
    print(f"answered: {len(answered)} {answered}")
    print(f"requests to the listener: {len(listener.requests)}")
    print(f"guard: {guard_ms:.1f} ms per candidate")
    print(f"slowest turn: {slowest_turn:.0f} ms, slowest execute stage: {slowest_execute:.0f} ms "
          f"(deadline {args.timeout * 1000:.0f} ms)")
    for _, name, timings in sorted(slow, reverse=True)[:3]:
        print(f"  slow turn {name}: {timings}")
    peak = kg.runner.peak_rss_bytes() / 2**20
    print(f"query workers stopped: {kg.runner.killed}, peak worker memory: {peak:.0f} MiB")
    kg.runner.close()


if __name__ == "__main__":
    main()
