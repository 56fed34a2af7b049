"""The page that answers while the chat loads (``chat.starting``), over a real server: its
answers are the chat's (rendered, logged, admitted), bad bodies are refused, other paths
say "starting", and in Chromium a question typed on it is answered and, once the chat
opens, the page reloads into it (nothing asked) or offers a new conversation."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Route

from backends.fake import FakeBackend
from chat.asking import new_admission
from chat.starting import MAX_BODY_BYTES, SOURCE, starting_app
from core.settings import load_settings
from qa.candidate import Candidate
from qa.pipeline import Pipeline
from service.front_door import FrontDoor
from service.ratelimit import ClientLimiter
from service.server import ServerThread
from service.session_log import SessionLog
from tests.chat.browser_kit import CHROMIUM

BIRTHPLACE = "SELECT ?x WHERE { wd:Q937 wdt:P19 ?x }"
QUESTION = "Where was Albert Einstein born?"


@pytest.fixture
def door(tiny_kg_client, tmp_path: Path):
    """A front door whose starting app answers over the tiny KG (scripted candidates)."""
    pipeline = Pipeline(FakeBackend({QUESTION: [Candidate(BIRTHPLACE, 0.9)]}), tiny_kg_client)
    settings = load_settings({}, log_path=tmp_path / "s.sqlite")
    log = SessionLog(settings.log_path)
    admission = new_admission(ClientLimiter.per_minute(2), 8)
    front: FrontDoor
    front = FrontDoor(starting_app(pipeline, log, admission, lambda: front.opened))
    with ServerThread(front) as server:
        yield front, server.url, log


def test_a_question_is_answered_rendered_and_logged_as_the_chat_would(door) -> None:
    _, url, log = door
    reply = httpx.post(url + "/start/ask", json={"question": QUESTION, "lang": "auto"}, timeout=60)
    assert reply.status_code == 200 and reply.headers["cache-control"] == "no-store"
    html = reply.json()["html"]
    assert 'class="kgqa-answer' in html and "Ulm" in html and "wikidata.org/wiki/Q3012" in html
    rows = list(log.turns())
    assert [(r["question"], r["source"]) for r in rows] == [(QUESTION, SOURCE)]


def test_the_chat_rate_limit_applies(door) -> None:
    _, url, log = door
    replies = [httpx.post(url + "/start/ask", json={"question": QUESTION}, timeout=60).json()["html"]
               for _ in range(4)]
    assert "kgqa-status-rate_limited" not in replies[0]
    assert any("kgqa-status-rate_limited" in html for html in replies[2:])
    assert len(list(log.turns())) < 4  # refusals are answered and counted, never logged


@pytest.mark.parametrize("body", [b"not json", b'{"question": 3}', b"[]", b'{"lang": "en"}'])
def test_a_body_that_is_not_the_page_s_is_refused(door, body: bytes) -> None:
    _, url, log = door
    reply = httpx.post(url + "/start/ask", content=body, headers={"Content-Type": "application/json"})
    assert reply.status_code == 400 and "html" in reply.json()
    assert list(log.turns()) == []


def test_a_body_too_large_is_refused_before_it_is_read(door) -> None:
    _, url, _ = door
    reply = httpx.post(url + "/start/ask", content=b'{"question": "' + b"a" * MAX_BODY_BYTES + b'"}')
    assert reply.status_code == 400 and reply.json()["error"] == "too_large"


def test_a_body_that_drips_is_cut_at_its_deadline(door, monkeypatch) -> None:
    import socket
    from urllib.parse import urlsplit

    monkeypatch.setattr("chat.starting.BODY_TIMEOUT_S", 0.5)
    _, url, _ = door
    parts = urlsplit(url)
    with socket.create_connection((parts.hostname, parts.port), timeout=10) as conn:
        conn.sendall(b"POST /start/ask HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100\r\n\r\n{\"question\": ")
        reply = b""  # the rest never comes: the reply does (its head and body may come apart)
        while b"too_slow" not in reply and (chunk := conn.recv(4096)):
            reply += chunk
    assert reply.startswith(b"HTTP/1.1 400") and b"too_slow" in reply


def test_other_paths_say_starting_until_the_chat_opens(door) -> None:
    _, url, _ = door
    reply = httpx.get(url + "/config")
    assert reply.status_code == 503 and reply.headers["retry-after"] == "1"
    assert httpx.get(url + "/start/status").json() == {"chat": False, "answers": True}


def test_the_page_is_localized_and_runs_only_its_own_script(door) -> None:
    _, url, _ = door
    page = httpx.get(url + "/", headers={"Accept-Language": "de-DE,de;q=0.9"})
    assert page.status_code == 200 and '<html lang="de">' in page.text
    assert "<h1>Frag Wikidata</h1>" in page.text
    policy = page.headers["content-security-policy"]
    nonce = re.search(r"'nonce-([^']+)'", policy).group(1)
    assert f'<script nonce="{nonce}">' in page.text
    assert "default-src 'none'" in policy and "connect-src 'self'" in policy
    assert httpx.get(url + "/").headers["content-security-policy"] != policy  # a nonce per page


def _full_chat() -> Starlette:
    async def home(request) -> HTMLResponse:
        return HTMLResponse('<html><body><p id="full-chat">the full chat</p></body></html>')

    return Starlette(routes=[Route("/", home)])


@pytest.mark.slow
def test_in_chromium_a_typed_question_is_answered_then_the_page_moves_to_the_chat(door, browser) -> None:
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian chromium is not installed")
    front, url, _ = door
    context = browser.new_context()
    try:
        asking, idle = context.new_page(), context.new_page()
        errors: list[str] = []
        asking.on("pageerror", lambda exc: errors.append(str(exc)))
        asking.goto(url + "/")
        idle.goto(url + "/")
        asking.fill("#kgqa-question", QUESTION)
        asking.click("#kgqa-send")
        asking.wait_for_selector("#kgqa-start-chat .kgqa-answer", timeout=60_000)
        assert "Ulm" in asking.inner_text("#kgqa-start-chat")
        assert asking.locator(".kgqa-user").inner_text() == QUESTION
        front.open(_full_chat())
        idle.wait_for_selector("#full-chat", timeout=20_000)  # nothing asked: it reloads into the chat
        asking.wait_for_selector("#kgqa-new", state="visible", timeout=20_000)  # answers on it: it offers
        assert "Ulm" in asking.inner_text("#kgqa-start-chat")  # and keeps them meanwhile
        asking.click("#kgqa-new")
        asking.wait_for_selector("#full-chat", timeout=20_000)
        assert errors == []  # the CSP lets the page's own script run
    finally:
        context.close()
