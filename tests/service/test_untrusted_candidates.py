"""Candidates are untrusted: a QAnswer-shaped server on 127.0.0.1 returns malicious SPARQL;
every one is rejected before anything runs it (validator off, the worst case), nothing
leaves for the URL a candidate names, and the next question is answered."""

from __future__ import annotations

import pytest

from backends.qanswer import QAnswerBackend
from kg.client import EmbeddedKG
from qa.pipeline import Pipeline
from tests import tiny_kg
from tests.service.faulty_http import Reply, Request, ScriptedServer

GOOD = "SELECT DISTINCT ?answer WHERE { wd:Q937 wdt:P19 ?answer . }"


def malicious(listener: str) -> dict[str, tuple[str, str]]:
    """Name -> (candidate, expected reason); ``listener`` is a URL that must receive nothing."""
    return {
        "cartesian": ("SELECT DISTINCT ?answer WHERE { wd:Q937 wdt:P19 ?answer . ?a ?b ?c . ?d ?e ?f . }",
                      "unanchored_pattern"),
        "order_by_cartesian": ("SELECT ?answer WHERE { wd:Q937 wdt:P19 ?answer . ?a ?b ?c . ?d ?e ?f . } "
                               "ORDER BY ?a ?b ?c ?d", "unanchored_pattern"),
        "service": (f"SELECT ?answer WHERE {{ SERVICE <{listener}/sparql> {{ wd:Q937 wdt:P19 ?answer }} }}",
                    "service"),
        "from": (f"SELECT ?answer FROM <{listener}/graph> WHERE {{ wd:Q937 wdt:P19 ?answer }}", "dataset_clause"),
        "update": (f"LOAD <{listener}/data.nt>", "update"),
        "unbounded_path": ("SELECT ?answer WHERE { ?x wdt:P279* ?answer }", "unbounded_path"),
    }


@pytest.mark.parametrize("name", ["cartesian", "order_by_cartesian", "service", "from", "update", "unbounded_path"])
def test_malicious_candidate_is_rejected_and_the_next_question_answered(name: str):
    def listen(req: Request) -> Reply:
        return Reply.json({"head": {"vars": ["answer"]}, "results": {"bindings": [
            {"answer": {"type": "literal", "value": "from the attacker"}}]}})

    with ScriptedServer(listen) as listener:
        bad, reason = malicious(listener.url)[name]

        def qanswer(req: Request) -> Reply:
            query = bad if req.query["question"][0] == "evil" else GOOD
            return Reply.json({"question": req.query["question"][0],
                               "queries": [{"query": query, "confidence": 0.99, "kb": "wikidata"}]})

        with ScriptedServer(qanswer) as server:
            backend = QAnswerBackend(server.url, timeout_s=5)
            pipe = Pipeline(backend, EmbeddedKG(tiny_kg.memory_store()))
            turn = pipe.answer("evil", "en", use_validator=False)
            after = pipe.answer("Where was Einstein born?", "en", use_validator=False)
    assert turn.status == "no_candidates" and not turn.answered and turn.candidates == []
    assert [r["reason"] for r in turn.rejected] == [reason]
    assert turn.to_json()["rejected"] == turn.rejected
    assert listener.requests == []  # no outbound request for the URL a candidate named
    assert after.answered and [a.id for a in after.answers] == ["Q3012"] and after.rejected == []


def test_control_the_store_itself_would_call_the_service_url():
    """Without the guard the embedded store does send a request to a ``SERVICE`` URL: the
    listener above would have seen it."""
    with ScriptedServer(lambda req: Reply.json({"head": {"vars": ["answer"]}, "results": {"bindings": []}})) as srv:
        sparql = malicious(srv.url)["service"][0]
        EmbeddedKG(tiny_kg.memory_store()).query(sparql, timeout_s=5)
    assert len(srv.requests) >= 1


@pytest.mark.slow
def test_kgqa_serve_process_rejects_a_service_candidate_and_answers_the_next(tiny_nt, tmp_path):
    """The same through ``kgqa serve`` as a real process (validator off): ``/gerbil`` gives no
    answer for the SERVICE candidate, the listener it names hears nothing, the next
    question is answered."""
    import httpx

    from tests.cli.test_serve import _kgqa, _stop, _wait_http
    from tests.service.faulty_http import free_port

    with ScriptedServer(lambda req: Reply.json({"head": {"vars": ["answer"]}, "results": {"bindings": [
            {"answer": {"type": "literal", "value": "from the attacker"}}]}})) as listener:
        bad = malicious(listener.url)["service"][0]

        def qanswer(req: Request) -> Reply:
            query = bad if "evil" in req.query["question"][0] else GOOD
            return Reply.json({"question": "q", "queries": [{"query": query, "confidence": 0.99, "kb": "wikidata"}]})

        with ScriptedServer(qanswer) as upstream:
            port = free_port()
            api = _kgqa("serve", "--backend", "qanswer", "--qanswer-url", upstream.url, "--kg-source", str(tiny_nt),
                        "--no-validator", "--cache-dir", str(tmp_path / "cache"), "--port", str(port),
                        "--log-path", str(tmp_path / "s.sqlite"))
            try:
                base = f"http://127.0.0.1:{port}"
                _wait_http(base + "/health", api, timeout_s=120)
                evil = httpx.post(base + "/gerbil", content=b"query=evil question&lang=en", timeout=30)
                good = httpx.post(base + "/gerbil", content=b"query=Where was Einstein born?&lang=en", timeout=30)
                passed_on = httpx.get(base + "/api/qa/full", params={"question": "evil"}, timeout=30)
            finally:
                _stop(api)
    assert evil.json()["questions"][0]["answers"][0]["results"]["bindings"] == []
    assert good.json()["questions"][0]["answers"][0]["results"]["bindings"] == [
        {"answer": {"type": "uri", "value": "http://www.wikidata.org/entity/Q3012"}}]
    assert passed_on.json()["queries"] == []  # never passed on to another instance either
    assert listener.requests == []
