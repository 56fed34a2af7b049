"""No lost question: 10 Chromium tabs each ask 5 questions straight after the page loads
(before the page's load event is known to have finished); every question shown gets an
answer message and a row in the session log.  Real chat process, real Gradio queue."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.chat.browser_kit import CHROMIUM, ROOT, _clean_env, _free_port, _wait_http

pytestmark = pytest.mark.slow

TABS = 10
QUESTIONS = 5


def _question(tab: int, i: int) -> str:
    return f"What is the capital of Germany? (tab {tab}, question {i})"


@pytest.fixture(scope="module")
def chat_process(tmp_path_factory):
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian chromium is not installed")
    tmp = tmp_path_factory.mktemp("lost")
    port, log_path, out = _free_port(), tmp / "sessions.sqlite", tmp / "app.out"
    env = _clean_env(KGQA_RATE_LIMIT_PER_MINUTE="0")  # this test is about the queue, not the limit
    with out.open("wb") as sink:
        proc = subprocess.Popen([sys.executable, "-m", "tests.service.chat_app_proc", str(port), str(log_path)],
                                cwd=ROOT, env=env, stdout=sink, stderr=subprocess.STDOUT)
    try:
        _wait_http(f"http://127.0.0.1:{port}/", proc, out, 120)
        yield f"http://127.0.0.1:{port}/", log_path, out
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.mark.parametrize("run", range(int(os.environ.get("KGQA_LOST_RUNS", "1"))))
def test_fifty_questions_straight_after_load_are_all_answered_and_logged(browser, chat_process, run: int):
    url, log_path, out = chat_process
    contexts = [browser.new_context() for _ in range(TABS)]
    try:
        pages = [context.new_page() for context in contexts]
        for page in pages:
            page.goto(url, wait_until="commit")
        for page in pages:
            page.wait_for_selector("#kgqa-question textarea", timeout=60_000)
        asked: list[str] = []
        for i in range(QUESTIONS):  # straight after load: no wait for the load event, nor for answers
            for tab, page in enumerate(pages):
                box = page.locator("#kgqa-question textarea")
                # a person cannot type the next question before the box is cleared (a few ms);
                # filling it earlier, the clear would wipe the new text before it is submitted
                page.wait_for_function("document.querySelector('#kgqa-question textarea').value === ''",
                                       timeout=30_000)
                box.fill(_question(tab, i) + f" run {run}")
                box.press("Enter")
                asked.append(_question(tab, i) + f" run {run}")
        deadline = time.monotonic() + 180
        counts = [0] * TABS
        while time.monotonic() < deadline:
            counts = [page.locator(".kgqa-answer").count() for page in pages]
            if all(c >= QUESTIONS for c in counts):
                break
            time.sleep(0.5)
        shown = [page.locator(".message.user, [data-testid='user']").count() for page in pages]
    finally:
        for context in contexts:
            context.close()
    with sqlite3.connect(log_path) as db:
        logged = {q for (q,) in db.execute("SELECT question FROM turns WHERE question LIKE ?", (f"% run {run}",))}
    lost = sorted(set(asked) - logged)
    print(f"run {run}: {sum(min(c, QUESTIONS) for c in counts)} of {len(asked)} answered, "
          f"{len(logged & set(asked))} of {len(asked)} logged")
    assert counts == [QUESTIONS] * TABS, (counts, shown, lost, out.read_text(errors="replace")[-2000:])
    assert lost == [], lost
    assert len(logged) == TABS * QUESTIONS


def test_lone_surrogate_typed_in_the_chat_gets_the_notice_and_an_answer(browser, chat_process):
    """The chat UI's entry point: a textbox value holding a lone surrogate (which a page
    script can produce) is answered with the invalid-text notice, then the tab goes on."""
    from chat.messages import message

    url, log_path, _ = chat_process
    context = browser.new_context(locale="de-DE", extra_http_headers={"Accept-Language": "de-DE"})
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("#kgqa-question textarea", timeout=60_000)
        page.eval_on_selector("#kgqa-question textarea", """box => {
            box.value = 'Was ist die Hauptstadt von Deutschland? surrogate \\uD800';
            box.dispatchEvent(new Event('input', {bubbles: true}));
        }""")
        page.locator("#kgqa-question textarea").press("Enter")
        page.wait_for_function("document.querySelectorAll('.kgqa-answer').length >= 1", timeout=60_000)
        first = page.locator(".kgqa-answer").last.inner_text()
        box = page.locator("#kgqa-question textarea")
        box.fill("Was ist die Hauptstadt von Deutschland? next")
        box.press("Enter")
        page.wait_for_function("document.querySelectorAll('.kgqa-answer').length >= 2", timeout=60_000)
        second = page.locator(".kgqa-answer").last.inner_text()
    finally:
        context.close()
    assert message("notice_invalid_unicode", "de") in first and "Berlin" in first
    assert "Berlin" in second and message("notice_invalid_unicode", "de") not in second
    with sqlite3.connect(log_path) as db:
        questions = [q for (q,) in db.execute("SELECT question FROM turns WHERE question LIKE '%surrogate%'")]
    assert questions == ["Was ist die Hauptstadt von Deutschland? surrogate \ufffd"]
