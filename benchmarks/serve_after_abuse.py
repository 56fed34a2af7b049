"""Does ``kgqa serve`` still answer after 20 bad requests of every kind (issue 35's target)?

Starts a real ``kgqa serve`` (2 worker processes, no validator, the tiny KG unless
``--kg-source`` names another; rate limit off so that every bad request reaches the
pipeline), times one normal question, sends ``--times`` requests of every kind in
:data:`service.abuse.KINDS`, then times the normal question again.  Prints the statuses
per kind and both times; the target is an answer within 2 s after the abuse.

    python benchmarks/serve_after_abuse.py [--times 20] [--kg-source FILE]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from service.abuse import KINDS, Target, abuse, ask_normal, start_serve
from service.loadgen import free_port


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--times", type=int, default=20)
    parser.add_argument("--kg-source", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        source = args.kg_source
        if source is None:
            from tests import tiny_kg

            source = Path(tmp) / "tiny.nt"
            source.write_text(tiny_kg.ntriples(), encoding="utf-8")
        port = free_port()
        proc = start_serve(source, Path(tmp) / "cache", port, Path(tmp) / "sessions.sqlite")
        try:
            target = Target("127.0.0.1", port)
            before = ask_normal(target)
            started = time.perf_counter()
            seen = abuse(target, args.times)
            spent = time.perf_counter() - started
            after = ask_normal(target)
            health = httpx.get(target.url + "/health", timeout=10).json()
        finally:
            proc.kill()
            proc.wait(timeout=10)
    print(f"{args.times} bad requests of each of {len(KINDS)} kinds in {spent:.1f} s; statuses (0 = closed):")
    for name in KINDS:
        statuses = {status: n for (kind, status), n in sorted(seen.items()) if kind == name}
        print(f"  {name:24s} {statuses}")
    print(f"normal question before: status {before[0]}, right answer {before[1]}, {before[2]:.3f} s")
    print(f"normal question after:  status {after[0]}, right answer {after[1]}, {after[2]:.3f} s")
    print(f"health after: status {health['status']}, workers {health['workers']}, refused {health['refused']}")
    return 0 if after[0] == 200 and after[1] and after[2] < 2.0 else 1


if __name__ == "__main__":
    sys.exit(main())
