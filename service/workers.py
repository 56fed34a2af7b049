"""Answer questions in worker processes forked from one loaded pipeline.

In one process, questions answered at the same time share one interpreter lock, so
:class:`WorkerPipeline` gives every concurrently answered question its own process.

Loading happens once.  The calling process (the chat UI, ``kgqa serve``) starts a
*template* process at once (a fresh interpreter: nothing of the caller's threads or
state comes along, and the caller goes on loading its UI meanwhile); the template builds
and warms one :class:`~qa.pipeline.Pipeline` (store handle, label index, lexicon, model
weights) with the garbage collector paused (:func:`core.memory.loading`: what it built
ends up frozen, ``gc.freeze()``), gives the heap pages that loading freed back to the
system, and then forks the ``workers``: they share everything it loaded copy-on-write.
A worker that has answered and gets no new request within :data:`IDLE_S` gives back what
its question freed (the forward pass's buffers, query results).  The template stays
single-threaded (ONNX Runtime runs one thread there; a thread pool started before ``fork``
would hang the workers' own), so forking a replacement later is safe and takes
milliseconds.  Each worker's pipe is handed to the calling process over the template's
control socket.

Early start (``early=True``: the chat and ``kgqa serve``): the template reports ready
before its warm-up question and lingua's n-gram models (3-4 s of CPU under the interpreter
lock, about 290 MB), so the first workers answer as a cold process does; once no question
has waited for :data:`QUIET_S`, the parent asks it to load them (``warm``), and then
replaces those workers by forks that share them; the answers are the same either way.

Until the template is ready, :meth:`WorkerPipeline.answer` waits (the chat shows the UI
at once with a "starting…" notice; see :attr:`WorkerPipeline.ready`).

Deadlines: a question not answered within ``deadline_s`` is stopped by killing its
worker (the embedded store cannot cancel a running query) and, once it is gone, forking
a replacement; the question gets "service unavailable".  A worker that dies while
answering gives the same; one found dead while idle is replaced without failing a
question; an unexpected exception inside a worker gives an ``error`` turn.

Lifetime: the template and the workers die with their parent, by ``SIGTERM``,
``SIGKILL`` or Ctrl-C: each sets ``PR_SET_PDEATHSIG`` (Linux), and each also exits when its
pipe to the parent closes.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import gc
import logging
import multiprocessing
import os
import pickle
import queue
import signal
import sys
import threading
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.reduction import recv_handle, send_handle
from typing import TYPE_CHECKING, Any

from core.errors import BackendUnavailable, KGError, KGQAError, KGUnavailable, error_from_data, error_to_data
from core.memory import loading, release_free_memory
from core.settings import Settings
from qa.turn import Status, Turn

if TYPE_CHECKING:  # the pipeline's modules load in the template process only: the caller serves meanwhile
    from qa.context import Context
    from qa.pipeline import Generated, Pipeline

log = logging.getLogger(__name__)

WARM_UP_QUESTION = "What is the capital of Germany?"
QUIET_S = 0.3
"""Early start: the template warms up (seconds of CPU) once no question has waited or been
answered for this long..."""
WARM_WITHIN_S = 10.0
"""... or this long after the workers are ready, whichever comes first."""
DEFAULT_WORKERS = 2
"""Worker processes of the chat and of ``kgqa serve`` (questions answered at once)."""
DEFAULT_DEADLINE_S = 30.0
"""How long one question may take in a worker before the worker is killed and replaced."""
IDLE_S = 0.05
"""A worker without a new request this long after its reply is idle: it gives the heap
memory its question freed back to the system (under load the next request is waiting
already, and the pages stay for it)."""
KILL_WAIT_S = 5.0
"""How long a killed worker is given to be gone before its replacement is forked (its
memory is freed first; a busy machine takes a moment to tear down a loaded process)."""
_PR_SET_PDEATHSIG = 1


def die_with_parent(sig: int = signal.SIGKILL) -> None:
    """Ask Linux to send ``sig`` to this process when the thread that forked it exits
    (``prctl(PR_SET_PDEATHSIG)``); a no-op elsewhere (the pipes still end the process)."""
    if not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_PDEATHSIG, sig, 0, 0, 0) != 0:
        log.warning("prctl(PR_SET_PDEATHSIG) failed: errno %d", ctypes.get_errno())


def build_warm_pipeline(settings: Settings) -> Pipeline:
    """:func:`service.factory.build_pipeline` (a configured validator that cannot load raises
    :class:`~core.errors.ModelLoadError`), then warmed up: the language detectors are
    loaded and one question is answered (lazy models), so that the first users do not pay
    for it."""
    from service.factory import build_pipeline

    pipeline = build_pipeline(settings, require_validator=True)  # a service never answers without it
    warm(pipeline)
    return pipeline


def warm(pipeline: Pipeline, *, lingua: bool = True, question: bool = True) -> None:
    """What a service does before its first user: load the language detectors (lingua's
    n-gram models only with ``lingua``) and answer one question (lazy models; only with
    ``question``), then move every object made so far (tables, models, the
    store's handles) out of the garbage collector's sight (:func:`gc.freeze`): a collection
    of the oldest generation otherwise walks them all, hundreds of milliseconds in the
    question that triggers it (``benchmarks/stage_latency.py`` prints the collector's time).
    ``benchmarks/trust.py`` and ``stage_latency.py`` time questions after it, as a user of
    the chat or of ``kgqa serve`` meets them."""
    from qa.reading.detect import warm_up

    warm_up(lingua=lingua)
    if question:
        _ask_warm_up(pipeline)
    gc.collect()
    gc.freeze()


def _ask_warm_up(pipeline: Pipeline) -> None:
    """Answer :data:`WARM_UP_QUESTION` (the lazy models load); a failure is logged, never raised."""
    try:
        pipeline.answer(WARM_UP_QUESTION)
    except Exception:  # an upstream's reply the pipeline did not foresee: the service still starts
        log.exception("the warm-up question failed; serving anyway")


def share_cores(questions_at_once: int) -> int:
    """Give each of ``questions_at_once`` questions answered at once in this process its
    share of the cores for the validator's forward pass (ONNX Runtime sessions created from
    now on); returns the threads per forward pass.  (One thread per core for every call
    oversubscribes the cores as soon as two questions run together.)"""
    from validator.inference import default_threads, set_threads

    threads = max(1, default_threads() // max(1, questions_at_once))
    set_threads(threads)
    return threads


@dataclass(frozen=True)
class _BackendInfo:
    name: str


@dataclass
class _Worker:
    pid: int
    conn: Connection
    busy_since: float | None = None
    generation: int = 0  # 1: forked after the template loaded lingua's models (early start)


# ---------------------------------------------------------------------- the template process


def _template_main(control: Connection, settings: Settings, questions_at_once: int, early: bool = False) -> None:
    """Build and warm one pipeline, report, then fork a worker for each ``spawn`` request.

    ``early``: report ready before the warm-up question and lingua's n-gram models (3-4 s of
    CPU); when the parent asks (``warm``: its first workers are forked and no question is
    waiting), load them, report ``upgraded`` (whether they loaded), and fork every later
    worker with them (the parent replaces the earlier ones)."""
    die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the app; the template follows it
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # workers are reaped by the kernel
    from service.factory import build_pipeline  # the pipeline's modules: here only, not in the caller
    try:
        # no collections while loading, then frozen: the workers' collections never touch it;
        # not collected first (Python's advice for forking; its cyclic garbage is 1-2 MB, a
        # collection of the whole pipeline 0.3 s)
        with loading():
            if settings.validator:
                from validator.inference import set_threads

                set_threads(1)  # no thread pool before fork: each worker runs its forward pass on one core
            _prepare_kg(settings)
            pipeline = build_pipeline(settings, require_validator=True)  # a service never answers without it
            warm(pipeline, lingua=not early, question=not early)
    except KGQAError as exc:  # a named fault (a corrupt model or cache): one line, reported to the parent
        log.error("could not build the pipeline: %s: %s", type(exc).__name__, exc)
        control.send(("failed", error_to_data(exc)))
        return
    except Exception as exc:  # reported to the parent, which fails to start
        log.exception("could not build the pipeline")
        control.send(("failed", error_to_data(exc)))
        return
    release_free_memory()  # what loading freed is not handed to the workers as shared, unused pages
    control.send(("ready", {"validator_state": pipeline.validator_state, "threshold": pipeline.threshold,
                            "max_question_chars": pipeline.max_question_chars,
                            "backend": pipeline.backend.name}))
    while True:
        try:
            request = control.recv()
        except (EOFError, OSError):  # the parent went away
            os._exit(0)
        if request == "warm" and early:  # the first workers answer and none is asked: load the rest now
            early = False
            try:
                control.send(("upgraded", _warm_later(pipeline)))  # False: the workers stay as they are
            except OSError:
                os._exit(0)
            continue
        if request != "spawn":
            continue
        ours, theirs = multiprocessing.Pipe()
        pid = os.fork()
        if pid == 0:
            control.close()
            ours.close()
            _worker_main(theirs, pipeline, settings, questions_at_once)
            os._exit(0)
        theirs.close()
        try:
            control.send(("spawned", pid))
            send_handle(control, ours.fileno(), os.getppid())
        except OSError:
            os._exit(0)
        ours.close()


def _warm_later(pipeline: Pipeline) -> bool:
    """In the template, after its first forks: the warm-up question and lingua's n-gram
    models, frozen and trimmed as the rest of the pipeline; ``False`` when the models failed
    to load (each worker then loads them on its first close call, as before).  The first
    workers meanwhile answer as a cold process does (their first question pays for the lazy
    models, about 0.2 s more than a warm one); their replacements share what this loaded."""
    from qa.reading.detect import load_lingua

    try:
        with loading():
            _ask_warm_up(pipeline)
            load_lingua()
    except Exception:
        log.exception("lingua's models failed to load in the template")
        return False
    release_free_memory()
    return True


def _worker_main(conn: Connection, pipeline: Pipeline, settings: Settings, questions_at_once: int) -> None:
    """A forked worker: answer requests until the pipe closes."""
    die_with_parent()
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    answered = False
    while True:
        try:
            kind, args = _next_request(conn, release_when_idle=answered)
        except (EOFError, OSError):  # the app went away
            return
        answered = True
        reply: tuple[str, Any]
        try:
            if kind == "answer":
                question, lang, use_validator, question_lang, context = args
                reply = ("ok", pipeline.answer(question, lang, use_validator=use_validator,
                                               question_lang=question_lang, context=context))
            elif kind == "candidates":
                reply = ("ok", pipeline.candidates(*args))
            else:  # "probe": a cheap KG query
                pipeline.kg.query("ASK { }", timeout_s=2.0)
                reply = ("ok", None)
        except Exception as exc:  # reported to the caller as plain data, the worker keeps serving
            if kind == "answer":
                log.exception("worker failed on a question")
            reply = ("raised", error_to_data(exc))
        try:
            conn.send(reply)
        except OSError:  # the app went away
            return
        except (pickle.PicklingError, TypeError, ValueError, AttributeError, RecursionError) as exc:
            # a reply that cannot be pickled: its error instead, as plain data
            with contextlib.suppress(OSError):
                conn.send(("raised", error_to_data(exc)))


def _next_request(conn: Connection, *, release_when_idle: bool) -> tuple[str, Any]:
    """The next request on ``conn``.  With ``release_when_idle`` (after an answer), when
    none arrives within :data:`IDLE_S`, the heap memory freed meanwhile is first given back
    to the system (:func:`core.memory.release_free_memory`)."""
    if release_when_idle and not conn.poll(IDLE_S):
        release_free_memory()
    return conn.recv()


class WorkerStartError(RuntimeError):
    """The worker processes could not build their pipeline."""


class WorkerPipeline:
    """``workers`` processes forked from one loaded pipeline (see the module docstring).

    :meth:`answer` blocks until a worker is free (at most ``wait_s``), so callers may
    outnumber workers.  With ``wait=True`` construction waits until the workers are ready
    (raises :class:`WorkerStartError` when loading fails); with ``wait=False`` it returns at
    once and the first questions wait for :attr:`ready`.

    ``early`` (the chat, ``kgqa serve``): the workers answer before the template's warm-up
    question and lingua's n-gram models (3-4 s of CPU, holding the template's interpreter
    lock); the template loads them once no question has waited for :data:`QUIET_S` (the
    first questions keep the cores), and each of the first workers is then replaced by a fork
    that shares them (an idle one at once, a busy one when its reply is in).  Until then a
    question that needs lingua loads the models in its worker (the same detection; those
    workers are replaced).  :meth:`wait_upgraded` waits for that."""

    def __init__(self, settings: Settings, workers: int = 2, *, wait_s: float = 120.0,
                 start_timeout_s: float = 900.0, deadline_s: float = DEFAULT_DEADLINE_S,
                 wait: bool = True, early: bool = False) -> None:
        if workers < 1:
            raise ValueError("need at least one worker")
        self.settings = settings
        self.workers = workers
        self.wait_s = wait_s
        self.start_timeout_s = start_timeout_s
        self.deadline_s = deadline_s
        self.validator_state = "starting"
        self.threshold = settings.threshold if settings.threshold is not None else 0.5
        self.max_question_chars = settings.max_question_chars
        self.backend = _BackendInfo(settings.backend)
        self.started_at = time.monotonic()
        self.ready_s: float | None = None
        self._ready = threading.Event()
        self._failure: str | None = None
        self.start_error: KGQAError | None = None  # why the template could not load, as its error class
        # the worker that answered last answers next (its caches are warm: an endpoint's names,
        # popularity and classes, the store's pages); the others take the questions asked meanwhile
        self._idle: queue.LifoQueue[_Worker] = queue.LifoQueue()
        self._all: list[_Worker] = []
        self._lock = threading.Lock()
        self._spawn_lock = threading.Lock()
        self._closed = False
        self._generation = 0  # 1 once the template has loaded lingua's models (early start)
        self._lingua_reported = not early  # the template said whether it loaded them
        self._upgraded = threading.Event()
        self._asking = 0  # requests waiting for a worker or being answered (early start: warm when 0)
        self.warm_asked_at: float | None = None  # early start: when the template was asked to warm up
        if not early:
            self._upgraded.set()
        # spawned, not forked: a fork of a process with other threads may inherit a held lock
        # and hang; the template dies with the thread that starts it (PR_SET_PDEATHSIG), so
        # start it from one that lives as long as the pool (the main thread)
        ctx = multiprocessing.get_context("spawn")
        self._control, child = ctx.Pipe()
        self._template = ctx.Process(target=_template_main, args=(child, settings, workers, early),
                                     name="kgqa-template", daemon=True)
        self._template.start()
        child.close()
        # closed at interpreter exit with bounded waits, before multiprocessing's own exit
        # hook, which joins the template without a timeout (an exit on Ctrl-C must not hang)
        atexit.register(self.close)
        self._starter = threading.Thread(target=self._start, name="kgqa-workers-start", daemon=True)
        self._starter.start()
        if wait:
            self.wait_ready(start_timeout_s)
            if self._failure is not None:
                self.close()
                raise WorkerStartError(self._failure)

    # ------------------------------------------------------------------ state

    @property
    def ready(self) -> bool:
        """True once the workers answer (or loading failed: then questions get "unavailable")."""
        return self._ready.is_set()

    @property
    def failure(self) -> str | None:
        """Why loading failed, or ``None``."""
        return self._failure

    def wait_ready(self, timeout_s: float | None = None) -> bool:
        """Wait until :attr:`ready` (at most ``timeout_s``); returns :attr:`ready`."""
        return self._ready.wait(timeout_s)

    def wait_upgraded(self, timeout_s: float | None = None) -> bool:
        """Wait until every idle worker shares lingua's models loaded by the template (at once
        without ``early``); ``False`` when ``timeout_s`` passed first."""
        return self._upgraded.wait(timeout_s)

    def stuck(self) -> list[int]:
        """Workers busy with one request for more than half of ``deadline_s`` (killed at the deadline)."""
        now = time.monotonic()
        with self._lock:
            return [w.pid for w in self._all
                    if w.busy_since is not None and now - w.busy_since > self.deadline_s / 2]

    def pids(self) -> list[int]:
        """Process ids of the live workers."""
        with self._lock:
            return [w.pid for w in self._all if _alive(w.pid)]

    # ------------------------------------------------------------------ answering

    def answer(self, question: str | None, lang: str | None = None, *, use_validator: bool = True,
               question_lang: str | None = None, context: Context | None = None) -> Turn:
        """Answer ``question`` in a free worker (same contract as :meth:`Pipeline.answer`)."""
        started = time.perf_counter()
        try:
            kind, payload = self._call("answer", (question, lang, use_validator, question_lang, context))
        except _Unavailable as exc:
            return self._failed(question, lang, Status.SERVICE_ERROR, f"WorkerUnavailable: {exc}", started)
        if kind == "ok":
            return payload
        error = error_from_data(payload)
        return self._failed(question, lang, Status.ERROR, f"worker: {type(error).__name__}: {error}", started)

    def candidates(self, question: str | None, lang: str | None = None) -> Generated:
        """:meth:`Pipeline.candidates` in a worker (``/api/qa/full``); raises what it raises,
        and :class:`BackendUnavailable` when no worker answers."""
        try:
            kind, payload = self._call("candidates", (question, lang))
        except _Unavailable as exc:
            raise BackendUnavailable(f"worker: {exc}") from exc
        if kind == "raised":
            raise error_from_data(payload)
        return payload

    def probe(self) -> None:
        """A cheap KG query in a worker; raises :class:`KGError` when the KG or no worker answers."""
        try:
            kind, payload = self._call("probe", (), wait_s=2.0)
        except _Unavailable as exc:
            raise KGUnavailable(f"no worker answered: {exc}") from exc
        if kind == "raised":
            error = error_from_data(payload)
            raise error if isinstance(error, KGError) else KGUnavailable(str(error))

    def _call(self, kind: str, args: tuple, *, wait_s: float | None = None) -> tuple[str, Any]:
        """Send one request to a free worker and wait for its reply, at most ``deadline_s``."""
        with self._lock:
            self._asking += 1
        try:
            return self._call_worker(kind, args, self.wait_s if wait_s is None else wait_s)
        finally:
            with self._lock:
                self._asking -= 1

    def _call_worker(self, kind: str, args: tuple, limit: float) -> tuple[str, Any]:
        if not self._ready.wait(limit):
            raise _Unavailable("the workers are still starting")
        worker = self._free_worker(limit)
        if worker is None:
            raise _Unavailable(self._failure or "no worker process became free")
        worker.busy_since = time.monotonic()
        try:
            worker.conn.send((kind, args))
            if not worker.conn.poll(self.deadline_s):
                log.error("worker %s ran past its %.0f s deadline on a %s request: killed and replaced",
                          worker.pid, self.deadline_s, kind)
                self._replace(worker, kill=True)
                raise _Unavailable(f"no reply within {self.deadline_s:g}s (worker killed)")
            reply = worker.conn.recv()
        except _Unavailable:  # past its deadline: killed and replaced above
            raise
        except (EOFError, OSError) as exc:
            log.error("worker process %s died while answering: %s", worker.pid, exc)
            self._replace(worker)
            raise _Unavailable("worker process exited") from exc
        except Exception as exc:  # a reply that could not be read: the worker's state is unknown
            log.error("unreadable reply from worker %s (%s): replaced", worker.pid, type(exc).__name__)
            self._replace(worker, kill=True)
            raise _Unavailable("unreadable reply from the worker (worker replaced)") from exc
        worker.busy_since = None
        if worker.generation < self._generation:  # forked before lingua's models were shared
            self._replace(worker, kill=True)
        else:
            self._idle.put(worker)
        return reply

    def _free_worker(self, wait_s: float) -> _Worker | None:
        """The next idle live worker (one that died while idle is replaced), or ``None``."""
        deadline = time.monotonic() + wait_s
        while not self._closed:
            try:
                worker = self._idle.get(timeout=max(0.0, min(1.0, deadline - time.monotonic())))
            except queue.Empty:
                if time.monotonic() >= deadline or self._failure is not None:
                    return None
                continue
            if worker.generation < self._generation:  # forked before lingua's models were shared
                self._replace(worker, kill=True)
                continue
            if _alive(worker.pid) and not worker.conn.poll():  # EOF or a stray byte: not usable
                return worker
            log.error("worker process %s died while idle", worker.pid)
            self._replace(worker)
        return None

    def _failed(self, question: str | None, lang: str | None, status: Status, error: str, started: float) -> Turn:
        from lang import SUPPORTED

        ui = lang if lang in SUPPORTED else "en"
        turn = Turn.unanswered(question or "", ui, status, error=error, validator=self.validator_state,
                               backend=self.backend.name, message_args={"limit": self.max_question_chars})
        turn.timings_ms["total"] = round((time.perf_counter() - started) * 1000, 1)
        return turn

    # ------------------------------------------------------------------ processes

    def _start(self) -> None:
        """Wait for the template to load, then fork the workers (a background thread)."""
        try:
            if not self._control.poll(self.start_timeout_s):
                raise WorkerStartError(f"the pipeline did not load within {self.start_timeout_s:g}s")
            kind, payload = self._control.recv()
            if kind != "ready":
                self.start_error = error_from_data(payload)
                raise WorkerStartError(f"worker could not build its pipeline: {type(self.start_error).__name__}: "
                                       f"{self.start_error}")
            self.validator_state = payload["validator_state"]
            self.threshold = payload["threshold"]
            self.max_question_chars = payload["max_question_chars"]
            self.backend = _BackendInfo(payload["backend"])
            for _ in range(self.workers):
                self._idle.put(self._spawn())
        except (WorkerStartError, EOFError, OSError) as exc:
            self._upgraded.set()
            self._failure = str(exc) if isinstance(exc, WorkerStartError) else (
                f"the loading process exited (status {self._template.exitcode})")
            if not self._closed:  # closed meanwhile (Ctrl-C, SIGTERM): nothing went wrong
                log.error("workers could not start: %s", self._failure)
        self.ready_s = time.monotonic() - self.started_at
        if self._failure is None:
            log.info("%d worker processes ready in %.1f s (validator %s)", self.workers, self.ready_s,
                     self.validator_state)
        self._ready.set()
        if not self._upgraded.is_set():
            self._upgrade()

    def _upgrade(self) -> None:
        """Early start: wait for the template's ``upgraded``; when lingua's models loaded, replace
        the idle workers forked before it (busy ones are replaced after their reply).  When they
        failed to load, the workers stay (each loads them on its first close call, as before)."""
        try:
            self._wait_quiet()
            with self._spawn_lock:
                self._control.send("warm")
                self.warm_asked_at = time.monotonic()
            while not self._closed and not self._lingua_reported:
                with self._spawn_lock:  # no spawn meanwhile: this is the only message that may come
                    if self._control.poll(0.1):
                        self._note(self._control.recv())
                time.sleep(0.01)
        except (EOFError, OSError, TypeError, ValueError):  # the template or the pool went away
            self._upgraded.set()
            return
        idle = []
        with contextlib.suppress(queue.Empty):
            while True:
                idle.append(self._idle.get_nowait())
        for worker in reversed(idle):  # back in their order (the queue is last in, first out)
            if worker.generation < self._generation:
                self._replace(worker, kill=True)
            else:
                self._idle.put(worker)
        if self._generation:
            log.info("lingua's models loaded %.1f s after start; workers replaced",
                     time.monotonic() - self.started_at)
        self._upgraded.set()

    def _wait_quiet(self) -> None:
        """Early start: wait until no question has been waiting or answered for
        :data:`QUIET_S` (at most :data:`WARM_WITHIN_S`), so that the template's warm-up and
        lingua's models (seconds of CPU) do not slow the first questions down."""
        deadline = time.monotonic() + WARM_WITHIN_S
        quiet_since = time.monotonic()
        while not self._closed and time.monotonic() < deadline:
            if self._asking:
                quiet_since = time.monotonic()
            elif time.monotonic() - quiet_since >= QUIET_S:
                return
            time.sleep(0.02)

    def _note(self, message: tuple[str, Any]) -> None:
        """A message of the template that answers no request: ``upgraded`` and whether lingua's
        models loaded."""
        kind, loaded = message
        if kind == "upgraded":
            self._lingua_reported = True
            if loaded:
                self._generation = 1

    def _spawn(self) -> _Worker:
        """Fork one worker from the template and take its pipe."""
        with self._spawn_lock:
            self._control.send("spawn")
            kind, pid = self._control.recv()
            while kind != "spawned":  # ``upgraded`` came first
                self._note((kind, pid))
                kind, pid = self._control.recv()
            fd = recv_handle(self._control)
            generation = self._generation
        worker = _Worker(pid, Connection(fd), generation=generation)
        with self._lock:
            self._all.append(worker)
        return worker

    def _replace(self, dead: _Worker, *, kill: bool = False) -> None:
        """Forget ``dead`` (killing it first when asked) and fork a replacement."""
        with self._lock:
            if dead in self._all:
                self._all.remove(dead)
        if kill:
            with contextlib.suppress(ProcessLookupError):
                os.kill(dead.pid, signal.SIGKILL)
            if not _gone(dead.pid, KILL_WAIT_S):
                log.error("killed worker %s still exists after %.0f s", dead.pid, KILL_WAIT_S)
        dead.conn.close()
        if self._closed:
            return
        try:
            self._idle.put(self._spawn())
        except (EOFError, OSError) as exc:
            self._failure = f"the loading process exited: {exc}"
            log.error("no replacement worker: %s", self._failure)

    def close(self) -> None:
        """Stop the workers and the template (at most about 10 s; idempotent)."""
        atexit.unregister(self.close)
        self._closed = True
        with self._lock:
            workers, self._all = self._all, []
        for w in workers:
            w.conn.close()
        self._control.close()
        self._template.terminate()  # loading, it would read the closed pipe only when done (seconds)
        self._template.join(timeout=5)
        if self._template.is_alive():
            self._template.kill()
            self._template.join(timeout=5)
        for w in workers:  # their template is gone: PDEATHSIG has ended them; make sure
            with contextlib.suppress(ProcessLookupError):
                os.kill(w.pid, signal.SIGKILL)

    def __enter__(self) -> WorkerPipeline:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Unavailable(Exception):
    """Internal: no worker could answer (the caller words it)."""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _gone(pid: int, wait_s: float) -> bool:
    """Wait until ``pid`` no longer runs (a worker is the template's child, which ignores
    ``SIGCHLD``, so the kernel reaps it: no zombie stays), at most ``wait_s``."""
    until = time.monotonic() + wait_s
    while _alive(pid):
        if time.monotonic() >= until:
            return False
        time.sleep(0.01)
    return True


def _prepare_kg(settings: Settings) -> None:
    """Build the embedded store and label index when missing (before loading the pipeline)."""
    if settings.kg_endpoint or (settings.kg_profile and settings.kg_profile != "embedded"):
        return
    from kg.build import build_kg

    build_kg(settings.kg_source, settings.cache_dir, progress=False)
