"""Hostile requests to the web API (issue 35, items 6, 7 and 10): a real uvicorn on
127.0.0.1 over the tiny KG.  One client cannot fill the shared queue (refusals are
counted, not logged), the client address is the right-most untrusted proxy hop and
normalized, slow headers are cut off, unknown Hosts refused, ``HEAD /health`` allowed,
``/health`` free of process ids, paths and error text, NUL dropped at every door."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import httpx
import pytest

from backends.fake import FakeBackend
from qa.candidate import Candidate
from service.app import create_app
from service.doors import allowed_host_names, host_allowed
from service.ratelimit import ClientLimiter, InFlight, RateLimiter, forwarded_hops, normalize_address
from service.server import ServerThread
from service.session_log import SessionLog
from tests.service.helpers import CAPITAL, tiny_pipeline

HTTP = httpx.Client(timeout=60)
QUESTION = "What is the capital of Germany?"


# ----------------------------------------------------------------- 7. proxies


def test_addresses_are_normalized():
    assert normalize_address("::ffff:1.2.3.4") == normalize_address("1.2.3.4") == "1.2.3.4"
    assert normalize_address("::FFFF:0102:0304") == "1.2.3.4"
    assert normalize_address("[2001:DB8::1]:443") == normalize_address("2001:db8:0:0::1") == "2001:db8::1"
    assert normalize_address("1.2.3.4:5678") == "1.2.3.4"
    assert normalize_address("fe80::1%eth0") == "fe80::1"
    assert normalize_address("not an address") == "not an address" and normalize_address("") == "?"


def test_the_client_is_the_rightmost_untrusted_hop_over_every_header_line():
    from starlette.datastructures import Headers

    limiter = ClientLimiter(RateLimiter(1, burst=1), "127.0.0.1")
    # the client sent its own first line; the proxy appended the address it saw on the last
    headers = Headers(raw=[(b"x-forwarded-for", b"198.51.100.1"), (b"x-forwarded-for", b"203.0.113.9")])
    assert forwarded_hops(headers) == ["198.51.100.1", "203.0.113.9"]
    assert limiter.client_address("127.0.0.1", headers) == "203.0.113.9"
    assert limiter.client_address("::ffff:127.0.0.1", {"X-Forwarded-For": "::ffff:203.0.113.9"}) == "203.0.113.9"


def test_spoofed_first_lines_and_mapped_spellings_share_one_bucket():
    limiter = ClientLimiter(RateLimiter(1, burst=2), "127.0.0.1")
    app = create_app(tiny_pipeline(), rate_limiter=limiter)
    spellings = ["203.0.113.9", "::ffff:203.0.113.9", "::FFFF:cb00:7109", "203.0.113.9:4444"]
    with ServerThread(app) as srv:
        codes = []
        for i, spelling in enumerate(spellings):
            headers = [("X-Forwarded-For", f"198.51.100.{i}"), ("X-Forwarded-For", spelling)]
            codes.append(HTTP.get(srv.url + "/api/qa/full", params={"question": QUESTION}, headers=headers)
                         .status_code)
    assert codes == [200, 200, 429, 429]


# ----------------------------------------------------------------- 6. fair queues


def test_one_client_cannot_fill_the_shared_queue(tmp_path: Path):
    """150 concurrent calls from one address; a second client is still answered, and the
    refused calls are counted, not logged as turns."""
    release = threading.Event()

    def slow(question: str, lang: str) -> list[Candidate]:
        if question.startswith("flood"):
            release.wait(30)
        return [Candidate(CAPITAL, 0.9)]

    log = SessionLog(tmp_path / "s.sqlite")
    limiter = ClientLimiter(RateLimiter(1_000_000, burst=1000), "127.0.0.1")  # tokens enough: only the share
    app = create_app(tiny_pipeline(backend=FakeBackend(slow)), rate_limiter=limiter, session_log=log,
                     max_concurrent=2)
    flood_codes: list[int] = []
    with ServerThread(app) as srv, httpx.Client(timeout=60, limits=httpx.Limits(max_connections=200)) as client:
        def flood(i: int) -> None:
            r = client.post(srv.url + "/gerbil", content=f"query=flood {i}&lang=en".encode(),
                            headers={"X-Forwarded-For": "198.51.100.7"})
            flood_codes.append(r.status_code)

        threads = [threading.Thread(target=flood, args=(i,)) for i in range(150)]
        for t in threads:
            t.start()
        deadline = time.monotonic() + 60
        while len(flood_codes) < 150 - 8 and time.monotonic() < deadline:  # all but its share refused
            time.sleep(0.05)
        answered: list[int] = []
        asker = threading.Thread(target=lambda: answered.append(HTTP.post(
            srv.url + "/gerbil", content=f"query={QUESTION}&lang=en".encode(),
            headers={"X-Forwarded-For": "203.0.113.9"}).status_code))
        asker.start()
        release.set()  # the flood's admitted questions finish; the second client is answered beside them
        asker.join(60)
        for t in threads:
            t.join(60)
        health = HTTP.get(srv.url + "/health").json()
    assert answered == [200]
    assert flood_codes.count(429) == 150 - 8 and flood_codes.count(200) == 8
    assert health["refused"] == {"busy": 150 - 8}
    rows = list(log.turns())
    log.close()
    assert len(rows) == 8 + 1  # the answered ones only: no row for a refused call


def test_in_flight_counts_per_client():
    share = InFlight(2)
    assert [share.try_enter("a") for _ in range(3)] == [True, True, False]
    assert share.try_enter("b")
    share.leave("a")
    assert share.try_enter("a") and len(share) == 3


# ----------------------------------------------------------------- 10. the minor doors


@pytest.fixture(scope="module")
def served():
    with ServerThread(create_app(tiny_pipeline()), header_timeout_s=0.5) as srv:
        yield srv


def test_slow_headers_are_cut_off(served):
    with socket.create_connection(("127.0.0.1", served.port)) as s:
        s.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        s.settimeout(30)
        started = time.monotonic()
        for _ in range(3):  # a byte now and then does not keep it open
            time.sleep(0.2)
            s.sendall(b"a")
        reply = s.recv(4096)
    assert reply == b""  # closed without a request ever being served
    assert time.monotonic() - started < 25  # long before the test's own 30 s
    assert HTTP.get(served.url + "/health").status_code == 200  # a normal client is unaffected


def test_a_kept_alive_connection_gets_its_header_deadline_again(served):
    with socket.create_connection(("127.0.0.1", served.port)) as s:
        s.settimeout(30)
        s.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert s.recv(65536).startswith(b"HTTP/1.1 200")
        s.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # the next request never ends
        while s.recv(65536):
            pass  # read what is left until the server closes


def test_unknown_hosts_are_refused(served):
    assert HTTP.get(served.url + "/health", headers={"Host": "evil.example"}).status_code == 400
    r = HTTP.post(served.url + "/gerbil", content=f"query={QUESTION}&lang=en".encode(), headers={"Host": "x"})
    assert r.status_code == 400 and r.json()["error"] == "bad_host"
    assert HTTP.get(served.url + "/health", headers={"Host": f"localhost:{served.port}"}).status_code == 200
    assert host_allowed("[::1]:8000", allowed_host_names("", "127.0.0.1"))
    assert host_allowed("api.example.org", allowed_host_names("*.example.org", "0.0.0.0"))
    assert not host_allowed("example.org.evil", allowed_host_names("*.example.org", "0.0.0.0"))
    assert host_allowed("anything", allowed_host_names("*", "127.0.0.1"))
    assert not host_allowed(None, allowed_host_names("", "127.0.0.1"))


def test_head_health_and_no_upload_route(served):
    head = HTTP.head(served.url + "/health")
    assert head.status_code == 200 and head.content == b""
    for path in ("/upload", "/gradio_api/upload", "/api/upload"):
        r = HTTP.post(served.url + path, files={"files": ("a.txt", b"x" * 100)})
        assert r.status_code in (404, 405), path


def test_health_shows_no_process_ids_paths_or_error_text(served):
    body = HTTP.get(served.url + "/health").text
    assert set(HTTP.get(served.url + "/health").json()) <= {"status", "backend", "kg", "validator", "workers",
                                                            "stuck", "refused", "kg_error", "error"}
    assert "/" not in body and "Error:" not in body


def test_nul_is_dropped_at_every_door(served):
    asked = "When was Einstein\x00 born?"
    r = HTTP.post(served.url + "/gerbil", content=f"query={asked}&lang=en".encode())
    question = r.json()["questions"][0]["question"][0]["string"]
    assert "\x00" not in question and question == "When was Einstein born?"
    r = HTTP.get(served.url + "/api/qa/full", params={"question": asked})
    assert r.status_code == 200 and "\x00" not in r.json()["question"]
    r = HTTP.post(served.url + "/api/ask", data={"question": asked, "log": "off"})
    assert r.status_code == 200 and "\x00" not in r.json()["question"]

