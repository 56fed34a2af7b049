"""Serve the chat the moment ``python app.py`` starts (issue 41).

Gradio's import alone takes about 4 s on a 2-core box, and the worker processes about 2 s
to load beside it.  So the chat's server starts before Gradio is imported::

    0 s    settings checked; the worker processes start loading (service.workers)
    ~0.5 s the server listens: "/" is the page that answers (chat.starting)
    ~2-3 s the workers are up: the page's questions are answered
    ~6-8 s Gradio is imported and the chat built: the door opens (service.front_door),
           "/" is the full chat; the page, if open, reloads into it

Both pages share one session log, one rate limit and one backlog (:func:`chat.asking.new_admission`).
The server is :mod:`service.server`'s uvicorn (bounded connections, header deadlines, no proxy
headers), behind the same :class:`~service.doors.DoorMiddleware` as the API.

``--workers 0`` (the pipeline in the app's own process) keeps Gradio's own ``launch``
(:func:`chat.ui.launch`): there is nothing to answer with before the pipeline has loaded."""

from __future__ import annotations

import logging
import threading
import time

from chat.asking import new_admission
from chat.sessions import MAX_WAITING
from chat.starting import starting_app
from core.memory import loading
from core.settings import Settings
from service.doors import DoorMiddleware, allowed_host_names
from service.front_door import FrontDoor
from service.ratelimit import ClientLimiter
from service.server import ServerThread
from service.session_log import SessionLog
from service.workers import WorkerPipeline

log = logging.getLogger(__name__)

CHECK_S = 0.5
"""How often the main thread looks whether the server or the workers stopped."""


class ServerStartError(RuntimeError):
    """The chat's server could not listen (the port is taken, or the address is not this host's)."""


def serve_chat(settings: Settings, pool: WorkerPipeline, *, concurrency: int | None = None) -> None:
    """Serve the chat on ``settings.host:settings.port`` until interrupted (Ctrl-C, SIGTERM:
    ``KeyboardInterrupt`` reaches the caller once the server and the workers have stopped)
    or until the workers fail to load (:attr:`WorkerPipeline.failure`: the caller reports it).
    ``concurrency``: questions answered at once (default: one per worker)."""
    session_log = SessionLog(settings.log_path, store_ips=settings.store_ips)
    admission = new_admission(ClientLimiter.per_minute(settings.rate_limit_per_minute, settings.trusted_proxies),
                              MAX_WAITING)
    door = FrontDoor(starting_app(pool, session_log, admission, lambda: door.opened))
    server = ServerThread(DoorMiddleware(door, allowed_host_names(settings.allowed_hosts, settings.host)),
                          settings.host, settings.port, log_level="warning")
    try:
        server.start()
    except RuntimeError as exc:
        raise ServerStartError(f"could not listen on {server.url} (is the port in use?)") from exc
    print(f"* Running on local URL:  {server.url}", flush=True)
    stop = threading.Event()
    threading.Thread(target=_stop_when_loading_fails, args=(pool, stop), name="kgqa-chat-watch", daemon=True).start()
    try:
        started = time.perf_counter()
        with loading():  # gradio's import and the UI: no collections meanwhile, then frozen
            from chat.ui import chat_app

            app, lifespan = chat_app(pool, settings, session_log, admission,
                                     concurrency=concurrency or pool.workers)
        if not stop.is_set():
            door.open(app, lifespan)
            log.info("the chat is open (%.1f s after the page)", time.perf_counter() - started)
        while not stop.wait(CHECK_S) and server.running:
            pass
    finally:  # a stop (Ctrl-C, SIGTERM: KeyboardInterrupt goes on to the caller) or failed workers
        stop.set()
        pool.close()  # the workers first: a question in flight is answered "unavailable", not cut mid-reply
        server.stop()


def _stop_when_loading_fails(pool: WorkerPipeline, stop: threading.Event) -> None:
    """A chat whose workers cannot load (a corrupt model or cache) does not pretend to run."""
    pool.wait_ready()
    if pool.failure is not None and not stop.is_set():  # not when the chat was stopped meanwhile
        log.error("the workers could not load, closing the chat: %s", pool.failure)
        stop.set()
