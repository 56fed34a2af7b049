"""The chat's language behaviour without a browser: the UI language stays as the selector
(else the browser) set it, answers follow the selector, questions are read in their own
language unless "question language" names one (issue 14)."""

from __future__ import annotations

from pathlib import Path

import gradio as gr

from backends.fake import FakeBackend
from chat.ui import ChatState, build_app
from core.settings import load_settings
from qa.candidate import Candidate
from qa.pipeline import Pipeline
from service.session_log import SessionLog

BIRTHPLACE = Candidate("SELECT ?x WHERE { wd:Q937 wdt:P19 ?x }", 0.9, entities=("Q937",), properties=("P19",))


def _fn(app: gr.Blocks, name: str):
    return next(f.fn for f in app.fns.values() if f.name == name)


def test_ui_language_is_stable_and_the_question_is_read_in_its_own_language(tiny_kg_client, tmp_path: Path) -> None:
    backend = FakeBackend(lambda question, lang: [BIRTHPLACE])
    with SessionLog(tmp_path / "s.sqlite") as log:
        app = build_app(Pipeline(backend, tiny_kg_client), load_settings({}, rate_limit_per_minute=0), log)
        add_user, respond = _fn(app, "add_user"), _fn(app, "respond")
        on_language, on_question_language = _fn(app, "on_language"), _fn(app, "on_question_language")
        state = ChatState(ui_lang="de")  # the browser said de
        _, _, state = add_user("Где родился Эйнштейн?", "auto", state)
        outputs = list(respond("auto", state, None))[-1]
        assert state.ui_lang == "de" and outputs[1] == gr.skip()  # the header is not rewritten
        assert backend.calls[-1] == ("Где родился Эйнштейн?", "ru")
        answer = outputs[5]["value"][-1]["content"]
        assert 'lang="ru"' in answer and "Ульм" in answer and "место рождения" in answer
        # the selector: answers and page in French, the English question still read as English
        state, header, *_ = on_language("fr", state)
        assert state.ui_lang == "fr" and "Demandez à Wikidata" in header
        _, _, state = add_user("Where was Einstein born?", "fr", state)
        answer = list(respond("fr", state, None))[-1][5]["value"][-1]["content"]
        assert backend.calls[-1] == ("Where was Einstein born?", "en") and 'lang="fr"' in answer
        # "question language" chosen explicitly: the question is read in it
        state = on_question_language("de", state)
        _, _, state = add_user("Where was Einstein born?", "fr", state)
        list(respond("fr", state, None))
        assert backend.calls[-1] == ("Where was Einstein born?", "de")
        assert state.ui_lang == "fr"


def test_the_answer_reaches_the_browser_store_with_its_rendering(tiny_kg_client, tmp_path: Path) -> None:
    """A reload right after an answer finds it (issue 42): the drain's update that shows the
    answer carries the conversation the browser keeps, and its follow-up context."""
    from chat.conversation import restore

    backend = FakeBackend(lambda question, lang: [BIRTHPLACE])
    with SessionLog(tmp_path / "s.sqlite") as log:
        app = build_app(Pipeline(backend, tiny_kg_client), load_settings({}, rate_limit_per_minute=0), log)
        add_user, respond = _fn(app, "add_user"), _fn(app, "respond")
        state = ChatState(ui_lang="en")
        _, _, state = add_user("Where was Einstein born?", "auto", state)
        outputs = list(respond("auto", state, None))[-1]
        shown, stored = outputs[5]["value"], outputs[-1]
        kept = restore(stored)  # what a reload reads back
        assert kept.history == shown and "Ulm" in kept.history[-1]["content"]
        assert kept.context is not None and kept.context.subject == "Q937" and kept.session_id == state.session_id
