"""Hostile upstream replies (issue 44, cases 1, 6, 7, 8 and the bound on what a question
sends), each from a real HTTP server on 127.0.0.1 (:mod:`tests.service.faulty_http`):
compression bombs are cut while they are decoded, stacked or unrequested codings refused,
malformed shapes are "service unavailable", a dripping endpoint is cut at the question's
budget, and one question cannot send more than its share."""

from __future__ import annotations

import gzip
import json
import time
import tracemalloc
import zlib

import pytest

from backends.qanswer import QAnswerBackend
from core.errors import BackendResponseError, KGTimeout, KGUnavailable
from core.http import ACCEPT_ENCODING
from core.resilience import MAX_SENT_PER_QUESTION, question_budget
from kg.client import RemoteKG
from tests.service.faulty_http import DripServer, Reply, ScriptedServer

ROW = {"head": {"vars": ["x"]}, "results": {"bindings": [{"x": {"type": "uri", "value": "http://e/Q1"}}]}}
MIB = 1024 * 1024


def _bomb(decoded_mib: int) -> bytes:
    """gzip of ``decoded_mib`` MiB of zeros (about 1 KiB per MiB)."""
    out = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    zeros = bytes(MIB)
    return b"".join(out.compress(zeros) for _ in range(decoded_mib)) + out.flush()


def _served(body: bytes, encoding: str | None, content_type: str = "application/sparql-results+json"):
    headers = {"Content-Type": content_type}
    if encoding:
        headers["Content-Encoding"] = encoding
    return ScriptedServer(lambda _req: Reply(200, body, headers))


def _peak_mib(fn) -> float:
    tracemalloc.start()
    try:
        fn()
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak / MIB


def _kg(url: str, **kw) -> RemoteKG:
    return RemoteKG(url + "/query", timeout_s=10, retries=0, **kw)


def test_a_gzip_bomb_is_cut_at_the_cap_while_it_is_decoded():
    bomb = _bomb(1024)  # 1 GiB of zeros in about 1 MiB
    with _served(bomb, "gzip") as srv:
        kg = _kg(srv.url)

        def run():
            with pytest.raises(KGUnavailable, match="cap"):
                kg.query("ASK {}")
        peak = _peak_mib(run)
        assert srv.requests[0].headers.get("Accept-Encoding") == ACCEPT_ENCODING
    assert peak < 3 * 8 + 8, f"peak {peak:.0f} MiB for an 8 MiB cap"


@pytest.mark.parametrize("encoding", ["gzip, gzip", "gzip,deflate", "br", "zstd", "compress", "x-bomb"])
def test_stacked_and_unrequested_codings_are_refused_before_decoding(encoding):
    inner = gzip.compress(gzip.compress(json.dumps(ROW).encode()))
    with _served(inner, encoding) as srv, pytest.raises(KGUnavailable, match="refused"):
        _kg(srv.url).query("SELECT ?x WHERE { ?x ?p ?o }")


@pytest.mark.parametrize("encoding,encode", [
    (None, lambda b: b), ("identity", lambda b: b), ("gzip", gzip.compress), ("x-gzip", gzip.compress),
    ("deflate", zlib.compress), ("deflate", lambda b: zlib.compress(b)[2:-4]),  # zlib-wrapped and raw deflate
])
def test_the_codings_asked_for_still_decode(encoding, encode):
    with _served(encode(json.dumps(ROW).encode()), encoding) as srv:
        result = _kg(srv.url).query("SELECT ?x WHERE { ?x ?p ?o }")
    assert [t.value for t in result.column("x")] == ["http://e/Q1"]


def test_a_corrupt_gzip_body_is_service_unavailable():
    with _served(b"\x1f\x8b\x08\x00garbage-not-deflate", "gzip") as srv, \
            pytest.raises(KGUnavailable, match="undecodable"):
        _kg(srv.url).query("ASK {}")


def test_the_qanswer_client_cuts_a_bomb_too():
    with _served(_bomb(512), "gzip", "application/json") as srv:
        backend = QAnswerBackend(srv.url, retries=0)

        def run():
            with pytest.raises(BackendResponseError, match="cap"):
                backend.ask("Where was Einstein born?", "en")
        assert _peak_mib(run) < 32
    with _served(b"\x00" * 10, "br", "application/json") as srv, pytest.raises(BackendResponseError, match="refused"):
        QAnswerBackend(srv.url, retries=0).ask("Where was Einstein born?", "en")


# ----------------------------------------------------------------- 6. malformed replies


MALFORMED = {
    "nested": b"[" * 100_000 + b"]" * 100_000,
    "nested object": b'{"head":' * 50_000 + b"1" + b"}" * 50_000,
    "string bindings": json.dumps({"head": {"vars": ["x"]}, "results": {"bindings": ["x", "y"]}}).encode(),
    "string term": json.dumps({"head": {"vars": ["x"]}, "results": {"bindings": [{"x": "Q1"}]}}).encode(),
    "value not a string": json.dumps({"head": {"vars": ["x"]},
                                      "results": {"bindings": [{"x": {"type": "uri", "value": 5}}]}}).encode(),
    "unknown term type": json.dumps({"head": {"vars": ["x"]},
                                     "results": {"bindings": [{"x": {"type": "evil", "value": "a"}}]}}).encode(),
    "no results": json.dumps({"head": {"vars": ["x"]}}).encode(),
    "boolean a string": json.dumps({"head": {}, "boolean": "yes"}).encode(),
    "a list": b"[1, 2, 3]",
    "not json": b"<html>oops</html>",
    "NaN": b'{"head": {"vars": ["x"]}, "results": NaN}',
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_a_malformed_endpoint_reply_is_service_unavailable(name):
    with _served(MALFORMED[name], None) as srv, pytest.raises(KGUnavailable, match="malformed"):
        _kg(srv.url).query("SELECT ?x WHERE { ?x ?p ?o }")


@pytest.mark.parametrize("body", [
    b"[" * 100_000 + b"]" * 100_000,
    b'{"queries": "SELECT"}',
    b'{"queries": [{"query": 5}]}',
    b'{"queries": [{"query": "ASK {}", "confidence": NaN}]}',
    b'{"queries": [{"query": "ASK {}", "confidence": "Infinity"}]}',
    b'{"queries": [{"confidence": 0.5}]}',
])
def test_a_malformed_qanswer_reply_is_a_response_error(body):
    with _served(body, None, "application/json") as srv, pytest.raises(BackendResponseError, match="malformed"):
        QAnswerBackend(srv.url, retries=0).ask("Where was Einstein born?", "en")


def test_big_replies_keep_at_most_the_row_bound():
    rows = [{"x": {"type": "literal", "value": str(i)}} for i in range(300_000)]
    body = json.dumps({"head": {"vars": ["x"]}, "results": {"bindings": rows}}).encode()
    assert len(body) < 16 * MIB
    with _served(body, None) as srv:
        result = RemoteKG(srv.url + "/query", timeout_s=30, retries=0, max_bytes=16 * MIB).query("SELECT ?x {}")
    assert len(result.rows) == 250_000


# ----------------------------------------------------------------- 7. one budget, 8. what is sent


def test_a_dripping_endpoint_is_cut_at_the_question_budget():
    body = json.dumps(ROW).encode()
    with DripServer(body, chunk=1, interval_s=0.5) as srv:
        kg = RemoteKG(srv.url + "/query", timeout_s=300, retries=0)
        started = time.monotonic()
        with question_budget(1.5), pytest.raises((KGTimeout, KGUnavailable)):
            kg.query("SELECT ?x {}", timeout_s=300)
        assert time.monotonic() - started < 2.5


def test_no_request_is_sent_once_the_budget_is_spent():
    with _served(json.dumps(ROW).encode(), None) as srv:
        kg = _kg(srv.url)
        with question_budget(0.01):
            time.sleep(0.05)
            with pytest.raises(KGUnavailable, match="budget"):
                kg.query("SELECT ?x {}")
        backend = QAnswerBackend(srv.url, retries=0)
        with question_budget(0.01):
            time.sleep(0.05)
            with pytest.raises(Exception, match="budget"):
                backend.ask("Where was Einstein born?", "en")
    assert srv.requests == []


def test_one_question_sends_at_most_its_share():
    big = "SELECT ?x WHERE { VALUES ?x { " + "<http://e/x> " * 60_000 + "} }"  # about 0.8 MB
    with _served(json.dumps(ROW).encode(), None) as srv:
        kg = _kg(srv.url)
        sent = 0
        with question_budget(30), pytest.raises(KGUnavailable, match="bytes"):
            for _ in range(20):
                kg.query(big)
                sent += len(big)
        assert sent <= MAX_SENT_PER_QUESTION
        assert 0 < len(srv.requests) < 20
        kg.query(big)  # outside a question: not counted
