"""Every query on the embedded store bounded in time and memory, and without network.

pyoxigraph has no query timeout and no way to cancel a running query, and its ``SERVICE``
client calls any URL.  :class:`BoundedStore` therefore runs queries in a small pool of
worker processes (:mod:`kg.query_worker`), each with the store opened read-only, an
address-space limit (``RLIMIT_AS``, :data:`DEFAULT_MEMORY_BYTES`) and a seccomp filter
that refuses Internet sockets.  A query that runs past its deadline has its worker
killed (:class:`KGTimeout`); one that runs past the memory limit ends its worker
(:class:`KGQueryError`); either way a fresh worker replaces it, started on demand, while
the others keep answering.  The pool is kept between queries, so a query costs one
round trip over a pipe, not a process start (``benchmarks/bounded_queries.py``).

A pool belongs to the process that made it: after a ``fork`` (``kgqa serve``'s workers)
the child starts its own workers instead of sharing the parent's pipes.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import logging
import os
import select
import subprocess
import sys
import threading
import time
import weakref
from pathlib import Path

from core.errors import KGQueryError, KGTimeout, KGUnavailable
from kg.client import EmbeddedKG, QueryResult, Term
from kg.store import KGPaths, open_store

log = logging.getLogger(__name__)

DEFAULT_MEMORY_BYTES = 1 << 30
"""The address space a query worker may use (1 GiB)."""
DEFAULT_WORKERS = 2
STARTUP_S = 30.0
"""How long a worker may take to start and open the store (not counted in a query's deadline)."""
MAX_REPLY_BYTES = 64 << 20
WORKER_SCRIPT = Path(__file__).with_name("query_worker.py")


class _Worker:
    """One query worker process and its pipes."""

    def __init__(self, store_dir: Path, memory_bytes: int) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-I", str(WORKER_SCRIPT), str(store_dir), str(memory_bytes)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.ready = False
        self.no_network = False
        self._buffer = b""

    def start(self, deadline: float) -> None:
        """Wait for the worker's hello."""
        hello = self.read(max(deadline, time.monotonic() + STARTUP_S))
        self.ready = True
        self.no_network = bool(hello.get("no_network"))
        if not self.no_network:
            log.warning("query worker %d could not refuse network access (seccomp unavailable)", self.process.pid)

    def send(self, request: dict) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(request).encode() + b"\n")
        self.process.stdin.flush()

    def read(self, deadline: float) -> dict:
        """The next reply; raises :class:`TimeoutError` past ``deadline``, :class:`EOFError`
        when the worker is gone, :class:`OverflowError` for an oversized reply."""
        assert self.process.stdout is not None
        fd = self.process.stdout.fileno()
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                raise EOFError
            self._buffer += chunk
            if len(self._buffer) > MAX_REPLY_BYTES:
                raise OverflowError
        line, _, self._buffer = self._buffer.partition(b"\n")
        return json.loads(line)

    def peak_rss_bytes(self) -> int:
        """The process's peak resident memory so far (``VmHWM``; 0 once it is gone)."""
        try:
            status = Path(f"/proc/{self.process.pid}/status").read_text()
        except OSError:
            return 0
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
        return 0

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            log.warning("query worker %d did not exit after SIGKILL", self.process.pid)
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()


_POOLS: weakref.WeakSet[BoundedStore] = weakref.WeakSet()


class BoundedStore:
    """A pool of at most ``workers`` query workers on the store at ``store_dir``."""

    def __init__(self, store_dir: Path, *, memory_bytes: int = DEFAULT_MEMORY_BYTES,
                 workers: int = DEFAULT_WORKERS) -> None:
        self.store_dir = Path(store_dir)
        self.memory_bytes = memory_bytes
        self.size = workers
        self._lock = threading.Condition()
        self._idle: list[_Worker] = []
        self._running = 0
        self._pid = os.getpid()
        self.killed = 0  # workers ended on a deadline or a limit (for the benchmark and tests)
        self._peak_rss = 0  # the highest peak memory of a worker read before it was ended
        _POOLS.add(self)

    def query(self, sparql: str, *, timeout_s: float, max_rows: int | None = None) -> QueryResult:
        """Run ``sparql`` in a worker under ``timeout_s`` seconds; raises :class:`KGTimeout`,
        :class:`KGQueryError` (bad query, memory limit) or :class:`KGUnavailable`."""
        deadline = time.monotonic() + timeout_s
        worker = self._acquire(deadline)
        if not worker.ready:
            try:
                worker.start(deadline)
            except (TimeoutError, EOFError, OverflowError, ValueError, OSError) as exc:
                code = worker.process.poll()
                self._discard(worker)
                raise KGUnavailable(f"a query worker could not start on {self.store_dir} "
                                    f"({type(exc).__name__}, exit {code})") from exc
            deadline = time.monotonic() + timeout_s  # the query's own time starts once its worker is up
        try:
            worker.send({"sparql": sparql, "max_rows": max_rows})
            reply = worker.read(deadline)
        except TimeoutError as exc:
            self._discard(worker)
            raise KGTimeout(f"query exceeded {timeout_s}s (its worker was stopped)") from exc
        except (EOFError, BrokenPipeError, OverflowError, ValueError) as exc:
            code = worker.process.poll()
            self._discard(worker)
            raise KGQueryError(f"query stopped: its worker ended ({type(exc).__name__}, exit {code}): "
                               "past the memory limit or the reply size") from exc
        except OSError as exc:
            self._discard(worker)
            raise KGUnavailable(f"query worker failed: {exc}") from exc
        self._release(worker)
        return _result(reply)

    def peak_rss_bytes(self) -> int:
        """The highest peak resident memory of any worker so far: the idle ones now, the ones
        ended on a deadline when they were (a worker ended by its memory limit stayed under it)."""
        with self._lock:
            return max([self._peak_rss, *(w.peak_rss_bytes() for w in self._idle)])

    def close(self) -> None:
        """Stop every idle worker (busy ones stop when their query ends or the process exits)."""
        with self._lock:
            idle, self._idle = self._idle, []
        for worker in idle:
            worker.kill()

    # ------------------------------------------------------------------ the pool

    def _acquire(self, deadline: float) -> _Worker:
        with self._lock:
            if os.getpid() != self._pid:  # forked: the parent's workers are not ours to talk to
                self._idle, self._running, self._pid = [], 0, os.getpid()
            while True:
                if self._idle:
                    worker = self._idle.pop()
                    if worker.process.poll() is None:
                        self._running += 1
                        return worker
                    worker.kill()
                    continue
                if self._running < self.size:
                    self._running += 1
                    try:
                        return _Worker(self.store_dir, self.memory_bytes)
                    except OSError as exc:
                        self._running -= 1
                        raise KGUnavailable(f"cannot start a query worker: {exc}") from exc
                left = deadline - time.monotonic()
                if left <= 0:
                    raise KGTimeout("every query worker stayed busy past the deadline")
                self._lock.wait(left)

    def _release(self, worker: _Worker) -> None:
        with self._lock:
            self._running -= 1
            self._idle.append(worker)
            self._lock.notify()

    def _discard(self, worker: _Worker) -> None:
        peak = worker.peak_rss_bytes()
        worker.kill()
        with self._lock:
            self._running -= 1
            self.killed += 1
            self._peak_rss = max(self._peak_rss, peak)
            self._lock.notify()


def open_bounded(paths: KGPaths, *, default_timeout_s: float = 5.0, memory_bytes: int = DEFAULT_MEMORY_BYTES,
                 workers: int = DEFAULT_WORKERS) -> EmbeddedKG:
    """The built store at ``paths`` as a KG whose every query runs in a :class:`BoundedStore`."""
    store = open_store(paths)
    return EmbeddedKG(store, default_timeout_s,
                      runner=BoundedStore(paths.store, memory_bytes=memory_bytes, workers=workers))


def _result(reply: dict) -> QueryResult:
    error = reply.get("error")
    if error == "syntax":
        raise KGQueryError(f"bad SPARQL: {reply.get('detail')}")
    if error is not None:
        raise KGQueryError(f"query failed ({error}): {reply.get('detail')}")
    if "boolean" in reply:
        return QueryResult(boolean=bool(reply["boolean"]))
    names = list(reply["vars"])
    rows = [{n: Term(*cell) for n, cell in zip(names, row, strict=True) if cell is not None} for row in reply["rows"]]
    return QueryResult(vars=names, rows=rows)


@atexit.register
def _close_all() -> None:
    for pool in list(_POOLS):
        if pool._pid == os.getpid():
            pool.close()
