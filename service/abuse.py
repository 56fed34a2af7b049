"""A catalogue of bad requests to a running ``kgqa serve`` (issue 35's probe, each kind
a named function), and the check that the service still answers afterwards.  Used by
``benchmarks/serve_after_abuse.py`` (which prints the times) and by the regression test
``tests/service/test_serve_after_abuse.py`` (which checks that it answers).

Every kind sends one request (or holds one connection) and returns the HTTP status, or
``0`` when the server closed the connection without a reply (slow headers, a body that
never comes).  None of them may stop the service: afterwards a normal question must be
answered as fast as before.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import httpx

from core.settings import PROJECT_ROOT

LONG = "Where was Albert Einstein born? " + "x" * 1001


@dataclass(frozen=True)
class Target:
    """Where the service listens."""

    host: str
    port: int

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"


def _raw(target: Target, data: bytes, *, wait_s: float = 15.0) -> int:
    """Send raw bytes on a fresh connection; the status of the reply, or 0 when the server
    closed the connection without one."""
    with socket.create_connection((target.host, target.port), timeout=wait_s) as s:
        s.sendall(data)
        try:
            reply = s.recv(64)
        except (TimeoutError, ConnectionResetError):
            return 0
    parts = reply.split(b" ", 2)
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0


def _host(target: Target) -> bytes:
    return f"Host: {target.host}:{target.port}\r\n".encode()


Send = Callable[[httpx.Client, Target], int]


def _get(path: str, params: dict[str, str], headers: dict[str, str] | None = None) -> Send:
    return lambda c, t: c.get(t.url + path, params=params, headers=headers).status_code


def _post(path: str, body: bytes, headers: dict[str, str] | None = None) -> Send:
    return lambda c, t: c.post(t.url + path, content=body, headers=headers).status_code


def _form(path: str, data: dict[str, str]) -> Send:
    return lambda c, t: c.post(t.url + path, data=data).status_code


KINDS: dict[str, Send] = {
    "qa_full_too_long": _get("/api/qa/full", {"question": LONG}),
    "qa_full_post_too_long": _form("/api/qa/full", {"question": LONG}),
    "gerbil_too_long": _post("/gerbil", f"query={LONG}&lang=en".encode()),
    "ask_too_long": _form("/api/ask", {"question": LONG, "log": "off"}),
    "empty_question": _get("/api/qa/full", {"question": "  "}),
    "gerbil_not_qald": _post("/gerbil", b"<xml/>"),
    "invalid_utf8": _post("/gerbil", b"query=Berlin \xff\xfe\xed?&lang=en"),
    "nul_question": _post("/gerbil", b"query=Wh\x00ere is Berlin?&lang=e\x00n"),
    "unknown_kb": _get("/api/qa/full", {"question": "Berlin?", "kb": "dbpedia"}),
    "huge_body": _post("/gerbil", b"query=" + b"a" * 200_000),
    "huge_query_string": _get("/api/qa/full", {"question": "b" * 60_000}),
    "bad_host": _get("/health", {}, {"Host": "evil.example"}),
    "forged_forwarded_for": _get("/api/qa/full", {"question": "x"},
                                 {"X-Forwarded-For": "1.2.3.4, junk, ::ffff:9.9.9.9"}),
    "upload": lambda c, t: c.post(t.url + "/upload", files={"files": ("a.bin", b"x" * 1000)}).status_code,
    "wrong_method": lambda c, t: c.put(t.url + "/gerbil", content=b"query=x").status_code,
    "sparql_injection": _post("/gerbil", b"query=Berlin } ; DROP ALL ; SERVICE <http://127.0.0.1:9/> "
                                         b"{ ?s ?p ?o } #\r&lang=en"),
    "malformed_http": lambda c, t: _raw(t, b"GARBAGE / HTTP/9.9\r\n\r\n"),
    "short_body": lambda c, t: _raw(t, b"POST /gerbil HTTP/1.1\r\n" + _host(t) + b"Content-Length: 500\r\n\r\nq=",
                                    wait_s=30),
    "slow_headers": lambda c, t: _raw(t, b"GET /health HTTP/1.1\r\n" + _host(t) + b"X-Slow: a", wait_s=30),
}
"""Each bad kind: ``(client, target) -> status`` (0: closed without a reply)."""

NORMAL = ("query=What is the capital of Germany?&lang=en", "Q64")
"""A normal question (``/gerbil`` body) and an id its answer holds over the tiny KG."""


HELD = frozenset({"short_body", "slow_headers"})
"""Kinds that hold a connection until the server's header or body deadline: sent all at once."""


def abuse(target: Target, times: int = 20, *, kinds: dict[str, Send] | None = None,
          timeout_s: float = 60.0) -> Counter[tuple[str, int]]:
    """Send ``times`` requests of every kind (one after the other; the connection-holding
    kinds all at once); returns ``(kind, status)`` counts."""
    seen: Counter[tuple[str, int]] = Counter()
    lock = threading.Lock()

    def send_one(client: httpx.Client, name: str, send: Send) -> None:
        try:
            status = send(client, target)
        except (httpx.HTTPError, OSError):
            status = 0
        with lock:
            seen[(name, status)] += 1

    with httpx.Client(timeout=timeout_s) as client:
        for name, send in (kinds or KINDS).items():
            if name in HELD:
                threads = [threading.Thread(target=send_one, args=(client, name, send)) for _ in range(times)]
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join()
            else:
                for _ in range(times):
                    send_one(client, name, send)
    return seen


def ask_normal(target: Target, timeout_s: float = 60.0) -> tuple[int, bool, float]:
    """One normal question on ``/gerbil``: (status, whether its answer is the expected one,
    seconds it took)."""
    body, expected = NORMAL
    started = time.perf_counter()
    reply = httpx.post(target.url + "/gerbil", content=body.encode(), timeout=timeout_s)
    took = time.perf_counter() - started
    return reply.status_code, expected in reply.text, took


def start_serve(source: Path, cache: Path, port: int, log_path: Path, *, wait_s: float = 180.0,
                kg_endpoint: str | None = None) -> subprocess.Popen:
    """A real ``kgqa serve`` on ``port`` (2 workers, no validator, rate limit off so that every
    bad request reaches the pipeline), returned once ``/health`` says ok; raises
    :class:`RuntimeError` with its error output when it exits or never comes up.  With
    ``kg_endpoint`` it reads the KG from that SPARQL endpoint (``--kg-endpoint``; ``source``
    then need not exist: nothing KG-derived is read locally)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("KGQA_")}
    endpoint = ["--kg-endpoint", kg_endpoint] if kg_endpoint else []
    proc = subprocess.Popen([sys.executable, "-m", "cli.main", "serve", "--no-validator", "--rate-limit", "0",
                             "--kg-source", str(source), *endpoint, "--cache-dir", str(cache), "--port", str(port),
                             "--log-path", str(log_path)], cwd=PROJECT_ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"kgqa serve exited with {proc.returncode}: "
                               + (proc.stderr.read().decode(errors="replace") if proc.stderr else ""))
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    proc.kill()
    raise RuntimeError("kgqa serve never came up")
