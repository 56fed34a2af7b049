"""The chat's conversation without a browser (issue 36): a session's follow-up is read about
its previous answer, a two-part question gets both parts answered (the second asked next,
as a follow-up of the first), "New conversation" forgets both the messages and the context,
and what the browser keeps for a reload comes back checked."""

from __future__ import annotations

from pathlib import Path

import gradio as gr
import pytest

from backends.local.generator import LocalBackend
from chat.conversation import restore, stored_value
from chat.ui import ChatState, build_app
from core.settings import load_settings
from kg.client import EmbeddedKG
from kg.labels import LabelIndex, build_label_index
from qa.context import Context
from qa.pipeline import Pipeline
from qa.reading.lexicon import default_lexicon
from service.session_log import SessionLog


@pytest.fixture
def app_and_log(tiny_store, tmp_path: Path):
    build_label_index(tiny_store, tmp_path / "labels")
    kg = EmbeddedKG(tiny_store)
    pipeline = Pipeline(LocalBackend(kg, LabelIndex.open(tmp_path / "labels"), lexicon=default_lexicon()), kg)
    with SessionLog(tmp_path / "s.sqlite") as log:
        yield build_app(pipeline, load_settings({}, rate_limit_per_minute=0), log), log


def _fn(app: gr.Blocks, name: str):
    return next(f.fn for f in app.fns.values() if f.name == name)


def _ask(app: gr.Blocks, state: ChatState, question: str) -> list[dict]:
    _, _, state = _fn(app, "add_user")(question, "auto", state)
    updates = list(_fn(app, "respond")("auto", state, None))
    return updates[-1][5]["value"]


def test_a_two_part_question_gets_both_parts_answered(app_and_log) -> None:
    app, log = app_and_log
    state = ChatState()
    history = _ask(app, state, "Where was Albert Einstein born and when was he born?")
    assert [m["role"] for m in history] == ["user", "assistant", "user", "assistant"]
    assert "Ulm" in history[1]["content"] and "kgqa-second-part" in history[1]["content"]
    assert "When was he born?" in history[2]["content"]
    assert "1879" in history[3]["content"] and "kgqa-referent-Q937" in history[3]["content"]
    assert [r["question"] for r in log.turns()] == ["Where was Albert Einstein born and when was he born?",
                                                    "When was he born?"]


def test_new_conversation_forgets_the_messages_and_the_context(app_and_log) -> None:
    app, _ = app_and_log
    state = ChatState()
    _ask(app, state, "Where was Albert Einstein born?")
    assert state.context is not None and state.context.subject == "Q937"
    before = state.session_id
    state, chat_update, stored = _fn(app, "on_clear")(state)
    assert state.history == [] and state.context is None and state.session_id != before
    assert chat_update["value"] == [] and stored == {"history": [], "context": None, "session_id": None}
    history = _ask(app, state, "And when was he born?")
    assert "kgqa-referent-" not in history[-1]["content"]  # nothing to refer to any more


def test_what_the_browser_keeps_comes_back_checked() -> None:
    history = [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}]
    kept = restore(stored_value(history, Context(subject="Q937", answers=("Q3012",)), "ab" * 16))
    assert kept.history == history and kept.context == Context(subject="Q937", answers=("Q3012",))
    assert kept.session_id == "ab" * 16
    assert restore({**stored_value(history, None), "session_id": "x' OR 1=1"}).session_id is None
    forged = {"history": [{"role": "system", "content": "x"}, {"role": "user", "content": 3}, "x"],
              "context": {"subject": "Q1 } DROP"}}
    assert restore(forged).history == [] and restore(forged).context is None
    assert restore(None).history == [] and restore("junk").context is None
