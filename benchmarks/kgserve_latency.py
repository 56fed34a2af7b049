"""What bounding costs ``kgqa kg-serve``: ``python benchmarks/kgserve_latency.py [-n 300]``
times one small query (three subjects, their facts and labels) sent ``n`` times through
the product's client to ``oxigraph serve-read-only`` and to the bounded endpoint
(:func:`service.kgserve.create_sparql_app`: each query in a query worker), both over the
tiny test graph on 127.0.0.1, and prints the median and 95th percentile of each."""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kg.client import RemoteKG
from kg.store import build_store
from service.kgserve import create_sparql_app, query_url, start_oxigraph
from service.server import ServerThread
from tests import tiny_kg
from tests.service.faulty_http import free_port

QUERY = "SELECT ?x ?l WHERE { VALUES ?s { wd:Q937 wd:Q64 wd:Q183 } ?s ?p ?x . OPTIONAL { ?x rdfs:label ?l } }"


def timed(url: str, n: int) -> tuple[float, float]:
    kg = RemoteKG(url, timeout_s=30, retries=0)
    kg.query(QUERY)
    spent = []
    for _ in range(n):
        started = time.perf_counter()
        kg.query(QUERY)
        spent.append((time.perf_counter() - started) * 1000)
    spent.sort()
    return statistics.median(spent), spent[int(0.95 * (n - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-n", type=int, default=300)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="kgqa-kgserve-"))
    (root / "tiny.nt").write_text(tiny_kg.ntriples(), encoding="utf-8")
    store = build_store(root / "tiny.nt", root / "cache", progress=False).store
    port = free_port()
    process = start_oxigraph(store, "127.0.0.1", port)
    try:
        p50, p95 = timed(query_url("127.0.0.1", port), args.n)
        print(f"oxigraph serve-read-only: p50 {p50:.2f} ms  p95 {p95:.2f} ms")
    finally:
        process.kill()
        process.wait()
    app = create_sparql_app(store, timeout_s=10, workers=2)
    with ServerThread(app) as srv:
        p50, p95 = timed(srv.url + "/query", args.n)
        print(f"kgqa kg-serve (bounded): p50 {p50:.2f} ms  p95 {p95:.2f} ms")
    app.state.pool.close()


if __name__ == "__main__":
    main()
