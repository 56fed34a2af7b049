"""A real HTTP server on 127.0.0.1 that misbehaves on purpose (for fault tests).

``ScriptedServer(handler)`` runs a threaded :mod:`http.server` in a background
thread; ``handler(request) -> Reply`` decides, per request, the status, headers,
body and an optional delay.  Every request is recorded in :attr:`requests`.
"""

from __future__ import annotations

import json
import socket
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit


@dataclass
class Request:
    """One received request."""

    method: str
    path: str
    query: dict[str, list[str]]
    body: bytes
    headers: dict[str, str]


@dataclass
class Reply:
    """What the server answers (after sleeping ``delay_s``)."""

    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0

    @classmethod
    def json(cls, data: Any, status: int = 200, **kw: Any) -> Reply:
        """A JSON reply."""
        headers = {"Content-Type": "application/json", **kw.pop("headers", {})}
        return cls(status, json.dumps(data).encode(), headers, **kw)


Handler = Callable[[Request], Reply]


class _QuietServer(ThreadingHTTPServer):
    """A client that hangs up (what the code under test does to a hostile reply) is no
    error of the test server: nothing is printed for it (its traceback would land in the
    stderr a test reads)."""

    def handle_error(self, request, client_address) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class ScriptedServer:
    """A threaded HTTP server whose every reply comes from ``handler``."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.requests: list[Request] = []
        outer = self

        class _H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                parts = urlsplit(self.path)
                req = Request(self.command, parts.path, parse_qs(parts.query), body, dict(self.headers))
                outer.requests.append(req)
                reply = outer.handler(req)
                if reply.delay_s:
                    time.sleep(reply.delay_s)
                try:
                    self.send_response(reply.status)
                    for k, v in reply.headers.items():
                        self.send_header(k, v)
                    self.send_header("Content-Length", str(len(reply.body)))
                    self.end_headers()
                    self.wfile.write(reply.body)
                except (BrokenPipeError, ConnectionResetError):
                    return  # the client gave up (timeout tests): nothing to answer

            do_GET = do_POST = _serve

            def log_message(self, format: str, *args: Any) -> None:
                return

        self._httpd = _QuietServer(("127.0.0.1", 0), _H)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.05,), daemon=True)

    @property
    def port(self) -> int:
        """The bound port."""
        return self._httpd.server_address[1]

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> ScriptedServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)


def free_port() -> int:
    """A port nobody listens on (bound then released): connecting to it is refused."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class DripServer:
    """A raw TCP server on 127.0.0.1 that answers every connection with ``head`` then
    ``body``, ``chunk`` bytes every ``interval_s`` seconds (from the start when
    ``drip_head``), the way a slow-loris server holds a client.  ``connections`` counts
    accepted connections."""

    def __init__(self, body: bytes, *, head: bytes | None = None, chunk: int = 1, interval_s: float = 0.2,
                 drip_head: bool = False) -> None:
        self.head = head if head is not None else (
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
            + f"Content-Length: {len(body)}\r\n\r\n".encode())
        self.body = body
        self.chunk = chunk
        self.interval_s = interval_s
        self.drip_head = drip_head
        self.connections = 0
        self._stop = threading.Event()
        self._sock = socket.socket()
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(16)
        self._sock.settimeout(0.05)
        self._thread = threading.Thread(target=self._accept, daemon=True)

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return f"http://127.0.0.1:{self._sock.getsockname()[1]}"

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except TimeoutError:
                continue
            self.connections += 1
            threading.Thread(target=self._drip, args=(conn,), daemon=True).start()

    def _drip(self, conn: socket.socket) -> None:
        with conn:
            conn.settimeout(1.0)
            try:
                conn.recv(65536)  # the request (small; its rest is never needed)
                data = self.head + self.body
                if not self.drip_head:
                    conn.sendall(self.head)
                    data = self.body
                for i in range(0, len(data), self.chunk):
                    if self._stop.wait(self.interval_s):
                        return
                    conn.sendall(data[i:i + self.chunk])
            except OSError:
                return  # the client hung up: what a deadline should make it do

    def __enter__(self) -> DripServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self._sock.close()
