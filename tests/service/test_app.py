"""The web API, served for real by uvicorn on 127.0.0.1 over the tiny KG."""

from __future__ import annotations

import logging

import httpx
import pytest

from backends.fake import FakeBackend
from backends.qanswer import QAnswerBackend
from core.errors import BackendTimeout
from qa.guard import DEFAULT_LIMIT
from service.app import MAX_BODY_BYTES, create_app
from service.formats import parse_gerbil_body
from service.ratelimit import RateLimiter
from service.server import ServerThread
from service.session_log import SessionLog
from tests import tiny_kg
from tests.service.helpers import CAPITAL, COUNTRY, SCRIPT, scripted_backend, tiny_pipeline

HTTP = httpx.Client(timeout=60)  # generous: CI machines may be busy

XSD = "http://www.w3.org/2001/XMLSchema#"


@pytest.fixture(scope="module")
def served():
    """(server, pipeline) - one real server for the module."""
    pipeline = tiny_pipeline()
    with ServerThread(create_app(pipeline)) as srv:
        yield srv, pipeline


@pytest.fixture
def url(served) -> str:
    return served[0].url


@pytest.fixture
def backend_calls(served) -> list[tuple[str, str]]:
    calls = served[1].backend.calls
    calls.clear()
    return calls


def test_health(url):
    r = HTTP.get(url + "/health")
    assert r.status_code == 200
    assert r.json() == {"status": "ok", "backend": "fake", "kg": "embedded", "validator": "off", "refused": {}}


@pytest.mark.parametrize("method", ["GET", "POST-query", "POST-form"])
def test_qa_full_shape(url, method, backend_calls):
    params = {"question": "What is the capital of Germany?", "lang": "en", "kb": "wikidata"}
    if method == "GET":
        r = HTTP.get(url + "/api/qa/full", params=params)
    elif method == "POST-query":
        r = HTTP.post(url + "/api/qa/full", params=params)
    else:
        r = HTTP.post(url + "/api/qa/full", data=params)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/json")
    assert r.json() == {"question": "What is the capital of Germany?",
                        "queries": [{"query": CAPITAL, "confidence": 0.91, "kb": "wikidata"},
                                    {"query": COUNTRY, "confidence": 0.125, "kb": "wikidata"}]}
    assert backend_calls == [("What is the capital of Germany?", "en")]


def test_qa_full_detects_language_when_missing(url, backend_calls):
    r = HTTP.get(url + "/api/qa/full", params={"question": "Столица Германии?"})
    assert r.status_code == 200 and len(r.json()["queries"]) == 1
    assert backend_calls == [("Столица Германии?", "ru")]


@pytest.mark.parametrize("params, error", [
    ({"question": ""}, "bad_input"),
    ({"question": "x" * 1001}, "bad_input"),
    ({"question": "What is the capital of Germany?", "kb": "dbpedia"}, "unknown_kb"),
])
def test_qa_full_rejects_bad_input(url, params, error, backend_calls):
    r = HTTP.get(url + "/api/qa/full", params=params)
    assert r.status_code == 400
    assert r.json()["error"] == error
    assert backend_calls == []


def test_gerbil_raw_body_split_on_last_lang(url, backend_calls):
    body = b"query=Tom & Jerry &lang=fr, what is the capital of Germany?&lang=en"
    r = HTTP.post(url + "/gerbil", content=body, headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 200
    assert backend_calls == [("Tom & Jerry &lang=fr, what is the capital of Germany?", "en")]
    q = r.json()["questions"][0]
    assert q["question"] == [{"language": "en", "string": "Tom & Jerry &lang=fr, what is the capital of Germany?"}]
    assert q["answers"] == [{"head": {"vars": ["answer"]}, "results": {"bindings": []}}]  # abstain


def test_gerbil_answer_as_sparql_json_bindings(url):
    r = HTTP.post(url + "/gerbil", content=b"query=What is the capital of Germany?&lang=en")
    q = r.json()["questions"][0]
    assert q["query"] == {"sparql": f"{CAPITAL}\nLIMIT {DEFAULT_LIMIT}"}  # what ran: the guard added a LIMIT
    assert q["answers"] == [{"head": {"vars": ["answer"]}, "results": {"bindings": [
        {"answer": {"type": "uri", "value": tiny_kg.BERLIN.value}}]}}]


def test_gerbil_literal_and_boolean(url):
    q = HTTP.post(url + "/gerbil", content=b"query=When was Einstein born?&lang=en").json()["questions"][0]
    assert q["answers"][0]["results"]["bindings"] == [
        {"answer": {"type": "literal", "value": "1879-03-14T00:00:00Z", "datatype": XSD + "dateTime"}}]
    q = HTTP.post(url + "/gerbil", content=b"query=Is Berlin in Germany?&lang=en").json()["questions"][0]
    assert q["answers"] == [{"head": {}, "boolean": True}]


def test_gerbil_url_encoded_and_utf8_bodies(url, backend_calls):
    HTTP.post(url + "/gerbil", data={"query": "Was ist die Hauptstadt von Deutschland?", "lang": "de"})
    HTTP.post(url + "/gerbil", content="query=Столица Германии?&lang=ru".encode())
    assert backend_calls == [("Was ist die Hauptstadt von Deutschland?", "de"), ("Столица Германии?", "ru")]


def test_gerbil_empty_answer_abstains_and_bad_bodies_are_400(url):
    q = HTTP.post(url + "/gerbil", content=b"query=What is the capital of Einstein?&lang=en").json()["questions"][0]
    assert q["answers"][0]["results"]["bindings"] == [] and "query" not in q
    assert HTTP.post(url + "/gerbil", content=b"question=hi").status_code == 400
    assert HTTP.post(url + "/gerbil", content=b"query=&lang=en").status_code == 400
    assert HTTP.post(url + "/gerbil", content=b"query=" + b"a" * (MAX_BODY_BYTES + 1)).status_code == 413


def test_html_in_labels_is_served_as_json_not_html(url):
    r = HTTP.post(url + "/gerbil", content=b"query=Which cities are in France?&lang=en")
    assert r.headers["content-type"].startswith("application/json")
    assert r.headers["x-content-type-options"] == "nosniff"
    values = {b["answer"]["value"] for b in r.json()["questions"][0]["answers"][0]["results"]["bindings"]}
    assert values == {tiny_kg.PARIS.value, tiny_kg.XSS.value}


def test_parse_gerbil_body_unit():
    assert parse_gerbil_body(b"query=a+b%3F&lang=en") == ("a b?", "en")  # encoded after all
    assert parse_gerbil_body(b"query=1 + 1 = 2?&lang=EN\n") == ("1 + 1 = 2?", "en")  # raw text kept
    assert parse_gerbil_body(b"query=no language") == ("no language", None)
    with pytest.raises(ValueError):
        parse_gerbil_body(b"lang=en")


def test_chat_qanswer_backend_against_this_server_matches_local(url):
    remote = QAnswerBackend(url, timeout_s=5)
    local = scripted_backend()
    for question in SCRIPT:
        got = [(c.sparql, c.score) for c in remote.ask(question, "en")]
        assert got == [(c.sparql, c.score) for c in local.ask(question, "en")]
    via_service = tiny_pipeline(backend=remote)
    direct = tiny_pipeline()
    for question in SCRIPT:
        a, b = via_service.answer(question).to_json(), direct.answer(question).to_json()
        for turn in (a, b):
            turn.pop("timings_ms")
            turn.pop("backend")
        assert a == b
    assert via_service.answer("What is the capital of Germany?", "de").answers[0].label == "Berlin"


def test_service_faults_are_503_with_retry_after():
    def broken(question: str, lang: str):
        raise BackendTimeout("scripted timeout")

    with ServerThread(create_app(tiny_pipeline(backend=FakeBackend(broken)))) as srv:
        r = HTTP.get(srv.url + "/api/qa/full", params={"question": "What is the capital of Germany?"})
        assert r.status_code == 503 and r.headers["retry-after"]
        assert r.json()["error"] == "service_unavailable"
        r = HTTP.post(srv.url + "/gerbil", content=b"query=What is the capital of Germany?&lang=en")
        assert r.status_code == 503
        assert r.json()["questions"][0]["answers"][0]["results"]["bindings"] == []


def test_rate_limit_per_client():
    limiter = RateLimiter(per_minute=6, burst=2)
    with ServerThread(create_app(tiny_pipeline(), rate_limiter=limiter)) as srv:
        codes = [HTTP.get(srv.url + "/api/qa/full", params={"question": "What is the capital of Germany?"})
                 for _ in range(3)]
        assert [r.status_code for r in codes] == [200, 200, 429]
        assert int(codes[2].headers["retry-after"]) >= 1
        assert HTTP.get(srv.url + "/health").status_code == 200  # health is never limited


def test_logs_carry_no_client_address(url, caplog):
    with caplog.at_level(logging.DEBUG):
        HTTP.get(url + "/api/qa/full", params={"question": "What is the capital of Germany?"})
        HTTP.post(url + "/gerbil", content=b"query=What is the capital of Germany?&lang=en")
    # server-side records only (the httpx *client* logs the URL it calls)
    lines = [r.getMessage() for r in caplog.records if not r.name.startswith(("httpx", "httpcore"))]
    assert any("/gerbil" in line for line in lines)
    assert not any("127.0.0.1" in line for line in lines)


def test_gerbil_turns_are_committed_to_the_session_log_without_addresses(tmp_path):
    log = SessionLog(tmp_path / "sessions.sqlite")
    with ServerThread(create_app(tiny_pipeline(), session_log=log)) as srv:
        r = HTTP.post(srv.url + "/gerbil", content=b"query=Is Berlin in Germany?&lang=en")
        assert r.status_code == 200
        rows = list(log.turns())
    assert [(t["source"], t["question"], t["status"], t["client_ip"]) for t in rows] == [
        ("api", "Is Berlin in Germany?", "ok", None)]
    log.close()


def test_a_burst_is_answered_at_most_max_concurrent_at_a_time():
    import threading
    import time

    from qa.candidate import Candidate

    lock, running, peak = threading.Lock(), [0], [0]

    def slow(question: str, lang: str) -> list[Candidate]:
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        time.sleep(0.2)
        with lock:
            running[0] -= 1
        return [Candidate(CAPITAL, 0.9)]

    with ServerThread(create_app(tiny_pipeline(backend=FakeBackend(slow)), max_concurrent=2)) as srv:
        def ask(i: int) -> None:
            r = HTTP.post(srv.url + "/gerbil", content=f"query=What is the capital of Germany? {i}&lang=en")
            codes.append(r.status_code)

        codes: list[int] = []
        threads = [threading.Thread(target=ask, args=(i,)) for i in range(6)]
        for t in threads:
            t.start()
        assert HTTP.get(srv.url + "/health").status_code == 200  # not queued behind the burst
        for t in threads:
            t.join()
    assert codes == [200] * 6
    assert peak[0] == 2
