"""Browser tests: Debian Chromium (Playwright) against the real app on 127.0.0.1.

* ``tiny_app`` (``app.py --no-validator`` over the tiny KG): content in en/ru/zh/de, the
  localized "don't know", UI language, like -> SQLite, screenshot.
* ``scripted_app`` (a scripted backend): a KG label carrying HTML/JS, bad input, the selector.

The apps and the browser are started once per session (``tests/chat/conftest.py``).  The
full KG's app is asked in ``tests/chat/test_browser_trust.py``: one file, so that one
pytest-xdist worker starts it (tens of seconds, a GB), not both.

Screenshots go to ``artifacts/`` (gitignored).
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from tests.chat.browser_kit import App, Chat

pytestmark = pytest.mark.slow

XSS = "<img src=x onerror=alert(1)>"


@pytest.fixture
def chat_en(browser, tiny_app) -> Iterator[Chat]:
    chat = Chat(browser, tiny_app)
    yield chat
    chat.close()


# ---------------------------------------------------------------- the real app over the tiny KG


@pytest.mark.parametrize(("question", "lang", "expected", "intro", "title"), [
    ("Where was Albert Einstein born?", "en", "Ulm", "Here is what I found", "Ask Wikidata"),
    ("Где родился Альберт Эйнштейн?", "ru", "Ульм", "Вот что я нашёл", "Спросите Викиданные"),
    ("阿尔伯特·爱因斯坦出生在哪里？", "zh", "乌尔姆", "我找到的答案", "向维基数据提问"),
    ("Was ist die Hauptstadt von Russland?", "de", "Moskau", "Das habe ich gefunden", "Frag Wikidata"),
])
def test_answer_in_the_users_language(browser, tiny_app, question, lang, expected, intro, title) -> None:
    chat = Chat(browser, tiny_app)
    try:
        answer = chat.ask(question)
        assert answer.get_attribute("lang") == lang
        text = answer.inner_text()
        # the intro, or (once the generators say what a candidate is about) the understood line
        assert expected in text and (intro in text or answer.locator(".kgqa-understood").count() == 1)
        link = answer.locator(".kgqa-value a[href^='https://www.wikidata.org/wiki/Q']").first
        assert link.inner_text() == expected
        assert "Ask Wikidata" in chat.header()  # the UI keeps the browser's language (en)
        answer.locator("details.kgqa-how > summary").click()
        answer.locator("details.kgqa-developer > summary").click()
        assert "SELECT" in answer.locator("pre.kgqa-sparql").inner_text()
        row = tiny_app.rows("SELECT detected_lang, used_lang, status FROM turns WHERE question = ? "
                            "ORDER BY created_at DESC LIMIT 1", (question,))
        assert row == [(lang, lang, "ok")]
        chat.assert_nothing_executed()
        assert chat.external == []
        chat.screenshot(f"chat_{lang}")
    finally:
        chat.close()


@pytest.mark.parametrize(("question", "dont_know"), [
    ("What is the meaning of life?", "I'm not sure I understood"),
    ("Was ist der Sinn des Lebens?", "Ich bin nicht sicher"),
    ("Что такое любовь?", "Я не уверен"),
])
def test_unanswerable_question_gets_a_localized_dont_know(browser, tiny_app, question, dont_know) -> None:
    chat = Chat(browser, tiny_app)
    try:
        answer = chat.ask(question)
        assert answer.inner_text().startswith(dont_know)
        assert answer.locator(".kgqa-value").count() == 0
    finally:
        chat.close()


def test_validator_state_is_shown(chat_en: Chat) -> None:
    chat_en.page.locator("#kgqa-header details.kgqa-developer-view > summary").click()  # jargon: developer view
    state = chat_en.page.get_attribute("[data-validator]", "data-validator")
    assert state in ("on", "off", "unavailable")
    expected = {"on": "Validator: on", "off": "Validator: off",
                "unavailable": "Validator unavailable"}[state]
    assert expected in chat_en.header()


def test_like_click_lands_in_sqlite(chat_en: Chat, tiny_app: App) -> None:
    question = "What is the capital of Germany?"
    chat_en.ask(question)
    turn_id = tiny_app.rows("SELECT turn_id FROM turns WHERE question = ? ORDER BY created_at DESC LIMIT 1",
                            (question,))[0][0]
    chat_en.page.locator("button[aria-label='Like']").last.click()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if tiny_app.rows("SELECT feedback FROM turns WHERE turn_id = ?", (turn_id,)) == [(1,)]:
            break
        time.sleep(0.2)
    assert tiny_app.rows("SELECT feedback FROM turns WHERE turn_id = ?", (turn_id,)) == [(1,)]
    assert tiny_app.rows("SELECT value FROM feedback_events WHERE turn_id = ?", (turn_id,)) == [(1,)]
    chat_en.screenshot("chat_like")


# ---------------------------------------------------------------- scripted backend: XSS, bad input, selector


@pytest.fixture
def scripted_chat(browser, scripted_app) -> Iterator[Chat]:
    chat = Chat(browser, scripted_app, init_script="window.alert = () => { window.__kgqa_xss = true; }")
    yield chat
    chat.close()


def test_kg_label_with_html_is_shown_as_text(scripted_chat: Chat) -> None:
    answer = scripted_chat.ask("Which cities are in France?")
    assert XSS in answer.inner_text()
    assert "Paris" in answer.inner_text()
    scripted_chat.assert_nothing_executed()
    scripted_chat.screenshot("chat_xss_label")


def test_html_in_the_question_is_shown_as_text_and_explained(scripted_chat: Chat) -> None:
    answer = scripted_chat.ask(XSS)
    assert "treated it as plain text" in answer.inner_text()
    assert "I'm not sure I understood" in answer.inner_text()
    assert scripted_chat.page.locator(".kgqa-question").last.inner_text() == XSS
    scripted_chat.assert_nothing_executed()


def test_bad_input_gets_clear_messages(scripted_chat: Chat, scripted_app: App) -> None:
    chat = scripted_chat
    box = chat.page.locator("#kgqa-question textarea")
    box.fill("   ")
    box.press("Enter")
    time.sleep(1.5)
    assert chat.answers() == 0  # blank input is ignored: no bot message (issue 36)
    too_long = chat.ask(("Where is Berlin? " * 600)[:10_000])
    assert "too long" in too_long.inner_text() and "1000" in too_long.inner_text()
    controlled = chat.ask("Where was Albert\x07 Einstein\x00 born?")
    assert "removed control characters" in controlled.inner_text()
    assert "Ulm" in controlled.inner_text()
    statuses = scripted_app.rows("SELECT status FROM turns ORDER BY created_at")
    assert ("bad_input",) in statuses
    chat.assert_nothing_executed()


def test_quick_second_question_gets_its_own_single_answer(scripted_chat: Chat) -> None:
    page = scripted_chat.page
    before = scripted_chat.answers()
    shown = page.locator(".kgqa-question").count()
    box = page.locator("#kgqa-question textarea")
    for i, question in enumerate(("Where was Albert Einstein born?", "Ist Berlin eine Stadt?")):
        box.fill(question)
        box.press("Enter")
        # the box is cleared as soon as the question is shown (before the answer)
        page.wait_for_function(f"document.querySelectorAll('.kgqa-question').length > {shown + i}"
                               " && document.querySelector('#kgqa-question textarea').value === ''",
                               timeout=30_000)
    page.wait_for_function(f"document.querySelectorAll('.kgqa-answer').length >= {before + 2}", timeout=60_000)
    time.sleep(0.5)
    answers = page.locator(".kgqa-answer")
    assert answers.count() == before + 2
    assert "Ulm" in answers.nth(before).inner_text()
    assert "Ja." in answers.nth(before + 1).locator(".kgqa-value, strong").first.inner_text()


def test_pending_questions_keep_their_order_while_other_sessions_are_answered(
        browser, scripted_app: App, scripted_chat: Chat) -> None:
    """Several questions are answered at once (queue concurrency > 1), yet one session's
    pending questions are answered strictly in submit order, each exactly once."""
    from tests.chat.scripted_app import SLOW_PREFIX

    assert scripted_app.gate is not None
    scripted_app.gate.unlink(missing_ok=True)  # the slow question is held until the gate opens
    other = Chat(browser, scripted_app)
    try:
        page = scripted_chat.page
        before = scripted_chat.answers()
        shown = page.locator(".kgqa-question").count()
        box = page.locator("#kgqa-question textarea")
        questions = (SLOW_PREFIX + "Where was Albert Einstein born?", "Ist Berlin eine Stadt?",
                     "Was ist die Hauptstadt von Russland?")
        for i, question in enumerate(questions):
            box.fill(question)
            box.press("Enter")
            page.wait_for_function(f"document.querySelectorAll('.kgqa-question').length > {shown + i}",
                                   timeout=30_000)
        # another session is answered while the slow question of this one is still running
        assert "Ja." in other.ask("Ist Berlin eine Stadt?").locator(".kgqa-value, strong").first.inner_text()
        assert scripted_chat.answers() == before, "the slow question's followers overtook it"
        scripted_app.gate.touch()
        page.wait_for_function(f"document.querySelectorAll('.kgqa-answer').length >= {before + 3}",
                               timeout=60_000)
        time.sleep(0.5)
        answers = page.locator(".kgqa-answer")
        assert answers.count() == before + 3
        assert "Ulm" in answers.nth(before).inner_text()
        assert "Ja." in answers.nth(before + 1).locator(".kgqa-value, strong").first.inner_text()
        assert "Moskau" in answers.nth(before + 2).inner_text()
        logged = [q for (q,) in scripted_app.rows("SELECT question FROM turns ORDER BY created_at")]
        assert [q for q in logged if q in questions][-3:] == list(questions)
    finally:
        scripted_app.gate.touch()
        other.close()


def test_language_selector_overrides_detection(scripted_chat: Chat) -> None:
    page = scripted_chat.page
    page.locator("#kgqa-language input").click()
    page.get_by_role("option", name="Deutsch").click()
    page.wait_for_function("document.querySelector('#kgqa-header').innerText.includes('Frag Wikidata')",
                           timeout=15_000)
    answer = scripted_chat.ask("Where was Albert Einstein born?")
    assert answer.get_attribute("lang") == "de"
    assert "Geburtsort" in answer.locator(".kgqa-understood").inner_text()  # what was understood, in German
    assert answer.locator(".kgqa-value sup.kgqa-fallback").count() == 1  # Ulm has no German label
