"""Valid Unicode first: lone surrogates and invalid bytes become U+FFFD at every entry point
(``kgqa ask``, the chat's ``/ask``, ``/api/qa/full`` and ``/gerbil``), the user gets a
notice, and nothing crashes (no traceback, the turn is logged)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from chat.messages import message
from core.settings import PROJECT_ROOT, load_settings
from core.text import REPLACEMENT, had_invalid_text, valid_unicode
from service.app import create_app
from service.server import ServerThread
from service.session_log import SessionLog
from tests.service.faulty_http import Reply, ScriptedServer
from tests.service.helpers import CAPITAL, tiny_pipeline


@pytest.mark.parametrize(("raw", "expected"), [
    ("Where\ud800 was he born?", f"Where{REPLACEMENT} was he born?"),
    ("\udcff\udcfe", REPLACEMENT * 2),  # invalid argv bytes as surrogateescape decodes them
    ("\ud83d\ude00 ok", "\U0001f600 ok"),  # a surrogate pair is its character
    ("Где родился Эйнштейн?", "Где родился Эйнштейн?"),
    (None, ""),
])
def test_valid_unicode(raw: str | None, expected: str):
    assert valid_unicode(raw) == expected
    valid_unicode(raw).encode("utf-8")  # always encodable


def test_kgqa_ask_with_invalid_bytes_in_argv(tiny_nt: Path, tmp_path: Path):
    reply = {"question": "q", "queries": [{"query": CAPITAL, "confidence": 0.9, "kb": "wikidata"}]}
    env = {k: v for k, v in os.environ.items() if not k.startswith("KGQA_")}
    with ScriptedServer(lambda r: Reply.json(reply)) as upstream:
        proc = subprocess.run(
            [sys.executable.encode(), b"-m", b"cli.main", b"ask", b"What is the capital of Germany\xff\xfe?",
             b"--backend", b"qanswer", b"--qanswer-url", upstream.url.encode(), b"--no-validator", b"--json",
             b"--kg-source", str(tiny_nt).encode(), b"--cache-dir", str(tmp_path / "cache").encode()],
            cwd=PROJECT_ROOT, env=env, capture_output=True, timeout=120)
    err = proc.stderr.decode("utf-8", errors="replace")
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert message("notice_invalid_unicode", "en") in err
    assert f"Germany{REPLACEMENT}{REPLACEMENT}?".encode() in proc.stdout
    assert upstream.requests[0].query["question"] == [f"What is the capital of Germany{REPLACEMENT}{REPLACEMENT}?"]


def test_service_endpoints_replace_and_notify(tmp_path: Path):
    log = SessionLog(tmp_path / "s.sqlite")
    with ServerThread(create_app(tiny_pipeline(), session_log=log)) as srv:
        r = httpx.post(srv.url + "/gerbil", content=b"query=What is the capital of Germany?\xed\xa0\x80&lang=en",
                       timeout=30)
        full = httpx.get(srv.url + "/api/qa/full?question=What%20is%20the%20capital%20of%20Germany%3F%FF&lang=en",
                         timeout=30)
    assert r.status_code == 200 and r.json()["notices"] == ["invalid_unicode"]
    assert had_invalid_text(r.json()["questions"][0]["question"][0]["string"])
    assert full.status_code == 200 and full.json()["notices"] == ["invalid_unicode"]
    rows = list(log.turns())
    assert len(rows) == 1 and had_invalid_text(rows[0]["question"])
    log.close()


def test_chat_ask_api_with_a_lone_surrogate(tiny_kg_client, tmp_path: Path):
    from gradio_client import Client

    from chat.ui import build_app, launch_app
    from tests.service.helpers import scripted_backend

    settings = load_settings({}, port=_free_port(), log_path=tmp_path / "s.sqlite")
    log = SessionLog(settings.log_path)
    app = build_app(tiny_pipeline(backend=scripted_backend()), settings, log)
    launch_app(app, settings, prevent_thread_lock=True, quiet=True)
    base = f"http://127.0.0.1:{settings.port}"
    try:
        # raw JSON: a JSON string may carry a lone surrogate (gradio_client cannot encode one)
        html = _call_ask(base, b'{"data": ["What is the capital of Germany?\\ud800", "auto"]}')
        again = Client(base + "/", verbose=False).predict("What is the capital of Germany?", "auto", api_name="/ask")
    finally:
        app.close()
    assert message("notice_invalid_unicode", "en") in html
    assert "Berlin" in again
    rows = list(log.turns())
    assert [had_invalid_text(r["question"]) for r in rows] == [True, False]
    log.close()


def _call_ask(base: str, body: bytes) -> str:
    """Gradio's HTTP API: POST the call, then read its server-sent events to the result."""
    started = httpx.post(base + "/gradio_api/call/ask", content=body, headers={"Content-Type": "application/json"},
                         timeout=30)
    started.raise_for_status()
    event_id = started.json()["event_id"]
    with httpx.stream("GET", f"{base}/gradio_api/call/ask/{event_id}", timeout=60) as events:
        lines = list(events.iter_lines())
    kinds = [line.split(": ", 1)[1] for line in lines if line.startswith("event: ")]
    data = [line.split(": ", 1)[1] for line in lines if line.startswith("data: ")]
    assert kinds[-1] == "complete", lines
    return json.loads(data[-1])[0]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
