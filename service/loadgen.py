"""A load generator for the chat app: N concurrent sessions, each asking its questions
one after the other through Gradio's HTTP API (``/gradio_api/call/ask``, the chat's
programmatic endpoint, which logs and renders exactly like the chat).

A turn is *acknowledged* when the app's ``complete`` event with the answer arrives;
the app commits the turn to the session log before it answers, so every acknowledged
turn must be in the SQLite log.  :func:`missing_turns` checks that.  Used by
``benchmarks/load.py`` and the kill -9 test.
"""

from __future__ import annotations

import json
import math
import random
import re
import socket
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from qa.reading.detect import clean_question
from service.session_log import SessionLog

_REFUSED = re.compile(r"kgqa-status-(rate_limited|busy)\b")
"""The status class of the chat's answer to a refused question."""


class LoadError(Exception):
    """A chat request failed (HTTP error, error event, timeout, malformed stream)."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_up(url: str, timeout_s: float, proc: subprocess.Popen | None = None, *, every_s: float = 0.2,
                  request_timeout_s: float = 2.0) -> bool:
    """Poll ``url`` every ``every_s`` until it answers 200 (``True``) or ``timeout_s`` passes
    (``False``); :class:`LoadError` when ``proc`` exits first."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise LoadError(f"the process exited with status {proc.returncode} before {url} answered")
        try:
            if httpx.get(url, timeout=request_timeout_s).status_code == 200:
                return True
        except httpx.HTTPError:
            pass
        time.sleep(every_s)
    return False


@dataclass
class TurnResult:
    """One question of one session."""

    session: int
    index: int
    question: str
    lang: str
    ok: bool
    latency_s: float
    error: str | None = None
    refused: bool = False  # answered "busy" / "slow down": counted by the app, not logged as a turn


@dataclass
class LoadReport:
    """All turns of a load run, plus derived figures."""

    results: list[TurnResult] = field(default_factory=list)
    wall_s: float = 0.0
    started_at: float = 0.0
    think_s: tuple[float, float] | None = None

    @property
    def acknowledged(self) -> list[TurnResult]:
        """Turns whose answer arrived."""
        return [r for r in self.results if r.ok]

    @property
    def errors(self) -> list[TurnResult]:
        """Turns that failed."""
        return [r for r in self.results if not r.ok]

    def percentile(self, q: float) -> float | None:
        """Nearest-rank percentile (``q`` in 0..100) of acknowledged latencies, seconds."""
        values = sorted(r.latency_s for r in self.acknowledged)
        if not values:
            return None
        rank = max(1, min(len(values), math.ceil(q / 100 * len(values))))
        return values[rank - 1]

    def summary(self) -> dict[str, object]:
        """The figures the benchmark prints."""
        acked = self.acknowledged
        return {
            "think_s": list(self.think_s) if self.think_s else 0,
            "turns": len(self.results), "acknowledged": len(acked), "errors": len(self.errors),
            "p50_s": _round(self.percentile(50)), "p95_s": _round(self.percentile(95)),
            "max_s": _round(max((r.latency_s for r in acked), default=None)),
            "wall_s": round(self.wall_s, 2),
            "throughput_per_s": round(len(acked) / self.wall_s, 2) if self.wall_s else None,
        }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


class ChatClient:
    """One chat session over Gradio's HTTP API (its own connection pool)."""

    def __init__(self, base_url: str, *, timeout_s: float = 120.0, api_name: str = "ask") -> None:
        self.base_url = base_url.rstrip("/")
        self.api_name = api_name
        self._client = httpx.Client(timeout=httpx.Timeout(timeout_s, connect=10.0))

    def close(self) -> None:
        """Close the connection pool."""
        self._client.close()

    def ask(self, question: str, lang: str = "auto") -> str:
        """The answer (HTML) for ``question``; raises :class:`LoadError`."""
        url = f"{self.base_url}/gradio_api/call/{self.api_name}"
        try:
            joined = self._client.post(url, json={"data": [question, lang]})
            joined.raise_for_status()
            event_id = joined.json()["event_id"]
            with self._client.stream("GET", f"{url}/{event_id}") as stream:
                stream.raise_for_status()
                return _read_sse(stream.iter_lines())
        except httpx.HTTPError as exc:
            raise LoadError(f"{type(exc).__name__}: {exc}") from exc
        except (KeyError, ValueError) as exc:
            raise LoadError(f"malformed reply: {exc}") from exc


def _read_sse(lines) -> str:
    event = None
    for line in lines:
        if line.startswith("event:"):
            event = line[len("event:"):].strip()
        elif line.startswith("data:") and event in ("complete", "error"):
            data = line[len("data:"):].strip()
            if event == "error":
                raise LoadError(f"app reported an error: {data[:200]}")
            outputs = json.loads(data)
            if not outputs or not isinstance(outputs[0], str):
                raise LoadError(f"unexpected outputs: {data[:200]}")
            return outputs[0]
    raise LoadError("stream ended without a complete event")


Script = Sequence[Sequence[tuple[str, str]]]
"""Per session, its (question, lang) pairs in order."""


def run_load(base_url: str, script: Script, *, timeout_s: float = 120.0,
             on_result: Callable[[TurnResult], None] | None = None,
             think_s: tuple[float, float] | None = None, seed: int = 0) -> LoadReport:
    """Run every session of ``script`` concurrently (one thread each); each session asks
    its next question when the previous answer arrived (or failed).

    Without ``think_s`` the sessions ask back to back (a closed-loop stress test).  With
    ``think_s=(lo, hi)`` a session waits a uniform ``lo..hi`` seconds (seeded per session)
    after each answer before its next question, like a person reading the answer and
    typing, and the sessions start spread over the first ``hi`` seconds.  Latencies never
    include think time.
    """
    report = LoadReport(started_at=time.time(), think_s=think_s)
    lock = threading.Lock()

    def session(index: int, turns: Sequence[tuple[str, str]]) -> None:
        client = ChatClient(base_url, timeout_s=timeout_s)
        rng = random.Random(f"{seed}:{index}")
        try:
            if think_s is not None:
                time.sleep(rng.uniform(0.0, think_s[1]))
            for i, (question, lang) in enumerate(turns):
                if think_s is not None and i > 0:
                    time.sleep(rng.uniform(*think_s))
                t0 = time.perf_counter()
                try:
                    html = client.ask(question, lang)
                    result = TurnResult(index, i, question, lang, True, time.perf_counter() - t0,
                                        refused=_REFUSED.search(html) is not None)
                except LoadError as exc:
                    result = TurnResult(index, i, question, lang, False, time.perf_counter() - t0, str(exc))
                with lock:
                    report.results.append(result)
                if on_result is not None:
                    on_result(result)
        finally:
            client.close()

    started = time.perf_counter()
    threads = [threading.Thread(target=session, args=(i, turns), daemon=True) for i, turns in enumerate(script)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    report.wall_s = time.perf_counter() - started
    return report


def logged_questions(log_path: Path, since_epoch: float) -> Counter[str]:
    """Questions of turns logged at or after ``since_epoch`` (a multiset)."""
    from datetime import UTC, datetime


    since = datetime.fromtimestamp(since_epoch - 1, UTC).isoformat(timespec="milliseconds")
    with SessionLog(log_path) as log:
        return Counter(t["question"] for t in log.turns() if t["created_at"] >= since)


def missing_turns(report: LoadReport, log_path: Path, max_chars: int = 100_000) -> list[TurnResult]:
    """Acknowledged turns with no matching row in the session log (should be empty); refused
    questions (rate limited, busy) are counted by the app, not logged, and not looked for."""
    logged = logged_questions(log_path, report.started_at)
    missing = []
    for result in report.acknowledged:
        if result.refused:
            continue
        key = clean_question(result.question, max_chars)
        if logged[key] > 0:
            logged[key] -= 1
        else:
            missing.append(result)
    return missing
