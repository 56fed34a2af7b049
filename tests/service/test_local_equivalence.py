"""``kgqa serve`` over the real local backend (tiny KG): the chat's ``qanswer`` backend
pointed at it gives the same candidates and the same answers as the local backend."""

from __future__ import annotations

from pathlib import Path

import pytest

from backends.qanswer import QAnswerBackend
from kg.client import EmbeddedKG
from qa.pipeline import Pipeline
from service.app import create_app
from service.server import ServerThread
from tests import tiny_kg

local = pytest.importorskip("backends.local.generator")
labels = pytest.importorskip("kg.labels")

QUESTIONS = [
    ("Where was Albert Einstein born?", "en"), ("Где родился Эйнштейн?", "ru"), ("爱因斯坦出生在哪里？", "zh"),
    ("Wo wurde Einstein geboren?", "de"), ("What is the capital of Germany?", "en"),
    ("Who was born in Moscow?", "en"), ("Which cities are in Germany?", "en"),
    ("When was Pushkin born?", "en"), ("What is the population of Paris?", "en"),
    ("Is Berlin in Germany?", "en"), ("Quelle est la capitale de la France ?", "fr"),
]


@pytest.fixture(scope="module")
def local_pipeline(tmp_path_factory) -> Pipeline:
    store = tiny_kg.memory_store()
    out: Path = tmp_path_factory.mktemp("labels") / "labels"
    labels.build_label_index(store, out)
    kg = EmbeddedKG(store)
    return Pipeline(local.LocalBackend(kg, labels.LabelIndex.open(out)), kg)


def _comparable(turn) -> dict:
    data = turn.to_json()
    data.pop("timings_ms")
    data.pop("backend")
    for candidate in data["candidates"]:  # what a query names, in any order (read from its text over the API)
        candidate["entities"], candidate["properties"] = sorted(candidate["entities"]), sorted(candidate["properties"])
    return data


def test_qanswer_client_on_the_service_matches_the_local_backend(local_pipeline: Pipeline):
    with ServerThread(create_app(local_pipeline)) as srv:
        remote = QAnswerBackend(srv.url, timeout_s=30)
        via_service = Pipeline(remote, local_pipeline.kg)
        answered = 0
        for question, lang in QUESTIONS:
            direct = local_pipeline.backend.ask(question, lang)
            got = remote.ask(question, lang)
            assert [(c.sparql, c.score) for c in got] == [(c.sparql, c.score) for c in direct], question
            a, b = via_service.answer(question, lang), local_pipeline.answer(question, lang)
            assert _comparable(a) == _comparable(b), question
            answered += a.answered
    assert answered >= len(QUESTIONS) // 2  # the comparison covered real answers, not only abstentions
