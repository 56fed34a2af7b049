"""Forged conversation state (issue 44, case 2): the page-load event accepts whatever
stored value a client sends (``POST /gradio_api/run/predict``); 10,001 forged loads kept
about 38 MiB each and evicted a live tab's conversation.  Now one restored conversation is
cut to its budget, all of them together to theirs, page loads count against the client's
rate limit, and a flood of loads never evicts a conversation in use."""

from __future__ import annotations

from pathlib import Path

import gradio as gr
import pytest

from backends.local.generator import LocalBackend
from chat.conversation import MAX_CONTENT_CHARS, MAX_CONVERSATION_CHARS, MAX_MESSAGES, restore
from chat.sessions import Sessions
from chat.ui import build_app
from core.settings import load_settings
from kg.client import EmbeddedKG
from kg.labels import LabelIndex, build_label_index
from qa.pipeline import Pipeline
from qa.reading.lexicon import default_lexicon
from service.session_log import SessionLog


def _forged(messages: int = 400, chars: int = MAX_CONTENT_CHARS) -> dict:
    text = "x" * chars
    return {"history": [{"role": "user" if i % 2 == 0 else "assistant", "content": f"{i:06d}" + text[6:]}
                        for i in range(messages)], "context": None, "session_id": "0" * 32}


def test_one_restored_conversation_is_cut_to_its_budget():
    kept = restore(_forged())
    assert kept.size <= MAX_CONVERSATION_CHARS and 0 < len(kept.history) <= MAX_MESSAGES
    assert kept.history[-1]["content"].startswith("000399")  # the most recent kept
    assert kept.cut == 400 - len(kept.history)
    huge = restore({"history": [{"role": "user", "content": "y" * (MAX_CONTENT_CHARS + 1)}]})
    assert huge.history == [] and huge.cut == 1
    small = restore({"history": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]})
    assert len(small.history) == 2 and small.cut == 0


def test_a_flood_of_loads_never_evicts_a_conversation_in_use():
    sessions: Sessions[list] = Sessions(list, max_sessions=50, max_chars=10_000)
    live = sessions.get("live")
    live.extend(["question", "answer"])
    assert sessions.charge("live", 100)
    sessions.get("live")  # a second event: the tab is in use
    for i in range(5_000):
        key = f"forged-{i}"
        sessions.get(key)
        sessions.charge(key, 1_000)
        assert len(sessions) <= 50 and sessions.chars <= 10_000
    assert sessions.get("live") == ["question", "answer"]
    assert sessions.evicted >= 5_000 - 50


def test_restored_characters_past_the_total_are_refused_when_only_active_sessions_remain():
    sessions: Sessions[list] = Sessions(list, max_sessions=10, max_chars=1_000)
    for key in ("a", "b"):
        sessions.get(key)
        sessions.get(key)
        assert sessions.charge(key, 450)
    sessions.get("c")
    assert not sessions.charge("c", 450)  # no passive session to make room: the active ones stay
    assert sessions.chars == 900
    assert sessions.get("a") is not None and len(sessions) == 3


@pytest.fixture
def app(tiny_store, tmp_path: Path):
    build_label_index(tiny_store, tmp_path / "labels")
    kg = EmbeddedKG(tiny_store)
    pipeline = Pipeline(LocalBackend(kg, LabelIndex.open(tmp_path / "labels"), lexicon=default_lexicon()), kg)
    with SessionLog(tmp_path / "s.sqlite") as log:
        yield build_app(pipeline, load_settings({}, rate_limit_per_minute=30), log)


def _fn(app: gr.Blocks, name: str):
    return next(f.fn for f in app.fns.values() if f.name == name)


def _request(session: str, host: str = "198.51.100.1") -> gr.Request:
    return gr.Request(headers={"accept-language": "en"}, client={"host": host}, session_hash=session)


def test_page_loads_from_one_client_are_rate_limited(app):
    on_load = _fn(app, "on_load")
    restored = 0
    for i in range(300):
        state = on_load(_forged(), _request(f"flood-{i}"))[0]
        restored += bool(state.history)
    assert 0 < restored <= 60  # the client's burst and refill (30 a minute), not 300


def test_a_cut_conversation_says_so_on_the_page_in_the_users_language(app):
    on_load = _fn(app, "on_load")
    request = gr.Request(headers={"accept-language": "de"}, client={"host": "198.51.100.9"}, session_hash="cut")
    history = on_load(_forged(), request)[0].history
    assert history[0]["role"] == "assistant" and "ältesten Nachrichten" in history[0]["content"]
    assert history[-1]["content"].startswith("000399")
    whole = on_load({"history": [{"role": "user", "content": "hi"}]},
                    _request("whole", "198.51.100.10"))[0].history
    assert whole == [{"role": "user", "content": "hi"}]  # nothing cut: nothing said


@pytest.mark.slow
def test_forged_loads_from_many_clients_keep_the_live_tab(app):
    on_load, add_user = _fn(app, "on_load"), _fn(app, "add_user")
    tab = _request("live-tab", "203.0.113.5")
    on_load({"history": []}, tab)
    add_user("Where was Albert Einstein born?", "auto", None, tab)
    forged = _forged()
    for i in range(1_200):  # every load from its own address: no rate limit applies
        on_load(forged, _request(f"forged-{i}", f"10.0.{i // 250}.{i % 250}"))
    state = on_load({"history": []}, tab)[0]
    assert [m["role"] for m in state.history][:1] == ["user"]
    assert "Einstein" in state.history[0]["content"]


@pytest.mark.slow
def test_forged_page_loads_over_http_are_rate_limited_and_cut(tmp_path: Path, monkeypatch):
    """The probe's route: ``POST /gradio_api/run/predict`` with the page-load event's index,
    a forged stored conversation and a fresh ``session_hash`` each time, from one client,
    against the chat served on 127.0.0.1.  At most the client's burst of loads restore
    anything, and what one restores is cut to the conversation's budget."""
    import socket

    import httpx

    from backends.fake import FakeBackend
    from chat.ui import launch_app
    from tests import tiny_kg

    monkeypatch.setenv("GRADIO_ANALYTICS_ENABLED", "False")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    settings = load_settings({}, port=port, log_path=tmp_path / "s.sqlite", rate_limit_per_minute=30)
    with SessionLog(settings.log_path) as log:
        app = build_app(Pipeline(FakeBackend({}), EmbeddedKG(tiny_kg.memory_store())), settings, log)
        launch_app(app, settings, prevent_thread_lock=True, quiet=True)
        try:
            load = next(i for i, f in app.fns.items() if f.name == "on_load")
            forged = _forged(messages=400)
            restored, largest = 0, 0
            with httpx.Client(timeout=60) as client:
                for i in range(100):
                    reply = client.post(f"http://127.0.0.1:{port}/gradio_api/run/predict",
                                        json={"fn_index": load, "data": [forged], "session_hash": f"forged{i:04d}"})
                    assert reply.status_code == 200
                    kept = reply.text.count('"role"')
                    restored += kept > 0
                    largest = max(largest, len(reply.text))
        finally:
            app.close()
    assert 0 < restored <= 40, restored  # without the limit: 100
    assert largest < 2 * MAX_CONVERSATION_CHARS + 200_000  # the page's own markup, and one budget of messages
