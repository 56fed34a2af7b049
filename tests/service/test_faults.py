"""Service faults end to end through ``Pipeline.answer``: every backend or endpoint fault
gives the localized "service unavailable, try again" within the configured timeout,
is logged, and never yields an answer."""

from __future__ import annotations

import logging
import time
from urllib.parse import parse_qs

import pytest

from backends.fake import FakeBackend
from backends.qanswer import QAnswerBackend
from chat.messages import message, turn_message
from core.errors import BackendUnavailable
from core.resilience import Backoff, CircuitBreaker
from kg.client import RemoteKG
from qa.reading.detect import warm_up
from service.app import create_app
from service.server import ServerThread
from tests.service.faulty_http import Reply, Request, ScriptedServer, free_port
from tests.service.helpers import CAPITAL, scripted_backend, tiny_pipeline

TIMEOUT_S = 1.0
SLACK_S = 3.0  # scheduling slack on a busy machine (CI runs two workers); still below the faulty delays
FAST = Backoff(base_s=0.01, max_s=0.05)
QUESTION = {"de": "Was ist die Hauptstadt von Deutschland?", "ru": "Столица Германии?",
            "en": "What is the capital of Germany?"}

FAULTS: dict[str, Reply] = {
    "timeout": Reply.json({}, delay_s=TIMEOUT_S + 4),
    "5xx": Reply(503, b"<html>Service Unavailable</html>"),
    "429": Reply(429, b"slow down", {"Retry-After": "30"}),
    "malformed": Reply(200, b'{"queries": [{"query": ', {"Content-Type": "application/json"}),
}


@pytest.fixture(scope="module", autouse=True)
def _warm_language_detector():
    """The language detectors load their models on first use (seconds): keep that out of the timings."""
    warm_up()


def _assert_service_error(turn, lang: str, elapsed: float) -> None:
    assert turn.status == "service_error"
    assert not turn.answered and turn.answers == [] and turn.boolean is None and turn.sparql is None
    assert turn_message(turn) == message("service_unavailable", lang)
    assert elapsed <= TIMEOUT_S + SLACK_S


def _qanswer(url: str) -> QAnswerBackend:
    return QAnswerBackend(url, timeout_s=TIMEOUT_S, retries=2, backoff=FAST)


@pytest.mark.parametrize("lang", ["de", "ru"])
@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_backend_fault_gives_localized_service_unavailable(fault: str, lang: str, caplog):
    with ScriptedServer(lambda r: FAULTS[fault]) as srv, caplog.at_level(logging.WARNING):
        pipeline = tiny_pipeline(backend=_qanswer(srv.url))
        t0 = time.monotonic()
        turn = pipeline.answer(QUESTION[lang], lang)
        elapsed = time.monotonic() - t0
    _assert_service_error(turn, lang, elapsed)
    assert turn.error.startswith(("BackendTimeout", "BackendUnavailable", "BackendResponseError"))
    assert any(r.name == "backends.qanswer" and r.levelno == logging.WARNING for r in caplog.records)


def test_backend_refused_connection(caplog):
    pipeline = tiny_pipeline(backend=_qanswer(f"http://127.0.0.1:{free_port()}"))
    with caplog.at_level(logging.WARNING):
        t0 = time.monotonic()
        turn = pipeline.answer(QUESTION["de"], "de")
    _assert_service_error(turn, "de", time.monotonic() - t0)
    assert "BackendUnavailable" in turn.error
    assert any("cannot connect" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_endpoint_fault_gives_localized_service_unavailable(fault: str, caplog):
    with ScriptedServer(lambda r: FAULTS[fault]) as srv, caplog.at_level(logging.WARNING):
        kg = RemoteKG(srv.url + "/query", timeout_s=TIMEOUT_S, backoff=FAST)
        pipeline = tiny_pipeline(kg=kg)
        pipeline.query_timeout_s = TIMEOUT_S
        t0 = time.monotonic()
        turn = pipeline.answer(QUESTION["ru"], "ru")
        elapsed = time.monotonic() - t0
    _assert_service_error(turn, "ru", elapsed)
    assert turn.error.startswith(("KGTimeout", "KGUnavailable"))
    assert any(r.name == "kg.client" and r.levelno == logging.WARNING for r in caplog.records)


def test_endpoint_refused_connection():
    kg = RemoteKG(f"http://127.0.0.1:{free_port()}/query", timeout_s=TIMEOUT_S, backoff=FAST)
    t0 = time.monotonic()
    turn = tiny_pipeline(kg=kg).answer(QUESTION["en"], "en")
    _assert_service_error(turn, "en", time.monotonic() - t0)


def test_transient_fault_is_retried_into_the_right_answer():
    replies = iter([Reply(502, b"bad gateway"), Reply(429, b"", {"Retry-After": "0"})])

    def handler(req: Request) -> Reply:
        ok = Reply.json({"question": "q", "queries": [{"query": CAPITAL, "confidence": 0.9, "kb": "wikidata"}]})
        return next(replies, None) or ok

    with ScriptedServer(handler) as srv:
        turn = tiny_pipeline(backend=_qanswer(srv.url)).answer(QUESTION["de"], "de")
    assert turn.status == "ok" and [a.id for a in turn.answers] == ["Q64"]
    assert len(srv.requests) == 3


def test_label_fault_after_the_answer_shows_ids_not_a_wrong_answer():
    binding = {"answer": {"type": "uri", "value": "http://www.wikidata.org/entity/Q64"}}

    def handler(req: Request) -> Reply:
        query = parse_qs(req.body.decode()).get("query", [""])[0]
        if "P36" in query and "rdf-schema#label" not in query:  # the answer query itself, not a names read
            return Reply.json({"head": {"vars": ["answer"]}, "results": {"bindings": [binding]}})
        return Reply(503, b"labels are down")

    with ScriptedServer(handler) as srv:
        kg = RemoteKG(srv.url, timeout_s=TIMEOUT_S, retries=0, backoff=FAST)
        turn = tiny_pipeline(kg=kg).answer(QUESTION["en"], "en")
    assert turn.status == "ok"
    assert [(a.id, a.label) for a in turn.answers] == [("Q64", "Q64")]


def test_open_breaker_answers_next_users_fast():
    """A hanging backend costs the first users the timeout; then the breaker fails fast."""
    with ScriptedServer(lambda r: Reply.json({}, delay_s=5)) as srv:
        backend = QAnswerBackend(srv.url, timeout_s=0.5, breaker=CircuitBreaker(2, 60), backoff=FAST)
        pipeline = tiny_pipeline(backend=backend)
        for _ in range(2):
            assert pipeline.answer(QUESTION["en"], "en").status == "service_error"
        t0 = time.monotonic()
        turn = pipeline.answer(QUESTION["de"], "de")
        assert time.monotonic() - t0 < 5  # not the hanging backend's 5 s
        assert len(srv.requests) == 2  # the open breaker sent nothing
    assert turn.status == "service_error" and "circuit breaker open" in turn.error
    assert turn_message(turn) == message("service_unavailable", "de")


def test_chain_chat_to_service_with_a_failing_backend():
    def broken(question: str, lang: str):
        raise BackendUnavailable("scripted outage")

    with ServerThread(create_app(tiny_pipeline(backend=FakeBackend(broken)))) as srv:
        turn = tiny_pipeline(backend=_qanswer(srv.url)).answer(QUESTION["ru"], "ru")
    assert turn.status == "service_error" and turn_message(turn) == message("service_unavailable", "ru")


def test_user_text_never_reaches_a_query_string():
    """Hostile questions travel only as data: the KG sees the backend's SPARQL, never user text."""
    seen: list[str] = []

    class RecordingKG:
        name = "recording"

        def __init__(self, inner) -> None:
            self.inner = inner

        def query(self, sparql, *, timeout_s=None, max_rows=None):
            seen.append(sparql)
            return self.inner.query(sparql, timeout_s=timeout_s, max_rows=max_rows)

    hostile = 'x" } ; DROP ALL ; SELECT * WHERE { ?s ?p ?o <script>alert(1)</script>'
    base = tiny_pipeline()
    pipeline = tiny_pipeline(backend=FakeBackend(lambda q, lang: scripted_backend().ask(QUESTION["en"], lang)),
                             kg=RecordingKG(base.kg))
    turn = pipeline.answer(hostile, "en")
    assert turn.status == "ok" and seen
    assert not any("DROP" in s or "script" in s or hostile in s for s in seen)
