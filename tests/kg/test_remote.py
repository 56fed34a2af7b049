"""RemoteKG against a real ``oxigraph serve-read-only`` over the tiny graph, and against a
deliberately misbehaving HTTP server (faults)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from core.errors import KGQueryError, KGTimeout, KGUnavailable
from core.resilience import Backoff, CircuitBreaker
from kg.client import RemoteKG, fetch_labels
from kg.store import build_store
from service.kgserve import query_url, start_oxigraph
from tests import tiny_kg
from tests.service.faulty_http import Reply, ScriptedServer, free_port

FAST = Backoff(base_s=0.01, max_s=0.05)
SPARQL_JSON = {"Content-Type": "application/sparql-results+json"}


@pytest.fixture(scope="module")
def tiny_store_dir(tmp_path_factory) -> Path:
    """A persistent store built from the tiny graph's N-Triples (like the ``tiny_nt`` fixture)."""
    root = tmp_path_factory.mktemp("remote")
    nt = root / "tiny.nt"
    nt.write_text(tiny_kg.ntriples(), encoding="utf-8")
    return build_store(nt, root / "cache", progress=False).store


@pytest.fixture(scope="module")
def endpoint(tiny_store_dir: Path):
    """A real oxigraph SPARQL server on 127.0.0.1 over the tiny store."""
    port = free_port()
    process = start_oxigraph(tiny_store_dir, "127.0.0.1", port)
    yield query_url("127.0.0.1", port)
    process.kill()
    process.wait()


def test_select_ask_and_labels_over_a_real_endpoint(endpoint: str):
    kg = RemoteKG(endpoint, timeout_s=5)
    result = kg.query("SELECT ?c WHERE { wd:Q183 wdt:P36 ?c }")
    assert [t.value for t in result.column()] == [tiny_kg.BERLIN.value]
    assert result.column()[0].kind == "uri"
    assert kg.query("ASK { wd:Q64 wdt:P17 wd:Q183 }").boolean is True
    assert kg.query("ASK { wd:Q64 wdt:P17 wd:Q159 }").boolean is False
    dates = kg.query("SELECT ?d WHERE { wd:Q937 wdt:P569 ?d }").column()
    assert dates[0].datatype == "http://www.w3.org/2001/XMLSchema#dateTime"
    labels = fetch_labels(kg, [tiny_kg.GERMANY.value])
    assert labels[tiny_kg.GERMANY.value]["de"] == ["Deutschland"]
    assert "Federal Republic of Germany" in labels[tiny_kg.GERMANY.value]["en"]


def test_max_rows_and_same_rows_as_embedded(endpoint: str, tiny_kg_client):
    sparql = "SELECT ?city WHERE { ?city wdt:P31 wd:Q515 } ORDER BY ?city"
    remote = RemoteKG(endpoint, timeout_s=5)
    assert remote.query(sparql).column() == tiny_kg_client.query(sparql).column()
    assert len(remote.query(sparql, max_rows=2).rows) == 2


def test_bad_query_is_a_query_error_and_does_not_trip_the_breaker(endpoint: str):
    breaker = CircuitBreaker(failure_threshold=1)
    kg = RemoteKG(endpoint, timeout_s=5, breaker=breaker)
    with pytest.raises(KGQueryError):
        kg.query("SELECT ?x WHERE { ?x wdt:P31 ")
    assert breaker.state == "closed"


def test_endpoint_down_is_unavailable_within_the_timeout(tiny_store_dir: Path):
    port = free_port()
    process = start_oxigraph(tiny_store_dir, "127.0.0.1", port)
    kg = RemoteKG(query_url("127.0.0.1", port), timeout_s=2, backoff=FAST)
    assert kg.query("ASK { wd:Q64 wdt:P17 wd:Q183 }").boolean is True
    process.kill()
    process.wait()
    t0 = time.monotonic()
    with pytest.raises(KGUnavailable, match="cannot connect") as info:
        kg.query("ASK { wd:Q64 wdt:P17 wd:Q183 }")
    assert time.monotonic() - t0 < 2.5
    assert info.value.__cause__ is not None


def test_slow_endpoint_times_out():
    with ScriptedServer(lambda r: Reply.json({"boolean": True}, delay_s=3, headers=SPARQL_JSON)) as srv:
        kg = RemoteKG(srv.url + "/query", timeout_s=0.5, backoff=FAST)
        t0 = time.monotonic()
        with pytest.raises(KGTimeout):
            kg.query("ASK {}")
        assert time.monotonic() - t0 < 2.5  # not the endpoint's 3 s
        assert len(srv.requests) == 1
        assert srv.requests[0].method == "POST"
        assert b"query=" in srv.requests[0].body


def test_5xx_then_ok_and_429_retry_after():
    replies = iter([Reply(503, b"busy"), Reply(429, b"", {"Retry-After": "1"})])

    def handler(req):
        return next(replies, None) or Reply.json({"boolean": True}, headers=SPARQL_JSON)

    with ScriptedServer(handler) as srv:
        kg = RemoteKG(srv.url + "/query", timeout_s=5, retries=2, backoff=FAST)
        t0 = time.monotonic()
        assert kg.query("ASK {}").boolean is True
        assert time.monotonic() - t0 >= 0.95
    assert len(srv.requests) == 3


def test_server_side_timeout_and_retry_exhaustion():
    with ScriptedServer(lambda r: Reply(500, b"java.util.concurrent.TimeoutException")) as srv:
        with pytest.raises(KGTimeout):
            RemoteKG(srv.url, timeout_s=5, backoff=FAST).query("ASK {}")
        assert len(srv.requests) == 1
    with ScriptedServer(lambda r: Reply(502, b"bad gateway")) as srv:
        with pytest.raises(KGUnavailable, match="502"):
            RemoteKG(srv.url, timeout_s=5, retries=2, backoff=FAST).query("ASK {}")
        assert len(srv.requests) == 3


@pytest.mark.parametrize("body", [b"{oops", b"<html>maintenance</html>", b'{"head": {}}', b"[]"])
def test_malformed_reply_is_unavailable(body: bytes):
    with ScriptedServer(lambda r: Reply(200, body, SPARQL_JSON)) as srv, pytest.raises(KGUnavailable):
        RemoteKG(srv.url, timeout_s=5, backoff=FAST).query("SELECT ?x WHERE { ?x ?p ?o }")


def test_breaker_fails_fast_while_open():
    with ScriptedServer(lambda r: Reply(503, b"down")) as srv:
        kg = RemoteKG(srv.url, timeout_s=5, retries=0, breaker=CircuitBreaker(2, 60), backoff=FAST)
        for _ in range(2):
            with pytest.raises(KGUnavailable, match="503"):
                kg.query("ASK {}")
        with pytest.raises(KGUnavailable, match="circuit breaker open"):
            kg.query("ASK {}")
        assert len(srv.requests) == 2


def test_request_is_a_sparql_protocol_form_post_asking_for_json():
    with ScriptedServer(lambda r: Reply.json({"boolean": True}, headers=SPARQL_JSON)) as srv:
        assert RemoteKG(srv.url + "/query", timeout_s=5, user_agent="kgqa-test/1").query("ASK {}").boolean is True
    (request,) = srv.requests
    headers = {k.lower(): v for k, v in request.headers.items()}
    assert request.method == "POST" and request.path == "/query"
    assert headers["content-type"].startswith("application/x-www-form-urlencoded")
    assert "application/sparql-results+json" in headers["accept"]
    assert headers["user-agent"] == "kgqa-test/1"
    assert request.body.startswith(b"query=") and b"ASK" in request.body
    assert request.query == {}  # JSON by content negotiation only (no format=/output= parameters)


@pytest.mark.parametrize(("status", "error"), [(401, KGUnavailable), (404, KGUnavailable), (414, KGUnavailable),
                                                (403, KGUnavailable), (400, KGQueryError)])
def test_other_statuses_are_translated_and_not_retried(status: int, error: type):
    with ScriptedServer(lambda r: Reply(status, b"nope")) as srv, pytest.raises(error) as info:
        RemoteKG(srv.url, timeout_s=5, retries=2, backoff=FAST).query("ASK {}")
    assert len(srv.requests) == 1
    assert info.value.__cause__ is not None  # translated at the boundary, cause kept
