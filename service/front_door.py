"""One ASGI app for a web server whose full app loads after the server has started.

``python app.py`` serves at once: a small page that answers questions
(:mod:`chat.starting`) is up within a second, while Gradio (4 s of imports on a 2-core box)
loads behind it.  :class:`FrontDoor` is the app uvicorn serves for the process's whole
life::

    request ─► FrontDoor ─┬─ path under a kept prefix ("/start/") ──────► starting app
                          ├─ full app not open yet ───────────────────► starting app
                          └─ otherwise ───────────────────────────────► full app (Gradio)

:meth:`FrontDoor.open` hands the full app over from any thread: its lifespan (Gradio's
queue) is entered on the server's own event loop first, so no request reaches it before
it runs, and is left when the server shuts down.  The server answers from the first
moment to the last; nothing is restarted or re-bound."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager

from service.doors import ASGIApp, Receive, Scope, Send

Lifespan = Callable[[], AbstractAsyncContextManager[object]]
"""A fresh lifespan context of an ASGI app (Starlette's ``app.router.lifespan_context(app)``)."""
OPEN_TIMEOUT_S = 60.0


class FrontDoor:
    """Routes each request to the starting app, or once :meth:`open` ran, to the full app
    (paths starting with one of ``kept`` stay with the starting app)."""

    def __init__(self, starting: ASGIApp, *, kept: tuple[str, ...] = ("/start/",)) -> None:
        self._starting = starting
        self._full: ASGIApp | None = None
        self._kept = kept
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lifespans = contextlib.AsyncExitStack()

    @property
    def opened(self) -> bool:
        """Whether the full app serves (every path but the kept ones)."""
        return self._full is not None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        full = self._full
        if full is None or str(scope.get("path", "")).startswith(self._kept):
            await self._starting(scope, receive, send)
        else:
            await full(scope, receive, send)

    def open(self, app: ASGIApp, lifespan: Lifespan | None = None, timeout_s: float = OPEN_TIMEOUT_S) -> None:
        """Serve ``app`` from now on (from any thread, once the server has started): its
        ``lifespan`` is entered on the server's loop, then requests reach it."""
        if self._loop is None:
            raise RuntimeError("the server has not started: nothing to open the door on")
        asyncio.run_coroutine_threadsafe(self._open(app, lifespan), self._loop).result(timeout_s)

    async def _open(self, app: ASGIApp, lifespan: Lifespan | None) -> None:
        if lifespan is not None:
            await self._lifespans.enter_async_context(lifespan())
        self._full = app

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self._loop = asyncio.get_running_loop()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self._full = None  # the full app stops here; the starting app answers what still comes
                await self._lifespans.aclose()
                await send({"type": "lifespan.shutdown.complete"})
                return
