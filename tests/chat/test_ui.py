"""The Gradio app without a browser: helpers, the app graph, and the ``/ask`` API over HTTP."""

from __future__ import annotations

import socket
from pathlib import Path

import gradio as gr
import pytest

from backends.fake import FakeBackend
from chat.asking import accept_language, input_notices
from chat.ui import build_app, header_html, language_choices, launch_app, turn_id_of
from core.settings import load_settings
from qa.candidate import Candidate
from qa.pipeline import Pipeline
from service.session_log import SessionLog

BIRTHPLACE = "SELECT ?x WHERE { wd:Q937 wdt:P19 ?x }"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize(("header", "expected"), [
    ("de-DE,de;q=0.9,en;q=0.8", "de"), ("zh-CN,zh;q=0.9", "zh"), ("nl-NL,nl;q=0.9,uk;q=0.5", "nl"),
    ("ko-KR,ko;q=0.9,uk;q=0.5", "uk"),
    ("", "en"), (None, "en"), ("ar", "ar"), ("ko", "en"),
])
def test_accept_language(header: str | None, expected: str) -> None:
    assert accept_language(header) == expected


def test_input_notices_for_control_characters_and_markup() -> None:
    assert input_notices("Where is Berlin?") == []
    assert input_notices("Where\x07 is\u200b Berlin?") == ["notice_control"]
    assert input_notices("<img src=x onerror=alert(1)>") == ["notice_markup"]
    assert input_notices("click javascript:alert(1)") == ["notice_markup"]
    assert input_notices("Is 3 < 5 and 7 > 2?") == []


def test_turn_id_of_reads_the_class_from_any_content_shape() -> None:
    tid = "0123456789abcdef01234567"
    html = f'<div class="kgqa-answer kgqa-turn-{tid}">x</div>'
    assert turn_id_of(html) == tid
    assert turn_id_of([{"type": "text", "text": html}]) == tid
    assert turn_id_of({"text": html}) == tid
    assert turn_id_of("no id here") is None


def test_header_states_the_validator_explicitly_and_escapes(tiny_kg_client) -> None:
    settings = load_settings({}, kg_endpoint="http://example.org/<script>")
    pipeline = Pipeline(FakeBackend({}), tiny_kg_client, validator_state="unavailable")
    html = header_html("de", pipeline, settings)
    assert "Validator nicht verfügbar" in html and 'data-validator="unavailable"' in html
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "Frag Wikidata" in html


def test_language_selector_lists_auto_and_every_chat_language() -> None:
    choices = language_choices("fr")
    assert choices[0] == ("Détection automatique", "auto")
    assert [v for _, v in choices[1:]] == ["en", "de", "ru", "zh", "fr", "es", "uk", "ja", "it", "pt",
                                           "be", "lt", "hy", "ba", "ar", "hi", "bn", "am", "nl"]
    assert ("Беларуская", "be") in choices and ("Lietuvių", "lt") in choices


def test_build_app_from_a_ready_pipeline(tiny_kg_client, tmp_path: Path) -> None:
    pipeline = Pipeline(FakeBackend({}), tiny_kg_client)
    with SessionLog(tmp_path / "s.sqlite") as log:
        app = build_app(pipeline, load_settings({}), log)
    assert isinstance(app, gr.Blocks)
    chatbots = [b for b in app.blocks.values() if isinstance(b, gr.Chatbot)]
    assert len(chatbots) == 1
    assert chatbots[0].sanitize_html is True and chatbots[0].allow_tags is False


def test_ask_api_over_http_logs_before_answering(tiny_kg_client, tmp_path: Path) -> None:
    from gradio_client import Client

    script = {"Where was Albert Einstein born?": [Candidate(BIRTHPLACE, 0.9)]}
    pipeline = Pipeline(FakeBackend(script), tiny_kg_client)
    settings = load_settings({}, port=_free_port(), log_path=tmp_path / "s.sqlite")
    log = SessionLog(settings.log_path)
    app = build_app(pipeline, settings, log)
    launch_app(app, settings, prevent_thread_lock=True, quiet=True)
    try:
        client = Client(f"http://127.0.0.1:{settings.port}/", verbose=False)
        html = client.predict("Where was Albert Einstein born?", "auto", api_name="/ask")
        dont_know = client.predict("Wer bist du?", "auto", api_name="/ask")
    finally:
        app.close()
    assert "Ulm" in html and "wikidata.org/wiki/Q3012" in html
    assert "Ich bin nicht sicher" in dont_know
    rows = list(log.turns())
    assert [r["question"] for r in rows] == ["Where was Albert Einstein born?", "Wer bist du?"]
    assert [r["abstained"] for r in rows] == [False, True]
    log.close()


def test_app_flags_become_settings(tmp_path: Path, monkeypatch) -> None:
    import app
    from cli.main import settings_from_args

    monkeypatch.setenv("KGQA_THRESHOLD", "0.7")
    args = app.parse_args(["--port", "7999", "--host", "127.0.0.1", "--no-validator", "--log-path",
                           str(tmp_path / "s.sqlite"), "--qanswer-url", "http://127.0.0.1:1/api",
                           "--kg-endpoint", "http://127.0.0.1:2/sparql"])
    settings = settings_from_args(args)
    assert (settings.port, settings.host, settings.validator) == (7999, "127.0.0.1", False)
    assert settings.log_path == tmp_path / "s.sqlite"
    assert (settings.backend, settings.qanswer_url) == ("qanswer", "http://127.0.0.1:1/api")
    assert settings.kg_endpoint == "http://127.0.0.1:2/sparql"
    assert settings.threshold == 0.7
    default = settings_from_args(app.parse_args([]))
    assert (default.backend, default.validator, default.port, default.host) == ("local", True, 7860, "127.0.0.1")


def _fn(app: gr.Blocks, name: str):
    return next(f.fn for f in app.fns.values() if f.name == name)


def test_one_worker_drains_a_sessions_pending_questions_in_order(tiny_kg_client, tmp_path: Path) -> None:
    """A second respond() for the same session while one drains it does nothing; the
    draining one answers every pending question in submit order."""
    from chat.ui import ChatState

    script = {"Where was Albert Einstein born?": [Candidate(BIRTHPLACE, 0.9)]}
    pipeline = Pipeline(FakeBackend(script), tiny_kg_client)
    settings = load_settings({}, rate_limit_per_minute=0)
    with SessionLog(tmp_path / "s.sqlite") as log:
        app = build_app(pipeline, settings, log)
        add_user, respond = _fn(app, "add_user"), _fn(app, "respond")
        state = ChatState()
        for question in ("Where was Albert Einstein born?", "Wer bist du?", "   "):
            history, _, state = add_user(question, "auto", state)
        assert [m["role"] for m in history] == ["user", "user"]  # the blank question shows no bubble
        drainer = respond("auto", state, None)
        first = next(drainer)
        assert list(respond("auto", state, None)) == [tuple(gr.skip() for _ in range(10))]  # busy: no-op
        rest = list(drainer)
        rows = list(log.turns())
    assert [r["question"] for r in rows] == ["Where was Albert Einstein born?", "Wer bist du?"]  # blank: ignored
    final = rest[-1][5]["value"]
    assert [m["role"] for m in final] == ["user", "user", "assistant", "assistant"]  # no bot message for it
    assert "Ulm" in final[2]["content"] and "Ich bin nicht sicher" in final[3]["content"]
    assert len(first[5]["value"]) == 3 and not state.draining and not state.pending
    assert list(respond("auto", state, None)) == [tuple(gr.skip() for _ in range(10))]  # nothing pending


def test_questions_asked_while_the_workers_load_wait_with_a_progress_message(tiny_nt: Path, tmp_path: Path) -> None:
    """The UI exists before the workers do: the header says "starting…", a question asked
    meanwhile shows a localized progress message and is answered once they are ready."""
    import os
    import signal

    from chat.ui import ChatState
    from service.workers import WorkerPipeline

    settings = load_settings({}, kg_source=tiny_nt, cache_dir=tmp_path / "cache", validator=False,
                             rate_limit_per_minute=0)
    with WorkerPipeline(settings, 1, wait=False) as pool, SessionLog(tmp_path / "s.sqlite") as log:
        os.kill(pool._template.pid, signal.SIGSTOP)  # hold the loading until the question is asked
        try:
            assert not pool.ready and 'data-validator="starting"' in header_html("de", pool, settings)
            app = build_app(pool, settings, log)
            add_user, respond = _fn(app, "add_user"), _fn(app, "respond")
            _, _, state = add_user("Wo wurde Albert Einstein geboren?", "auto", ChatState(ui_lang="de"))
            drainer = respond("auto", state, None)
            waiting = next(drainer)
        finally:
            os.kill(pool._template.pid, signal.SIGCONT)
        answered = list(drainer)[-1]
        rows = list(log.turns())
    assert 'data-status="starting"' in waiting[5]["value"][-1]["content"]
    assert "sobald er bereit ist" in waiting[5]["value"][-1]["content"]
    assert "Ulm" in answered[5]["value"][-1]["content"], [dict(r).get("error") for r in rows]  # the reason, if not
    assert 'data-validator="off"' in answered[1]  # the header no longer says "starting…"
    assert [r["question"] for r in rows] == ["Wo wurde Albert Einstein geboren?"]
