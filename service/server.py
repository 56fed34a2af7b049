"""Run the web API with uvicorn: in the foreground (``kgqa serve``) or in a background
thread (tests, benchmarks, embedding).  Access logs are off: they would record client
addresses; the app logs one address-free line per request instead."""

from __future__ import annotations

import asyncio
import functools
import socket
import threading
import time

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from service.doors import ASGIApp

HEADER_TIMEOUT_S = 3.0
"""How long a connection may take to send a request's line and headers (a slow-header
client is cut off then); a request's body has its own bound (``service.app.BODY_TIMEOUT_S``)."""
KEEP_ALIVE_S = 5
MAX_CONNECTIONS = 400
"""Connections and requests served at once; more get 503 from uvicorn at once.  At most
:data:`MAX_WAITING` of them wait for headers, so that those never fill it."""
MAX_WAITING_PER_CLIENT = 16
"""Connections one client address may hold open waiting for a request's headers (idle or
slow); a further one closes that client's oldest waiting connection (once it has waited
:data:`WAITING_GRACE_S`)."""
WAITING_GRACE_S = 1.0
"""A waiting connection younger than this is never closed to make room."""
MAX_WAITING = MAX_CONNECTIONS // 2
"""Connections waiting for headers, all clients together; past it the oldest waiting
connection of the client that holds the most is closed (whatever its age), so that waiting
connections never fill uvicorn's :data:`MAX_CONNECTIONS` and one client's flood never cuts
another client's connection."""


class WaitingConnections:
    """The connections of one server that wait for a request's headers, per client address,
    oldest first: :meth:`arrived` closes the oldest waiting connection of a client past
    ``per_client``, and past ``total`` the oldest of the client holding the most (so that a
    client that floods pays for it, not its neighbours).  Only uvicorn's event loop calls it."""

    def __init__(self, per_client: int = MAX_WAITING_PER_CLIENT, total: int = MAX_WAITING,
                 min_age_s: float = WAITING_GRACE_S) -> None:
        self.per_client = per_client
        self.total = total
        self.min_age_s = min_age_s
        self._by_client: dict[str, dict[HeaderTimeoutProtocol, float]] = {}
        self._all: dict[HeaderTimeoutProtocol, float] = {}
        self.closed = 0  # connections closed to make room (tests and figures)

    def waiting(self, conn: HeaderTimeoutProtocol) -> None:
        """``conn`` waits for headers (a new connection, or one between requests)."""
        if conn in self._all:
            return
        now = time.monotonic()
        while len(self._by_client.get(conn.client_address, ())) >= self.per_client:
            if not self._evict(self._by_client[conn.client_address], now):
                break
        while len(self._all) >= self.total:  # all clients together: the heaviest client's oldest goes
            self._evict(self._heaviest(), now, young_too=True)
        self._by_client.setdefault(conn.client_address, {})[conn] = now
        self._all[conn] = now

    def served(self, conn: HeaderTimeoutProtocol) -> None:
        """``conn`` no longer waits (its headers are in, or it closed)."""
        self._all.pop(conn, None)
        queue = self._by_client.get(conn.client_address)
        if queue is not None:
            queue.pop(conn, None)
            if not queue:
                del self._by_client[conn.client_address]

    def _heaviest(self) -> dict[HeaderTimeoutProtocol, float]:
        """The waiting connections of the client that holds the most of them."""
        return max(self._by_client.values(), key=len)

    def _evict(self, queue: dict[HeaderTimeoutProtocol, float], now: float, *, young_too: bool = False) -> bool:
        """Close the oldest connection of ``queue`` if it has waited ``min_age_s`` (a burst of
        requests through one proxy is not cut: its headers arrive within milliseconds)."""
        conn, since = next(iter(queue.items()))
        if now - since < self.min_age_s and not young_too:
            return False
        self.served(conn)
        self.closed += 1
        conn.close_waiting()
        return True


class HeaderTimeoutProtocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, plus a deadline for each request's headers: a connection
    still waiting for a complete request line and headers ``header_timeout_s`` after it
    opened (or after its last response) is closed.  uvicorn alone times out only idle
    keep-alive connections, and a byte now and then resets even that."""

    def __init__(self, *args: object, header_timeout_s: float = HEADER_TIMEOUT_S,
                 waiting: WaitingConnections | None = None, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.header_timeout_s = header_timeout_s
        self._header_timer: asyncio.TimerHandle | None = None
        self._waiting = waiting
        self.client_address = ""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        peer = transport.get_extra_info("peername")
        self.client_address = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        self._watch_headers()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_timer()
        super().connection_lost(exc)

    def close_waiting(self) -> None:
        """Close this connection, which waits for headers, to make room for others."""
        self._stop_header_timer()
        if not self.transport.is_closing():
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch_headers()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._watch_headers()

    def _watch_headers(self) -> None:
        """Arm the header deadline while the connection waits for a request's headers; disarm
        it once they are in."""
        waiting = self.conn.their_state is h11.IDLE and not self.transport.is_closing()
        if waiting and self._header_timer is None:
            self._header_timer = self.loop.call_later(self.header_timeout_s, self._headers_too_slow)
            if self._waiting is not None:
                self._waiting.waiting(self)
        elif not waiting:
            self._stop_header_timer()

    def _stop_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None
        if self._waiting is not None:
            self._waiting.served(self)

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()


def uvicorn_config(app: ASGIApp, host: str, port: int, log_level: str = "info", *,
                   header_timeout_s: float = HEADER_TIMEOUT_S) -> uvicorn.Config:
    """The one uvicorn configuration: no access log, no server header, one process, no
    proxy headers (uvicorn would believe ``X-Forwarded-For`` from 127.0.0.1; the rate
    limiter believes it only from ``Settings.trusted_proxies``), a deadline for each
    request's headers (:class:`HeaderTimeoutProtocol`), a bound on connections, and on
    those one client holds waiting for headers (:class:`WaitingConnections`)."""
    protocol = functools.partial(HeaderTimeoutProtocol, header_timeout_s=header_timeout_s,
                                 waiting=WaitingConnections())
    return uvicorn.Config(app, host=host, port=port, access_log=False, server_header=False,
                          log_level=log_level, workers=1, timeout_graceful_shutdown=5, proxy_headers=False,
                          http=protocol, timeout_keep_alive=KEEP_ALIVE_S,  # type: ignore[arg-type]
                          limit_concurrency=MAX_CONNECTIONS)


def serve(app: ASGIApp, host: str, port: int, *, until: threading.Event | None = None) -> None:
    """Serve ``app`` until interrupted (or until ``until`` is set)."""
    server = uvicorn.Server(uvicorn_config(app, host, port))
    if until is not None:
        def watch() -> None:
            until.wait()
            server.should_exit = True

        threading.Thread(target=watch, name="kgqa-serve-stop", daemon=True).start()
    server.run()


class ServerThread:
    """``with ServerThread(app) as srv: httpx.get(srv.url + "/health")`` - a real server on
    127.0.0.1 (a free port unless given) in a daemon thread."""

    def __init__(self, app: ASGIApp, host: str = "127.0.0.1", port: int = 0, log_level: str = "warning", *,
                 header_timeout_s: float = HEADER_TIMEOUT_S) -> None:
        self.host = host
        self.port = port or _free_port(host)
        self._server = uvicorn.Server(uvicorn_config(app, host, self.port, log_level,
                                                     header_timeout_s=header_timeout_s))
        self._thread = threading.Thread(target=self._server.run, daemon=True)

    @property
    def url(self) -> str:
        """``http://host:port``."""
        return f"http://{self.host}:{self.port}"

    def start(self, timeout_s: float = 20.0) -> ServerThread:
        """Start and wait until uvicorn is accepting connections."""
        self._thread.start()
        deadline = time.monotonic() + timeout_s
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"uvicorn did not start on {self.url}")
            time.sleep(0.02)
        return self

    @property
    def running(self) -> bool:
        """Whether the server thread still serves."""
        return self._thread.is_alive()

    def stop(self) -> None:
        """Ask uvicorn to exit and wait for the thread."""
        self._server.should_exit = True
        self._thread.join(timeout=10)

    def __enter__(self) -> ServerThread:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _free_port(host: str) -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]
