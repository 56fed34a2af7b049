"""Idle and slow-header connections from one client cannot shut out ``kgqa serve``
(issue 44, case 4): a real uvicorn on 127.0.0.1 with the service's configuration; one
client keeps more connections open without sending a request than uvicorn's connection
bound (:data:`service.server.MAX_CONNECTIONS`, 10 more), and
``/health`` asked by another client (another loopback address, 127.0.0.2) stays 200."""

from __future__ import annotations

import resource
import socket
import threading
import time

import httpx
import pytest

from service.app import create_app
from service.server import (
    HEADER_TIMEOUT_S,
    MAX_CONNECTIONS,
    MAX_WAITING,
    MAX_WAITING_PER_CLIENT,
    ServerThread,
    WaitingConnections,
)
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


OTHER_CLIENT = "127.0.0.2"
"""The probing client's address: the whole of 127.0.0.0/8 reaches the server on 127.0.0.1."""


def _probes(url: str, n: int = 6, every_s: float = 0.5) -> list[int]:
    codes = []
    for _ in range(n):
        try:
            with httpx.Client(transport=httpx.HTTPTransport(local_address=OTHER_CLIENT), timeout=5) as client:
                codes.append(client.get(url + "/health").status_code)
        except httpx.HTTPError as exc:
            codes.append(type(exc).__name__)  # type: ignore[arg-type]
        time.sleep(every_s)
    return codes


def test_idle_connections_of_one_client_do_not_shut_out_health():
    assert IDLE > MAX_CONNECTIONS > MAX_WAITING > MAX_WAITING_PER_CLIENT
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


class _Conn:
    """A waiting connection as :class:`WaitingConnections` sees it: an address, and a close."""

    def __init__(self, address: str) -> None:
        self.client_address = address
        self.closed = False

    def close_waiting(self) -> None:
        self.closed = True


def test_past_the_total_the_heaviest_client_pays_not_its_neighbour():
    waiting = WaitingConnections(per_client=4, total=6, min_age_s=60.0)  # every connection young
    other = _Conn(OTHER_CLIENT)
    waiting.waiting(other)  # type: ignore[arg-type]
    flood = [_Conn("127.0.0.1") for _ in range(20)]
    for conn in flood:
        waiting.waiting(conn)  # type: ignore[arg-type]
    assert not other.closed
    assert sum(c.closed for c in flood) == 15  # 5 of the flood wait beside the other client's one
    assert [c.closed for c in flood[-5:]] == [False] * 5  # the flood's oldest went first
