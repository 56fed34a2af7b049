"""Browser tests for issue 42, "replies a native speaker trusts" (Debian Chromium via
Playwright, the real app on 127.0.0.1 over the tiny KG with the local backend): a reload
right after an answer keeps it, and its context; a relation the KG names only in English is
named in the user's language, without the English badge."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.chat.browser_kit import Chat

pytestmark = pytest.mark.slow


@pytest.fixture
def chat(browser, tiny_app) -> Iterator[Chat]:
    tab = Chat(browser, tiny_app)
    yield tab
    tab.close()


def test_a_reload_right_after_an_answer_keeps_it_and_its_context(chat: Chat) -> None:
    for question, expected in (("Where was Albert Einstein born?", "Ulm"),
                               ("What is the capital of Russia?", "Moscow"),
                               ("Where was Albert Einstein born?", "Ulm")):
        before = chat.answers()
        box = chat.page.locator("#kgqa-question textarea")
        box.fill(question)
        box.press("Enter")
        chat.page.wait_for_function(f"document.querySelectorAll('.kgqa-answer').length > {before}", timeout=60_000)
        chat.page.reload()  # at once: no pause after the answer showed
        chat.page.wait_for_selector("#kgqa-question textarea", timeout=60_000)
        chat.page.wait_for_function(f"document.querySelectorAll('.kgqa-answer').length === {before + 1}",
                                    timeout=30_000)
        assert expected in chat.page.locator(".kgqa-answer").last.inner_text()
    follow = chat.ask("And what is his occupation?")  # the context came back with the answer
    assert "physicist" in follow.inner_text() and follow.locator(".kgqa-followup").count() == 1


def test_a_relation_is_named_in_the_users_language(chat: Chat) -> None:
    answer = chat.ask("Dove è nato Albert Einstein?")
    line = answer.locator(".kgqa-understood")
    assert "Ulm" in answer.inner_text() and "luogo di nascita" in line.inner_text()
    relation = line.locator("a[href$='Property:P19']")
    assert relation.count() == 1 and relation.inner_text() == "luogo di nascita"
    assert "kgqa-badge" not in (relation.evaluate("a => a.nextElementSibling ? a.nextElementSibling.className : ''")
                                or "")
