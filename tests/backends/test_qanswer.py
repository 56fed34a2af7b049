"""The QAnswer HTTP client against a real, deliberately misbehaving server on 127.0.0.1."""

from __future__ import annotations

import time

import pytest

from backends.qanswer import QAnswerBackend, parse_candidates
from core.errors import BackendResponseError, BackendTimeout, BackendUnavailable
from core.resilience import Backoff, CircuitBreaker, parse_retry_after
from qa.candidate import Candidate
from qa.generate import MAX_CANDIDATES
from tests.service.faulty_http import Reply, Request, ScriptedServer, free_port

QUERIES = [
    {"query": "SELECT ?x WHERE { wd:Q183 wdt:P36 ?x }", "confidence": 0.9, "kb": "wikidata"},
    {"query": "SELECT ?x WHERE { wd:Q64 wdt:P17 ?x }", "confidence": 0.4, "kb": "wikidata"},
]
FAST = Backoff(base_s=0.01, max_s=0.05)


def ok(req: Request) -> Reply:
    return Reply.json({"question": req.query["question"][0], "queries": QUERIES})


def backend(server: ScriptedServer | str, **kw) -> QAnswerBackend:
    url = server if isinstance(server, str) else server.url
    kw.setdefault("backoff", FAST)
    return QAnswerBackend(url, **kw)


def test_ok_returns_candidates_in_order_and_sends_params():
    with ScriptedServer(ok) as srv:
        got = backend(srv, kb="wikidata").ask("Was ist die Hauptstadt von Deutschland? & co", "de")
    # a QAnswer reply is text only: the shape is read from it once, here at the boundary
    assert got == [Candidate(QUERIES[0]["query"], 0.9, shape="plain"), Candidate(QUERIES[1]["query"], 0.4,
                                                                                   shape="plain")]
    req = srv.requests[0]
    assert req.path == "/api/qa/full"
    assert req.query == {"question": ["Was ist die Hauptstadt von Deutschland? & co"], "lang": ["de"],
                         "kb": ["wikidata"], "user": ["open"]}
    assert "authorization" not in {k.lower() for k in req.headers}


def test_user_and_bearer_token_are_sent():
    with ScriptedServer(ok) as srv:
        backend(srv, user="team-a", token="s3cret").ask("Who?", "en")
    req = srv.requests[0]
    assert req.query["user"] == ["team-a"]
    assert {k.lower(): v for k, v in req.headers.items()}["authorization"] == "Bearer s3cret"


def test_the_gate_weighs_qanswer_scores_apart_from_the_local_rankers():
    from validator.gate import BACKEND_RANK_WEIGHTS, backend_rank_weight

    assert backend_rank_weight(0.3, "local") == 0.3  # the calibrated weight
    assert backend_rank_weight(0.3, "qanswer") == BACKEND_RANK_WEIGHTS["qanswer"] == 0.0  # uncalibrated


def test_429s_do_not_open_the_breaker():
    with ScriptedServer(lambda req: Reply(429, b"slow down", {"Retry-After": "60"})) as srv:
        breaker = CircuitBreaker(failure_threshold=2, reset_timeout_s=30)
        b = backend(srv, retries=0, breaker=breaker)
        for _ in range(4):
            with pytest.raises(BackendUnavailable, match="429"):
                b.ask("q", "en")
        assert breaker.state == "closed"
        assert len(srv.requests) == 4  # each request was sent: one client's limit, not an outage


def test_at_most_max_candidates():
    many = [{"query": f"ASK {{ wd:Q{i} wdt:P31 wd:Q5 }}", "confidence": 1 - i / 100, "kb": "wikidata"}
            for i in range(1, 100)]
    with ScriptedServer(lambda r: Reply.json({"question": "q", "queries": many})) as srv:
        got = backend(srv).ask("q", "en")
    assert len(got) == MAX_CANDIDATES
    assert [c.sparql for c in got] == [m["query"] for m in many[:MAX_CANDIDATES]]


def test_timeout_is_bounded_by_the_budget():
    with ScriptedServer(lambda r: Reply.json({"queries": []}, delay_s=3)) as srv:
        b = backend(srv, timeout_s=0.5, retries=2)
        t0 = time.monotonic()
        with pytest.raises(BackendTimeout) as info:
            b.ask("q", "en")
        elapsed = time.monotonic() - t0
    assert elapsed < 2.5  # not the backend's 3 s
    assert info.value.__cause__ is not None  # translated with `from exc`
    assert len(srv.requests) == 1  # no retry once the budget is spent


def test_5xx_is_retried_then_succeeds():
    replies = iter([Reply(503, b"busy"), Reply(500, b"oops")])

    def handler(req: Request) -> Reply:
        return next(replies, None) or ok(req)

    with ScriptedServer(handler) as srv:
        got = backend(srv, retries=2).ask("q", "en")
    assert len(got) == 2
    assert len(srv.requests) == 3


def test_5xx_exhausts_retries():
    with ScriptedServer(lambda r: Reply(502, b"<html>bad gateway</html>")) as srv, \
            pytest.raises(BackendUnavailable, match="502"):
        backend(srv, retries=2).ask("q", "en")
    assert len(srv.requests) == 3  # first try + 2 retries, bounded


def test_429_retry_after_is_honoured():
    replies = iter([Reply(429, b"", {"Retry-After": "1"})])

    def handler(req: Request) -> Reply:
        return next(replies, None) or ok(req)

    with ScriptedServer(handler) as srv:
        t0 = time.monotonic()
        got = backend(srv, timeout_s=5).ask("q", "en")
        elapsed = time.monotonic() - t0
    assert len(got) == 2
    assert elapsed >= 0.95  # waited as told
    assert len(srv.requests) == 2


def test_429_retry_after_beyond_budget_fails_fast():
    with ScriptedServer(lambda r: Reply(429, b"", {"Retry-After": "120"})) as srv:
        t0 = time.monotonic()
        with pytest.raises(BackendUnavailable, match="429"):
            backend(srv, timeout_s=2).ask("q", "en")
        assert time.monotonic() - t0 < 10.0  # not the 120 s the server asked for (slack for a busy machine)
    assert len(srv.requests) == 1


@pytest.mark.parametrize("body", [b"{not json", b"<html>Hello</html>", b'{"queries": {"a": 1}}',
                                  b'{"queries": [{"confidence": 0.3}]}', b'[1, 2]',
                                  b'{"queries": [{"query": "ASK {}", "confidence": "high"}]}'])
def test_malformed_replies(body: bytes):
    with ScriptedServer(lambda r: Reply(200, body, {"Content-Type": "application/json"})) as srv, \
            pytest.raises(BackendResponseError):
        backend(srv).ask("q", "en")
    assert len(srv.requests) == 1  # not retried


def test_unexpected_4xx_is_a_response_error():
    with ScriptedServer(lambda r: Reply(404, b"not here")) as srv, pytest.raises(BackendResponseError, match="404"):
        backend(srv).ask("q", "en")


def test_refused_connection():
    b = backend(f"http://127.0.0.1:{free_port()}", timeout_s=2, retries=1)
    t0 = time.monotonic()
    with pytest.raises(BackendUnavailable, match="cannot connect") as info:
        b.ask("q", "en")
    assert time.monotonic() - t0 < 2.5
    assert info.value.__cause__ is not None


def test_circuit_opens_fails_fast_then_half_opens():
    healthy = {"on": False}

    def handler(req: Request) -> Reply:
        return ok(req) if healthy["on"] else Reply(500, b"down")

    with ScriptedServer(handler) as srv:
        breaker = CircuitBreaker(failure_threshold=3, reset_timeout_s=0.5)
        b = backend(srv, retries=0, breaker=breaker)
        for _ in range(3):
            with pytest.raises(BackendUnavailable, match="500"):
                b.ask("q", "en")
        assert breaker.state == "open"
        sent = len(srv.requests)
        with pytest.raises(BackendUnavailable, match="circuit breaker open"):
            b.ask("q", "en")
        assert len(srv.requests) == sent  # failed fast, nothing sent
        time.sleep(0.6)
        assert breaker.state == "half_open"
        with pytest.raises(BackendUnavailable, match="500"):  # the trial fails: open again
            b.ask("q", "en")
        assert breaker.state == "open"
        time.sleep(0.6)
        healthy["on"] = True
        assert len(b.ask("q", "en")) == 2  # trial succeeds: closed
        assert breaker.state == "closed"


def test_breaker_lets_only_one_trial_through_when_half_open():
    now = [0.0]
    breaker = CircuitBreaker(failure_threshold=1, reset_timeout_s=10, clock=lambda: now[0])
    breaker.record_failure()
    assert not breaker.allow()
    now[0] = 10.0
    assert breaker.allow()
    assert not breaker.allow()  # second caller while the trial runs
    breaker.record_success()
    assert breaker.allow() and breaker.allow()


def test_parse_retry_after():
    assert parse_retry_after("3") == 3.0
    assert parse_retry_after(None) is None
    assert parse_retry_after("soon") is None
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412470.0) == pytest.approx(10.0)


def test_parse_candidates_accepts_missing_confidence_and_numeric_strings():
    got = parse_candidates({"queries": [{"query": "ASK {}"}, {"query": "ASK { }", "confidence": "0.25"}]})
    assert got == [Candidate("ASK {}", 0.0, shape="ask"), Candidate("ASK { }", 0.25, shape="ask")]
