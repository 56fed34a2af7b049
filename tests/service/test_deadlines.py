"""One deadline per HTTP call and a byte cap on every reply, for both HTTP clients (QAnswer
backend, remote SPARQL endpoint), against real servers on 127.0.0.1 that drip their reply
one byte at a time or send far too much."""

from __future__ import annotations

import json
import time

import pytest

from backends.qanswer import QAnswerBackend
from core.errors import BackendResponseError, BackendTimeout, KGTimeout, KGUnavailable
from core.resilience import Backoff
from kg.client import RemoteKG
from tests.service.faulty_http import DripServer, Reply, ScriptedServer

DEADLINE_S = 1.5
SLACK_S = 5.0  # scheduling slack on a busy machine (CI runs two workers); the drips below would take 20 s and more
FAST = Backoff(base_s=0.01, max_s=0.05)
QANSWER_REPLY = json.dumps({"question": "q", "queries": [
    {"query": "SELECT ?x WHERE { wd:Q183 wdt:P36 ?x }", "confidence": 0.9, "kb": "wikidata"}]}).encode()
SPARQL_REPLY = json.dumps({"head": {"vars": ["x"]}, "results": {"bindings": [
    {"x": {"type": "uri", "value": "http://www.wikidata.org/entity/Q64"}}]}}).encode()


def _qanswer(url: str, **kw) -> QAnswerBackend:
    return QAnswerBackend(url, timeout_s=DEADLINE_S, retries=2, backoff=FAST, **kw)


def _remote(url: str, **kw) -> RemoteKG:
    return RemoteKG(url + "/query", timeout_s=DEADLINE_S, retries=2, backoff=FAST, **kw)


@pytest.mark.parametrize("drip_head", [False, True], ids=["body", "headers"])
def test_dripping_backend_is_cut_at_the_deadline(drip_head: bool):
    with DripServer(QANSWER_REPLY, interval_s=0.2, drip_head=drip_head) as srv:  # whole reply: 20 s and more
        t0 = time.monotonic()
        with pytest.raises(BackendTimeout) as info:
            _qanswer(srv.url).ask("q", "en")
        elapsed = time.monotonic() - t0
    assert DEADLINE_S - 0.1 <= elapsed <= DEADLINE_S + SLACK_S
    assert info.value.__cause__ is not None
    assert srv.connections == 1  # a timeout is not retried


@pytest.mark.parametrize("drip_head", [False, True], ids=["body", "headers"])
def test_dripping_sparql_endpoint_is_cut_at_the_deadline(drip_head: bool):
    with DripServer(SPARQL_REPLY, interval_s=0.2, drip_head=drip_head) as srv:
        t0 = time.monotonic()
        with pytest.raises(KGTimeout):
            _remote(srv.url).query("SELECT ?x WHERE { wd:Q183 wdt:P36 ?x }")
        elapsed = time.monotonic() - t0
    assert DEADLINE_S - 0.1 <= elapsed <= DEADLINE_S + SLACK_S


def test_the_same_drip_within_the_deadline_is_read_whole():
    """Control: the drip server does deliver a good reply when it has the time."""
    with DripServer(QANSWER_REPLY, chunk=64, interval_s=0.01) as srv:
        assert len(_qanswer(srv.url).ask("q", "en")) == 1


HUGE = b'{"queries": [' + b" " * (20 * 1024 * 1024) + b"]}"


@pytest.mark.parametrize("declared", [True, False], ids=["content-length", "chunked"])
def test_huge_backend_reply_is_cut_at_the_byte_cap(declared: bool):
    head = None if declared else b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n"
    with DripServer(HUGE, head=head, chunk=1024 * 1024, interval_s=0.0) as srv, \
            pytest.raises(BackendResponseError, match="byte cap"):
        _qanswer(srv.url, max_bytes=1024 * 1024).ask("q", "en")


def test_huge_sparql_reply_is_cut_at_the_byte_cap():
    reply = Reply(200, HUGE, {"Content-Type": "application/sparql-results+json"})
    with ScriptedServer(lambda r: reply) as srv, pytest.raises(KGUnavailable, match="byte cap"):
        _remote(srv.url, max_bytes=1024 * 1024).query("ASK {}")
