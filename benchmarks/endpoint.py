"""The product over a SPARQL endpoint, as over the internet: a counting, delaying proxy
(+100 ms per request by default) sits in front of a real ``oxigraph serve-read-only``
holding a KG plus the server-only entities of ``tests/data/server_only.nt``, and the
product is built with that proxy as its endpoint and no KG file at all.

Prints: SPARQL requests per question (median, max), latency per question warm (median,
p95), the server-only questions right / wrong / abstained, and for each fault the proxy
can play (endpoint down, slow, 429, 5xx, malformed reply, huge reply) the status and
message key every question ended with and the longest time it took.

With ``--serve`` the product is a real ``kgqa serve`` (its worker processes, no
validator) started with ``--kg-endpoint`` pointing at the proxy and a KG file that does not
exist, and every question goes over HTTP (``POST /api/ask``): the latency is what a client
of the service sees.  The faults are played in-process only (the service's breaker cannot
be closed between them from outside).

Usage::

    .venv/bin/python benchmarks/endpoint.py                  # the tiny KG + server-only entities
    .venv/bin/python benchmarks/endpoint.py --union          # the union KG (../shared) + server-only
    .venv/bin/python benchmarks/endpoint.py --union --serve  # the same through `kgqa serve`
    .venv/bin/python benchmarks/endpoint.py --union --serve --name-keys  # the server holds name keys
    .venv/bin/python benchmarks/endpoint.py --delay-ms 0 --no-faults

Writes nothing outside a temporary directory.
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pyoxigraph

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.settings import Settings, load_settings  # noqa: E402
from kg.labels import build_label_index  # noqa: E402
from kg.name_keys import add_name_keys  # noqa: E402
from kg.store import load_source  # noqa: E402
from service.abuse import start_serve  # noqa: E402
from service.factory import build_pipeline  # noqa: E402
from service.kgserve import query_url, start_oxigraph  # noqa: E402
from tests import tiny_kg  # noqa: E402
from tests.kg.test_endpoint import SERVER_ONLY, SERVER_ONLY_QUESTIONS  # noqa: E402
from tests.service.faulty_http import free_port  # noqa: E402

FAMOUS = [("Where was Albert Einstein born?", "Q3012"), ("What is the capital of Germany?", "Q64"),
          ("Quelle est la capitale de la France ?", "Q90"), ("Wo wurde Einstein geboren?", "Q3012"),
          ("Who was born in Moscow?", ""), ("What is the population of Paris?", "")]
FAULTS = ("down", "slow", "429", "5xx", "malformed", "huge")


class Proxy:
    """Forwards each POST to ``upstream`` after ``delay_s``, counting requests; ``fault``
    makes it misbehave instead (see :data:`FAULTS`)."""

    def __init__(self, upstream: str, delay_s: float) -> None:
        self.upstream = upstream
        self.delay_s = delay_s
        self.fault: str | None = None
        self.count = 0
        self._lock = threading.Lock()
        self._client = httpx.Client(timeout=600)  # the start reads statistics of the whole KG
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with proxy._lock:
                    proxy.count += 1
                time.sleep(proxy.delay_s)
                try:
                    status, headers, payload = proxy.reply(body, dict(self.headers))
                except httpx.ConnectError:  # the endpoint is down: so is the connection, without a reply
                    self.close_connection = True
                    return
                try:
                    self.send_response(status)
                    for k, v in headers.items():
                        self.send_header(k, v)
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/query"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def reply(self, body: bytes, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        fault = self.fault
        if fault == "slow":
            time.sleep(30)
        if fault == "429":
            return 429, {"Retry-After": "30"}, b"Too Many Requests"
        if fault == "5xx":
            return 503, {}, b"Service Unavailable"
        if fault == "malformed":
            return 200, {"Content-Type": "application/sparql-results+json"}, b'{"head": {"vars": ["x"]}, "res'
        if fault == "huge":
            return 200, {"Content-Type": "application/sparql-results+json"}, b" " * (64 * 1024 * 1024)
        sent = self._client.post(self.upstream, content=body, headers={
            "Content-Type": headers.get("Content-Type", "application/x-www-form-urlencoded"),
            "Accept": headers.get("Accept", "application/sparql-results+json")})
        return sent.status_code, {"Content-Type": sent.headers.get("Content-Type", "")}, sent.content

    def close(self) -> None:
        self.server.shutdown()
        self._client.close()


@dataclass(frozen=True)
class Outcome:
    """What one question ended with: answered or not, and the answers' ids and labels."""

    answered: bool
    answers: tuple[tuple[str, str], ...]

    def right(self, want: str) -> bool:
        return self.answered and any(want in qid or want in label for qid, label in self.answers)


def _in_process(pipeline) -> Callable[[str], Outcome]:
    def ask(question: str) -> Outcome:
        turn = pipeline.answer(question)
        return Outcome(turn.answered, tuple((a.id or "", a.label) for a in turn.answers))

    return ask


def _over_http(port: int) -> Callable[[str], Outcome]:
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120)

    def ask(question: str) -> Outcome:
        reply = client.post("/api/ask", data={"question": question, "log": "off"})
        reply.raise_for_status()
        turn = reply.json()
        return Outcome(bool(turn["answered"]), tuple((a.get("id") or "", a.get("label") or "")
                                                     for a in turn["answers"]))

    return ask


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--union", action="store_true",
                    help="the KG source (setting kg_source: the union KG of ../shared) under the server-only entities")
    ap.add_argument("--delay-ms", type=float, default=100.0)
    ap.add_argument("--budget-s", type=float, default=8.0)
    ap.add_argument("--validator", action="store_true", help="with the validator (needs the base model)")
    ap.add_argument("--no-faults", action="store_true")
    ap.add_argument("--name-keys", action="store_true",
                    help="the server also holds the label index's name keys (as `kgqa kg-serve` serves a KG)")
    ap.add_argument("--serve", action="store_true",
                    help="through a real `kgqa serve` (over HTTP, /api/ask) instead of an in-process pipeline")
    args = ap.parse_args(argv)
    logging.disable(logging.WARNING)  # the faults' warnings: their outcome is printed
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        sources = [SERVER_ONLY]
        if args.union:
            sources.insert(0, load_settings(os.environ).kg_source)
        else:
            tiny = root / "tiny.nt"
            tiny.write_text(tiny_kg.ntriples(), encoding="utf-8")
            sources.insert(0, tiny)
        store_dir = root / "store"
        started = time.perf_counter()
        keys = _load(sources, store_dir, root if args.name_keys else None)
        print(f"server store built in {time.perf_counter() - started:.1f}s from {', '.join(s.name for s in sources)}"
              + (f" with {keys} name-key quads" if args.name_keys else ""))
        port = free_port()
        server = start_oxigraph(store_dir, "127.0.0.1", port)
        proxy = Proxy(query_url("127.0.0.1", port), args.delay_ms / 1000)
        serve = None
        try:
            t0 = time.perf_counter()
            if args.serve:
                serve_port = free_port()
                serve = start_serve(root / "no-kg-file.nt.gz", root / "cache", serve_port, root / "sessions.sqlite",
                                    wait_s=1800, kg_endpoint=proxy.url)
                pipeline, ask = None, _over_http(serve_port)
                print(f"kgqa serve started with no KG file in {time.perf_counter() - t0:.1f}s ({proxy.count} "
                      f"requests at start; validator off; +{args.delay_ms:g} ms per request)")
            else:
                settings = Settings(kg_source=root / "no-kg-file.nt.gz", kg_endpoint=proxy.url,
                                    cache_dir=root / "cache", validator=args.validator, kg_budget_s=args.budget_s)
                pipeline = build_pipeline(settings)
                ask = _in_process(pipeline)
                print(f"started with no KG file in {time.perf_counter() - t0:.1f}s ({proxy.count} requests at "
                      f"start; validator {pipeline.validator_state}; +{args.delay_ms:g} ms per request)")
            questions = SERVER_ONLY_QUESTIONS + FAMOUS
            before, t0 = proxy.count, time.perf_counter()
            ask("Which cities are in Germany?")  # the process's first question reads the property labels
            print(f"first question of the process: {proxy.count - before} requests, "
                  f"{time.perf_counter() - t0:.1f}s (property labels and statistics read once)")
            first, first_times = [], []
            for q, _w in questions:  # each asked a first time: nothing of it cached yet
                before, t0 = proxy.count, time.perf_counter()
                ask(q)
                first.append(proxy.count - before)
                first_times.append(time.perf_counter() - t0)
            counts, times = [], []
            right = wrong = abstained = 0
            for q, want in questions:
                before = proxy.count
                t0 = time.perf_counter()
                outcome = ask(q)
                times.append(time.perf_counter() - t0)
                counts.append(proxy.count - before)
                if (q, want) in SERVER_ONLY_QUESTIONS:
                    ok = outcome.right(want)
                    right += ok
                    wrong += outcome.answered and not ok
                    abstained += not outcome.answered
            print(f"requests per question asked the first time: median {statistics.median(first):g}, "
                  f"max {max(first)}; latency median {statistics.median(first_times):.2f}s, "
                  f"p95 {_p95(first_times):.2f}s")
            print(f"requests per question asked again (names cached): median {statistics.median(counts):g}, "
                  f"max {max(counts)}")
            print(f"latency per question (warm): median {statistics.median(times):.2f}s, "
                  f"p95 {_p95(times):.2f}s, max {max(times):.2f}s")
            print(f"server-only questions: {right}/{len(SERVER_ONLY_QUESTIONS)} right, {wrong} wrong, "
                  f"{abstained} abstained")
            if pipeline is not None and not args.no_faults:
                for fault in FAULTS:
                    _fault(pipeline, proxy, fault, server if fault == "down" else None)
        finally:
            if serve is not None:
                serve.kill()
                serve.wait()
            proxy.close()
            server.kill()
            server.wait()
    return 0


def _fault(pipeline, proxy: Proxy, fault: str, server) -> None:
    """Ask questions never asked before (nothing cached) while the proxy plays ``fault``."""
    proxy.fault = None if fault == "down" else fault
    pipeline.kg.breaker.record_success()  # each fault meets a closed breaker (the previous one opened it)
    original = proxy.upstream
    if fault == "down":
        proxy.upstream = f"http://127.0.0.1:{free_port()}/query"  # nothing listens there
    try:
        outcomes, longest = set(), 0.0
        for q in ("Where was Orlan Pesk born?", "Wann wurde Orlan Pesk geboren?", "Где родился Орлан Песк?"):
            t0 = time.perf_counter()
            turn = pipeline.answer(q)
            longest = max(longest, time.perf_counter() - t0)
            outcomes.add((turn.status.value, turn.message_key, bool(turn.answers)))
        print(f"fault {fault:9s}: {sorted(outcomes)} (longest {longest:.1f}s)")
    finally:
        proxy.fault = None
        proxy.upstream = original


def _load(sources: list[Path], store_dir: Path, keys_dir: Path | None) -> int:
    """One store holding every source (what ``oxigraph load`` does, through the product's
    loader), and, given ``keys_dir``, the name keys of its label index built there."""
    store = pyoxigraph.Store(str(store_dir))
    for source in sources:
        load_source(store, source)
    store.flush()
    keys = 0
    if keys_dir is not None:
        build_label_index(store, keys_dir / "labels")
        keys = add_name_keys(store, keys_dir / "labels", keys_dir)
    del store
    return keys


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


if __name__ == "__main__":
    raise SystemExit(main())
