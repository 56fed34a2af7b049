"""Idle and slow-header connections from one client cannot shut out ``kgqa serve``
(issue 44, case 4): a real uvicorn on 127.0.0.1 with the service's configuration; one
client keeps more connections open without sending a request than uvicorn's connection
bound (:data:`service.server.MAX_CONNECTIONS`; the probe held 210 against 200), and
``/health`` stays 200."""

from __future__ import annotations

import resource
import socket
import threading
import time

import httpx
import pytest

from service.app import create_app
from service.server import HEADER_TIMEOUT_S, MAX_CONNECTIONS, MAX_WAITING_PER_CLIENT, ServerThread
from tests.service.helpers import tiny_pipeline

IDLE = MAX_CONNECTIONS + 10


@pytest.fixture(autouse=True)
def _descriptors():
    """Both ends of every connection live in this process: room for them."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 4 * IDLE:
        pytest.skip(f"needs {4 * IDLE} file descriptors, the hard limit is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 4 * IDLE), hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


class Holder:
    """One client holding ``count`` connections open, sending nothing (or a byte of a
    request line now and then), reopening each one the server closes."""

    def __init__(self, port: int, count: int, *, drip: bool = False) -> None:
        self.port = port
        self.count = count
        self.drip = drip
        self.opened = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _open(self) -> socket.socket:
        s = socket.create_connection(("127.0.0.1", self.port), timeout=2)
        s.setblocking(False)
        self.opened += 1
        return s

    def _run(self) -> None:
        socks = [self._open() for _ in range(self.count)]
        rounds = 0
        while not self._stop.wait(0.1) and rounds < 600:  # bounded: at most 60 s
            rounds += 1
            for i, s in enumerate(socks):
                try:
                    if self.drip:
                        s.send(b"G" if rounds == 1 else b"E")
                    if s.recv(1) == b"":
                        raise ConnectionResetError
                except BlockingIOError:
                    continue
                except OSError:
                    s.close()
                    socks[i] = self._open()
        for s in socks:
            s.close()

    def __enter__(self) -> Holder:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=10)


def _probes(url: str, n: int = 6, every_s: float = 0.5) -> list[int]:
    codes = []
    for _ in range(n):
        try:
            codes.append(httpx.get(url + "/health", timeout=5).status_code)
        except httpx.HTTPError as exc:
            codes.append(type(exc).__name__)  # type: ignore[arg-type]
        time.sleep(every_s)
    return codes


def test_idle_connections_of_one_client_do_not_shut_out_health():
    assert IDLE > MAX_CONNECTIONS > MAX_WAITING_PER_CLIENT
    with ServerThread(create_app(tiny_pipeline())) as srv:
        with Holder(srv.port, IDLE) as holder:
            time.sleep(1.5)  # past the grace a waiting connection has before it may be closed
            codes = _probes(srv.url)
        assert holder.opened >= IDLE
    assert codes == [200] * 6


def test_slow_header_connections_of_one_client_do_not_shut_out_health():
    with ServerThread(create_app(tiny_pipeline())) as srv:
        with Holder(srv.port, IDLE, drip=True) as holder:
            time.sleep(1.5)
            codes = _probes(srv.url, n=4, every_s=HEADER_TIMEOUT_S / 2)
        assert holder.opened > IDLE  # the server closed some and the client reopened them
    assert codes == [200] * 4
