"""``POST /api/ask`` carries a conversation (issue 36): the reply's ``next_context`` sent back
as ``context`` makes the next question a follow-up; a forged context is ignored.  A real
server on 127.0.0.1 over the tiny KG with the real local backend."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from backends.local.generator import LocalBackend
from kg.client import EmbeddedKG
from kg.labels import LabelIndex, build_label_index
from qa.pipeline import Pipeline
from qa.reading.lexicon import default_lexicon
from qa.turn import Turn
from service.app import create_app
from service.server import ServerThread

HTTP = httpx.Client(timeout=60)


@pytest.fixture(scope="module")
def url(tmp_path_factory):
    from tests import tiny_kg

    store, where = tiny_kg.memory_store(), tmp_path_factory.mktemp("labels") / "labels"
    build_label_index(store, where)
    kg = EmbeddedKG(store)
    pipeline = Pipeline(LocalBackend(kg, LabelIndex.open(Path(where)), lexicon=default_lexicon()), kg)
    with ServerThread(create_app(pipeline)) as srv:
        yield srv.url


def test_next_context_makes_the_next_question_a_follow_up(url: str) -> None:
    first = HTTP.post(url + "/api/ask", data={"question": "Where was Albert Einstein born?", "log": "off"}).json()
    assert [a["id"] for a in first["answers"]] == ["Q3012"] and first["next_context"]["subject"] == "Q937"
    second = HTTP.post(url + "/api/ask", data={"question": "And when was he born?", "log": "off",
                                               "context": json.dumps(first["next_context"])}).json()
    assert second["answered"] and second["answers"][0]["value"].startswith("1879-03-14")
    assert second["context"]["tied"] and second["context"]["resolution"]["referent"] == "Q937"
    assert Turn.from_json(second).context == second["context"]  # kgqa ask reads the reply as before
    alone = HTTP.post(url + "/api/ask", data={"question": "And when was he born?", "log": "off"}).json()
    assert alone["context"] is None and not alone["answered"]


@pytest.mark.parametrize("forged", ["not json", json.dumps({"subject": "Q1 } DROP"}), json.dumps([1, 2]),
                                    "{" * 5000])
def test_a_forged_context_is_ignored(url: str, forged: str) -> None:
    reply = HTTP.post(url + "/api/ask", data={"question": "What is the capital of Russia?", "log": "off",
                                              "context": forged})
    assert reply.status_code == 200 and reply.json()["context"] is None
    assert [a["id"] for a in reply.json()["answers"]] == ["Q649"]


def test_the_previous_turn_id_makes_the_next_question_a_follow_up(url: str) -> None:
    first = HTTP.post(url + "/api/ask", data={"question": "Where was Albert Einstein born?", "log": "off"}).json()
    assert first["turn_id"] and first["conversation_id"]
    second = HTTP.post(url + "/api/ask", data={"question": "And when was he born?", "log": "off",
                                               "previous": first["turn_id"]}).json()
    assert second["answered"] and second["answers"][0]["value"].startswith("1879-03-14")
    assert second["context"]["resolution"]["referent"] == "Q937"
    assert second["conversation_id"] == first["conversation_id"]  # the conversation goes on


def test_a_conversation_id_carries_the_context_of_its_last_turn(url: str) -> None:
    own = "my-client-7"  # a client may name its conversation
    first = HTTP.post(url + "/api/ask", data={"question": "Where was Albert Einstein born?", "log": "off",
                                              "conversation": own}).json()
    assert first["conversation_id"] == own and first["context"] is None
    second = HTTP.post(url + "/api/ask", data={"question": "And when was he born?", "log": "off",
                                               "conversation": own}).json()
    assert second["answered"] and second["context"]["resolution"]["referent"] == "Q937"
    other = HTTP.post(url + "/api/ask", data={"question": "And when was he born?", "log": "off",
                                              "conversation": "another-one"}).json()
    assert other["context"] is None and not other["answered"]  # another conversation knows no "he"


@pytest.mark.parametrize(("field", "value", "status"), [("previous", "0123456789abcdef", 404),
                                                       ("previous", "not a turn", 400),
                                                       ("conversation", "x" * 65, 400),
                                                       ("conversation", "a b", 400)])
def test_an_unknown_or_malformed_id_is_refused_clearly(url: str, field: str, value: str, status: int) -> None:
    reply = HTTP.post(url + "/api/ask", data={"question": "And when was he born?", "log": "off", field: value})
    assert reply.status_code == status and reply.json()["error"]
