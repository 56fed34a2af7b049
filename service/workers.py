"""Answer questions in worker processes.

In one process, questions answered at the same time share one interpreter lock: the
backend's Python code, the KG store (which releases the lock for every row it returns)
and the cross-encoder (which releases it for every tensor operation) hand the lock back
and forth, and each hand-over can wait a whole switch interval.  :class:`WorkerPipeline`
gives every concurrently answered question its own process instead: ``workers``
processes, each holding its own :class:`~qa.pipeline.Pipeline` built from the same
:class:`~core.settings.Settings` (the embedded store opens read-only in each), each
answering one question at a time.  The calling process keeps the UI, rendering and the
session log.

:class:`WorkerPipeline` has what the chat needs of a pipeline (``answer``,
``validator_state``, ``threshold``, ``max_question_chars``, ``backend.name``).  A worker
that dies while answering gives a ``service_error`` turn ("service unavailable, try
again") and is replaced in the background (one found dead while idle is replaced without
failing a question); an unexpected exception inside a worker gives
an ``error`` turn.  Workers exit when the calling process goes away (their pipe closes).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import queue
import signal
import threading
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from core.settings import Settings
from kg.build import build_kg
from qa.detect import SUPPORTED_LANGUAGES, warm_up
from qa.pipeline import Pipeline
from qa.turn import Status, Turn
from service.factory import build_pipeline

log = logging.getLogger(__name__)

WARM_UP_QUESTION = "What is the capital of Germany?"


def build_warm_pipeline(settings: Settings) -> Pipeline:
    """:func:`service.factory.build_pipeline` without random weight initialization, then warmed up.

    The validator builds its network and then loads every weight into it (a strict
    ``load_state_dict``), so the random initialization of the freshly built network
    (mostly the 250k x 384 word embeddings) is thrown away: about 5 s of startup on two
    cores.  ``no_init_weights`` skips it while the pipeline is built.  Warming up loads
    the language detectors, builds the backend's per-language text patterns and answers
    one question (lazy models), so that the first users do not pay for it.
    """

    pipeline = _build(settings)
    warm_up()
    pipeline.backend.warm_up(SUPPORTED_LANGUAGES)  # e.g. per-language text patterns, else built by the first questions
    pipeline.answer(WARM_UP_QUESTION)
    return pipeline


def _build(settings: Settings) -> Pipeline:

    if not settings.validator:
        return build_pipeline(settings)
    try:
        from transformers.initialization import no_init_weights
    except ImportError:  # another transformers layout: build as usual
        return build_pipeline(settings)
    with no_init_weights():
        return build_pipeline(settings)


def share_cores(questions_at_once: int) -> int:
    """Give each of ``questions_at_once`` questions answered at once (in this process or
    in one worker each) its share of the cores for the validator's forward pass; returns
    the torch threads per forward pass.  (torch's default, one thread per core for every
    call, oversubscribes the cores as soon as two questions run together.)"""
    import torch

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    torch.set_num_threads(max(1, cores // max(1, questions_at_once)))
    return torch.get_num_threads()


@dataclass(frozen=True)
class _BackendInfo:
    name: str


@dataclass
class _Worker:
    process: Any  # multiprocessing.Process (of the spawn context)
    conn: Connection


def _worker_main(conn: Connection, settings: Settings, questions_at_once: int) -> None:
    """A worker process: build and warm a pipeline, report, then answer until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the app; the worker follows when its pipe closes
    try:
        if settings.validator:
            share_cores(questions_at_once)
        pipeline = build_warm_pipeline(settings)
    except Exception as exc:  # reported to the parent, which fails to start
        log.exception("worker could not build its pipeline")
        conn.send(("failed", f"{type(exc).__name__}: {exc}"))
        return
    conn.send(("ready", {"validator_state": pipeline.validator_state, "threshold": pipeline.threshold,
                         "max_question_chars": pipeline.max_question_chars,
                         "backend": pipeline.backend.name}))
    while True:
        try:
            question, lang, use_validator, question_lang = conn.recv()
        except (EOFError, OSError):  # the app went away
            return
        try:
            reply: tuple[str, Any] = ("turn", pipeline.answer(question, lang, use_validator=use_validator,
                                                                      question_lang=question_lang))
        except Exception as exc:  # a bug: reported as an error turn, the worker keeps serving
            log.exception("worker failed on a question")
            reply = ("error", f"{type(exc).__name__}: {exc}")
        try:
            conn.send(reply)
        except OSError:  # the app went away while this question was answered
            return


class WorkerStartError(RuntimeError):
    """A worker process could not build its pipeline."""


class WorkerPipeline:
    """``workers`` processes, each answering with its own pipeline built from ``settings``.

    :meth:`answer` blocks until a worker is free (at most ``wait_s``), so callers may
    outnumber workers.  Construction starts every worker and waits until all are warm
    (raises :class:`WorkerStartError` when one fails)."""

    def __init__(self, settings: Settings, workers: int = 2, *, wait_s: float = 120.0,
                 start_timeout_s: float = 900.0) -> None:
        if workers < 1:
            raise ValueError("need at least one worker")
        self.settings = settings
        self.workers = workers
        self.wait_s = wait_s
        self.start_timeout_s = start_timeout_s
        self._ctx = multiprocessing.get_context("spawn")
        self._idle: queue.Queue[_Worker] = queue.Queue()
        self._all: list[_Worker] = []
        self._lock = threading.Lock()
        self._closed = False
        _prepare_kg(settings)  # build the store/label index once, not once per worker
        started = [self._spawn() for _ in range(workers)]
        try:
            infos = [self._await_ready(w) for w in started]
        except WorkerStartError:
            self.close()
            raise
        info = infos[0]
        self.validator_state: str = info["validator_state"]
        self.threshold: float = info["threshold"]
        self.max_question_chars: int = info["max_question_chars"]
        self.backend = _BackendInfo(info["backend"])
        for w in started:
            self._idle.put(w)

    # ------------------------------------------------------------------ answering

    def answer(self, question: str | None, lang: str | None = None, *, use_validator: bool = True,
               question_lang: str | None = None) -> Turn:
        """Answer ``question`` in a free worker (same contract as :meth:`Pipeline.answer`)."""
        started = time.perf_counter()
        worker = self._free_worker()
        if worker is None:
            return self._unavailable(question, lang, "no worker process became free", started)
        try:
            worker.conn.send((question, lang, use_validator, question_lang))
            kind, payload = worker.conn.recv()
        except (EOFError, OSError) as exc:
            log.error("worker process %s died while answering: %s", worker.process.pid, exc)
            self._replace(worker)
            return self._unavailable(question, lang, "worker process exited", started)
        self._idle.put(worker)
        if kind == "turn":
            return payload
        return self._failed(question, lang, Status.ERROR, f"worker: {payload}", started)

    def _free_worker(self) -> _Worker | None:
        """The next idle live worker (one that died while idle is replaced), or ``None``
        after ``wait_s``."""
        deadline = time.monotonic() + self.wait_s
        while True:
            try:
                worker = self._idle.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                return None
            if worker.process.is_alive():
                return worker
            log.error("worker process %s died while idle (status %s)", worker.process.pid, worker.process.exitcode)
            self._replace(worker)

    def _unavailable(self, question: str | None, lang: str | None, why: str, started: float) -> Turn:
        return self._failed(question, lang, Status.SERVICE_ERROR, f"WorkerUnavailable: {why}", started)

    def _failed(self, question: str | None, lang: str | None, status: Status, error: str, started: float) -> Turn:
        ui = lang if lang in SUPPORTED_LANGUAGES else "en"
        turn = Turn.unanswered(question or "", ui, status, error=error, validator=self.validator_state,
                               backend=self.backend.name, message_args={"limit": self.max_question_chars})
        turn.timings_ms["total"] = round((time.perf_counter() - started) * 1000, 1)
        return turn

    # ------------------------------------------------------------------ processes

    def _spawn(self) -> _Worker:
        parent, child = self._ctx.Pipe()
        process = self._ctx.Process(target=_worker_main, args=(child, self.settings, self.workers),
                                    name="kgqa-worker", daemon=True)
        process.start()
        child.close()
        worker = _Worker(process, parent)
        with self._lock:
            self._all.append(worker)
        return worker

    def _await_ready(self, worker: _Worker) -> dict[str, Any]:
        try:
            if not worker.conn.poll(self.start_timeout_s):
                raise WorkerStartError(f"worker did not start within {self.start_timeout_s:g}s")
            kind, payload = worker.conn.recv()
        except (EOFError, OSError) as exc:
            raise WorkerStartError(f"worker exited while starting (status {worker.process.exitcode})") from exc
        if kind != "ready":
            raise WorkerStartError(f"worker could not build its pipeline: {payload}")
        return payload

    def _replace(self, dead: _Worker) -> None:
        """Forget ``dead`` and start a replacement in the background."""
        with self._lock:
            if dead in self._all:
                self._all.remove(dead)
        dead.conn.close()
        dead.process.join(timeout=1)

        def start() -> None:
            if self._closed:
                return
            worker = self._spawn()
            try:
                self._await_ready(worker)
            except WorkerStartError as exc:
                log.error("replacement worker failed: %s", exc)
                return
            self._idle.put(worker)

        threading.Thread(target=start, name="kgqa-worker-restart", daemon=True).start()

    def pids(self) -> list[int]:
        """Process ids of the live workers."""
        with self._lock:
            return [w.process.pid for w in self._all if w.process.is_alive()]

    def close(self) -> None:
        """Stop every worker."""
        self._closed = True
        with self._lock:
            workers, self._all = self._all, []
        for w in workers:
            w.conn.close()
        for w in workers:
            w.process.join(timeout=5)
            if w.process.is_alive():
                w.process.kill()
                w.process.join(timeout=5)

    def __enter__(self) -> WorkerPipeline:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _prepare_kg(settings: Settings) -> None:
    """Build the embedded store and label index when missing (before the workers start)."""
    if settings.kg_endpoint:
        return

    build_kg(settings.kg_source, settings.cache_dir, progress=False)
