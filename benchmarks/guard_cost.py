"""What the SPARQL allow-list (``qa.guard``) costs and whether it lets the local generator's
own candidates through: ``python benchmarks/guard_cost.py [N]`` asks the local backend N
dev questions (default 300, a fixed shuffle of ``../shared/data/bench``), screens every
candidate, and prints the number of candidates, how many were rejected (by reason), and
the screening time per candidate and per question."""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from backends.local.generator import LocalBackend
from core.settings import DEFAULT_BENCH_DIR, load_settings
from evaluation.formats import load_dataset
from kg.build import build_kg
from kg.client import EmbeddedKG
from kg.store import open_store
from qa.guard import screen


def main(n: int) -> None:
    """Print the figures for ``n`` questions."""
    settings = load_settings({})
    kg = EmbeddedKG(open_store(build_kg(settings.kg_source, settings.cache_dir, progress=False)))
    local = LocalBackend.from_settings(settings, kg)
    questions = [(t.string, t.language) for path in sorted(Path(DEFAULT_BENCH_DIR).glob("*.json"))
                 for q in load_dataset(path).questions for t in q.texts]
    random.Random(15).shuffle(questions)
    total, seconds, reasons = 0, 0.0, Counter()
    for text, lang in questions[:n]:
        cands = local.ask(text, lang)
        t0 = time.perf_counter()
        out = screen(cands)
        seconds += time.perf_counter() - t0
        total += len(cands)
        reasons.update(r.reason for r in out.rejected)
    print(f"questions: {n}  candidates: {total}  rejected: {sum(reasons.values())} {dict(reasons)}")
    print(f"screening: {seconds / max(total, 1) * 1000:.2f} ms per candidate, {seconds / n * 1000:.1f} ms per question")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
