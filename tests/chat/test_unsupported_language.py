"""A language the chat does not speak gets an honest reply (issue 36): which language it
looks like, that it is not supported yet, in the UI's language and in English, with the
supported ones listed; never an answer in a guessed other language."""

from __future__ import annotations

import pytest

from backends.fake import FakeBackend
from chat.render import render_html
from kg.client import EmbeddedKG
from lang import supported
from qa.answer import answer_and_log
from qa.pipeline import Pipeline
from qa.reading.detect import detect_language, unsupported_language
from qa.turn import Status
from tests import tiny_kg

UNSUPPORTED = [("Gdzie urodził się Mozart?", "pl"), ("Kto jest prezydentem Polski?", "pl"),
               ("Mozart nerede doğdu?", "tr"), ("Almanya'nın başkenti neresi?", "tr"),
               ("모차르트는 어디에서 태어났나요?", "ko"), ("Hol született Mozart?", "hu"),
               ("Missä Mozart syntyi?", "fi"), ("Mozart sinh ra ở đâu?", "vi"), ("Var föddes Mozart?", "sv")]
SUPPORTED = ["Where was Mozart born?", "Wo wurde Mozart geboren?", "Où est né Mozart ?", "¿Dónde nació Mozart?",
             "Dove è nato Mozart?", "Onde nasceu Mozart?", "Waar is Mozart geboren?", "Kur gimė Mozartas?",
             "Wann ist Lech Wałęsa geboren?", "Who is Recep Tayyip Erdoğan?", "Wer ist Angela Merkel?"]


@pytest.mark.parametrize(("question", "code"), UNSUPPORTED)
def test_a_language_the_chat_does_not_speak_is_named(question: str, code: str) -> None:
    assert unsupported_language(question, detect_language(question)) == code


@pytest.mark.parametrize("question", SUPPORTED)
def test_supported_languages_and_foreign_names_in_them_are_not_refused(question: str) -> None:
    assert unsupported_language(question, detect_language(question)) is None


def _pipeline() -> Pipeline:
    return Pipeline(FakeBackend({}), EmbeddedKG(tiny_kg.memory_store()))


def test_the_reply_is_in_the_ui_language_and_in_english_listing_the_supported_ones() -> None:
    done = answer_and_log(_pipeline(), "Gdzie urodził się Mozart?", None, None, render=lambda t, _id: render_html(t),
                          session_id="s", source="chat", fallback_lang="de")
    turn = done.turn
    assert turn.status == Status.BAD_INPUT and turn.message_key == "unsupported_language"
    assert turn.detected_lang == "pl" and turn.lang == "de" and not turn.answers
    assert "Polnisch" in done.shown and "Polish" in done.shown
    assert 'lang="de"' in done.shown and 'lang="en"' in done.shown
    assert all(name in done.shown for name in (language.name for language in supported()))


def test_an_english_ui_says_it_once_and_a_chosen_question_language_is_respected() -> None:
    turn = _pipeline().answer("Mozart nerede doğdu?")
    assert turn.message_key == "unsupported_language" and turn.lang == "en"
    assert render_html(turn).count("kgqa-unsupported") == 1 and "Turkish" in render_html(turn)
    chosen = _pipeline().answer("Mozart nerede doğdu?", question_lang="de")
    assert chosen.message_key != "unsupported_language"
