"""``python app.py`` as a user starts it (tiny KG, validator off): the first page served
answers at once through ``/start/ask``, the full chat opens behind it on the same port, and
SIGTERM stops the whole app cleanly."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest

from tests import tiny_kg
from tests.chat.browser_kit import ROOT, _clean_env, _free_port, _require_local_backend

pytestmark = pytest.mark.slow


def _first(url: str, proc: subprocess.Popen, timeout_s: float = 120) -> httpx.Response:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the app exited"
        try:
            reply = httpx.get(url, timeout=2)
            if reply.status_code == 200:
                return reply
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise AssertionError(f"{url} not served after {timeout_s} s")


def _tiny_env(tmp_path):
    _require_local_backend()
    source = tmp_path / "tiny.nt"
    source.write_text(tiny_kg.ntriples(), encoding="utf-8")
    return _clean_env(KGQA_KG_SOURCE=str(source), KGQA_CACHE_DIR=str(tmp_path / "cache"))


@contextmanager
def _app(tmp_path, *args: str) -> Iterator[tuple[subprocess.Popen, str]]:
    """``python app.py *args`` over the tiny KG, validator off, its output in ``app.out``: the
    process and its URL; killed at the end if it still runs."""
    env = _tiny_env(tmp_path)
    port = _free_port()
    with (tmp_path / "app.out").open("wb") as out:
        proc = subprocess.Popen([sys.executable, "app.py", *args, "--port", str(port), "--log-path",
                                 str(tmp_path / "sessions.sqlite"), "--no-validator"],
                                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        yield proc, f"http://127.0.0.1:{port}"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=15)


def test_the_first_page_answers_the_chat_opens_behind_it_and_sigterm_stops_it(tmp_path) -> None:
    with _app(tmp_path) as (proc, url):
        first = _first(url + "/", proc)
        answer = httpx.post(url + "/start/ask", json={"question": "Where was Albert Einstein born?"}, timeout=120)
        assert answer.status_code == 200 and "kgqa-answer" in answer.json()["html"]
        _first(url + "/config", proc)  # the full chat is open
        assert httpx.get(url + "/start/status").json()["chat"] is True
        chat = httpx.get(url + "/")
        assert "gradio" in chat.text.lower() and chat.text != first.text
        assert httpx.post(url + "/start/ask", json={"question": "Who wrote Faust?"}, timeout=120).status_code == 200
        assert httpx.get(url + "/", headers={"Host": "evil.example"}).status_code == 400  # the door checks hosts
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=15) == 0
    output = (tmp_path / "app.out").read_text(errors="replace")
    assert "Traceback" not in output and f"Running on local URL:  {url}" in output


def test_workers_0_serves_the_chat_from_its_own_process_and_sigterm_stops_it(tmp_path) -> None:
    with _app(tmp_path, "--workers", "0") as (proc, url):
        _first(url + "/config", proc)  # Gradio's own launch: no start page in this mode
        assert httpx.get(url + "/start/status").status_code == 404
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=15) == 0
    assert "Traceback" not in (tmp_path / "app.out").read_text(errors="replace")
