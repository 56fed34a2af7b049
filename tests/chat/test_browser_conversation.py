"""Browser tests for issue 36, "a conversation, not a form" (Debian Chromium via Playwright,
the real app on 127.0.0.1 over the tiny KG with the local backend): follow-ups in en, de
and ru, the conversation after a reload and "New conversation", the honest reply to an
unsupported language, no third-language name, empty input ignored, an over-long question
left in the box, and the phone layout."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from tests.chat.browser_kit import ARTIFACTS, App, Chat

pytestmark = pytest.mark.slow

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def chat(browser, tiny_app) -> Iterator[Chat]:
    tab = Chat(browser, tiny_app)
    yield tab
    tab.close()


@pytest.mark.parametrize(("first", "follow_up", "expected"), [
    ("Where was Albert Einstein born?", "And what is his occupation?", "physicist"),
    ("Wo wurde Albert Einstein geboren?", "Und seine Staatsangehörigkeit?", "Deutschland"),
    ("Где родился Альберт Эйнштейн?", "А какое у него гражданство?", "Германия"),
])
def test_a_follow_up_is_answered_about_the_previous_subject(chat: Chat, tiny_app: App, first: str,
                                                            follow_up: str, expected: str) -> None:
    chat.ask(first)
    answer = chat.ask(follow_up)
    assert expected in answer.inner_text()
    note = answer.locator(".kgqa-followup")
    assert note.count() == 1 and "kgqa-referent-Q937" in (note.get_attribute("class") or "")  # Albert Einstein
    assert answer.locator(".kgqa-understood a[href$='/Q937']").count() == 1  # "What I understood": Einstein · …
    row = tiny_app.rows("SELECT status FROM turns WHERE question = ? ORDER BY created_at DESC LIMIT 1",
                        (follow_up,))
    assert row == [("ok",)]
    chat.assert_nothing_executed()


def test_an_unrelated_second_question_is_answered_on_its_own(chat: Chat) -> None:
    chat.ask("Where was Albert Einstein born?")
    answer = chat.ask("What is the capital of Russia?")
    assert "Moscow" in answer.inner_text() and answer.locator(".kgqa-followup").count() == 0


def test_the_conversation_survives_a_reload_until_a_new_one_is_started(chat: Chat, tiny_app: App) -> None:
    first = chat.ask("Where was Albert Einstein born?")
    first_id = next(c for c in (first.get_attribute("class") or "").split() if c.startswith("kgqa-turn-"))[10:]
    chat.page.reload()
    chat.page.wait_for_selector("#kgqa-question textarea", timeout=60_000)
    chat.page.wait_for_function("document.querySelectorAll('.kgqa-answer').length === 1", timeout=30_000)
    assert "Where was Albert Einstein born?" in chat.page.inner_text("#kgqa-chat")
    assert "Ulm" in chat.page.locator(".kgqa-answer").first.inner_text()
    follow = chat.ask("And what is his occupation?")  # the context came back with the history
    assert "physicist" in follow.inner_text() and follow.locator(".kgqa-followup").count() == 1
    follow_id = next(c for c in (follow.get_attribute("class") or "").split() if c.startswith("kgqa-turn-"))[10:]
    sessions = {s for (s,) in tiny_app.rows("SELECT session_id FROM turns WHERE turn_id IN (?, ?)",
                                              (first_id, follow_id))}
    assert len(sessions) == 1  # one conversation, one session in the log, across the reload
    chat.page.locator("#kgqa-new").click()
    chat.page.wait_for_function("document.querySelectorAll('.kgqa-answer').length === 0", timeout=30_000)
    time.sleep(1.0)
    chat.page.reload()
    chat.page.wait_for_selector("#kgqa-question textarea", timeout=60_000)
    time.sleep(2.0)
    assert chat.answers() == 0
    alone = chat.ask("And what is his occupation?")  # nothing to refer to any more
    assert alone.locator(".kgqa-followup").count() == 0


def test_an_unsupported_language_gets_an_honest_reply_in_the_browsers_language_and_english(
        browser, tiny_app: App) -> None:
    tab = Chat(browser, tiny_app, accept_language="de-DE,de;q=0.9")
    try:
        answer = tab.ask("Gdzie urodził się Albert Einstein?")
        parts = answer.locator(".kgqa-unsupported")
        assert parts.count() == 2
        assert parts.nth(0).get_attribute("lang") == "de" and "Polnisch" in parts.nth(0).inner_text()
        assert parts.nth(1).get_attribute("lang") == "en" and "Polish" in parts.nth(1).inner_text()
        assert "Deutsch" in parts.nth(1).inner_text() and "Русский" in parts.nth(1).inner_text()
        assert answer.locator(".kgqa-value").count() == 0  # never an answer in a guessed language
        row = tiny_app.rows("SELECT detected_lang, status FROM turns WHERE question = ? LIMIT 1",
                            ("Gdzie urodził się Albert Einstein?",))
        assert row == [("pl", "bad_input")]
    finally:
        tab.close()


def test_a_name_missing_in_the_users_language_is_the_english_one_with_a_badge(chat: Chat) -> None:
    answer = chat.ask("Dove è nato Albert Einstein?")  # Ulm: French and English names, no Italian one
    value = answer.locator(".kgqa-value").first
    badge = value.locator(".kgqa-badge")
    assert badge.inner_text() == "EN" and "inglese" in (badge.get_attribute("title") or "")
    assert value.locator("a").inner_text() == "Ulm"
    badges = {b.text_content() for b in answer.locator(".kgqa-badge").all()}  # the explanation's too
    assert badges <= {"EN"}  # never a third language (Italian -> English -> the KG's own label)
    style = badge.evaluate("e => getComputedStyle(e).userSelect")
    assert style == "none"  # copying the name does not give "UlmEN"


def test_empty_input_is_ignored_and_a_too_long_question_stays_in_the_box(chat: Chat,
                                                                         tiny_app: App) -> None:
    box = chat.page.locator("#kgqa-question textarea")
    rows_before = tiny_app.rows("SELECT COUNT(*) FROM turns")[0][0]
    for blank in ("", "   "):
        box.fill(blank)
        box.press("Enter")
    time.sleep(2.0)
    assert chat.answers() == 0 and chat.page.locator("#kgqa-chat .kgqa-question").count() == 0
    assert tiny_app.rows("SELECT COUNT(*) FROM turns")[0][0] == rows_before
    long_question = "Where was Albert Einstein born? " * 40
    answer = chat.ask(long_question)
    text = answer.inner_text()
    assert "1000" in text and str(len(long_question)) in text and "still in the box" in text  # the limit shown
    assert box.input_value() == long_question  # left in the box to shorten


def test_the_phone_layout_is_compact_and_nothing_covers_the_first_message(browser, tiny_app: App) -> None:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="en-US")
    page = context.new_page()
    try:
        page.goto(tiny_app.url)
        page.wait_for_selector("#kgqa-question textarea", timeout=60_000)
        time.sleep(1.0)
        header = page.locator("#kgqa-header").bounding_box()
        chat_box = page.locator("#kgqa-chat").bounding_box()
        examples = page.locator("#kgqa-examples").bounding_box()
        assert header is not None and chat_box is not None and examples is not None
        assert header["height"] <= 0.2 * PHONE["height"]  # a compact header
        assert header["y"] + header["height"] <= chat_box["y"]  # nothing overlapping
        assert examples["y"] < PHONE["height"]  # the examples are on the first screen
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        box = page.locator("#kgqa-question textarea")
        box.fill("Where was Albert Einstein born?")
        box.press("Enter")
        page.wait_for_function("document.querySelectorAll('.kgqa-answer').length === 1", timeout=60_000)
        # The first message, brought into view inside the chat, is what lies at its own corner:
        # no label, header or button is drawn over it (one script, so no re-render comes between).
        found = page.evaluate(
            """() => { const q = document.querySelector('#kgqa-chat .kgqa-question');
                if (!q) return 'no message';
                q.scrollIntoView({block: 'center', inline: 'nearest'});
                const r = q.getBoundingClientRect();
                const e = document.elementFromPoint(r.left + 4, r.top + 4);
                if (!e) return 'nothing at ' + r.left + ',' + r.top;
                return e.closest('#kgqa-chat .kgqa-question, #kgqa-chat .message') !== null
                    ? 'message' : e.tagName + '.' + e.className; }""")
        assert found == "message", found  # the top message is not under a label
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "chat_phone.png"))
    finally:
        context.close()
