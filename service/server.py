"""Run the web API with uvicorn: in the foreground (``kgqa serve``) or in a background
thread (tests, benchmarks, embedding).  Access logs are off: they would record client
addresses; the app logs one address-free line per request instead."""

from __future__ import annotations

import socket
import threading
import time

import uvicorn
from fastapi import FastAPI


def uvicorn_config(app: FastAPI, host: str, port: int, log_level: str = "info") -> uvicorn.Config:
    """The one uvicorn configuration: no access log, no server header, one process, and no
    proxy headers (uvicorn would believe ``X-Forwarded-For`` from 127.0.0.1; the rate
    limiter believes it only from ``Settings.trusted_proxies``)."""
    return uvicorn.Config(app, host=host, port=port, access_log=False, server_header=False,
                          log_level=log_level, workers=1, timeout_graceful_shutdown=5, proxy_headers=False)


def serve(app: FastAPI, host: str, port: int) -> None:
    """Serve ``app`` until interrupted."""
    uvicorn.Server(uvicorn_config(app, host, port)).run()


class ServerThread:
    """``with ServerThread(app) as srv: httpx.get(srv.url + "/health")`` - a real server on
    127.0.0.1 (a free port unless given) in a daemon thread."""

    def __init__(self, app: FastAPI, host: str = "127.0.0.1", port: int = 0, log_level: str = "warning") -> None:
        self.host = host
        self.port = port or _free_port(host)
        self._server = uvicorn.Server(uvicorn_config(app, host, self.port, log_level))
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
