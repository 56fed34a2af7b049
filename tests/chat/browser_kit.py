"""What the browser tests share: the chat app as a process on 127.0.0.1 (:class:`App`) and a
Chromium tab on it (:class:`Chat`).  The fixtures that start them once per test session
(per pytest-xdist worker) are in ``tests/chat/conftest.py``."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from chat.render import ui_language

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
XSS = "<img src=x onerror=alert(1)>"


# ---------------------------------------------------------------- processes


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KGQA_")}
    env.update(GRADIO_ANALYTICS_ENABLED="False", PYTHONUNBUFFERED="1", **extra)
    return env


def _wait_http(url: str, proc: subprocess.Popen, log: Path, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"app exited with {proc.returncode}:\n{log.read_text(errors='replace')[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2) as resp:
                if resp.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            time.sleep(0.5)
    raise AssertionError(f"app not up after {timeout_s}s:\n{log.read_text(errors='replace')[-3000:]}")


class App:
    """A chat app process on 127.0.0.1."""

    def __init__(self, cmd: list[str], env: dict[str, str], port: int, log_path: Path, out: Path,
                 timeout_s: float = 180, gate: Path | None = None) -> None:
        self.url = f"http://127.0.0.1:{port}/"
        self.gate = gate  # the scripted app's slow questions wait until this file exists
        self.log_path = log_path
        self.out = out
        with out.open("wb") as sink:
            self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=sink, stderr=subprocess.STDOUT)
        try:  # the full chat: the page that answers while it loads is up first (chat.starting)
            _wait_http(self.url + "config", self.proc, out, timeout_s)
        except AssertionError:
            self.stop()
            raise

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=15)

    def rows(self, sql: str, params: tuple = ()) -> list[tuple]:
        with sqlite3.connect(self.log_path) as db:
            return db.execute(sql, params).fetchall()


def _require_local_backend() -> None:
    try:
        import backends.local  # noqa: F401
    except ImportError as exc:
        pytest.skip(f"local backend not available: {exc}")


class Chat:
    """One browser tab on the chat, recording dialogs and requests leaving 127.0.0.1."""

    def __init__(self, browser, app: App, accept_language: str = "en-US,en;q=0.9", init_script: str = "") -> None:
        self.context = browser.new_context(locale=accept_language.split(",")[0],
                                           extra_http_headers={"Accept-Language": accept_language})
        if init_script:  # runs in the page before its own scripts
            self.context.add_init_script(init_script)
        self.page = self.context.new_page()
        self.dialogs: list[str] = []
        self.external: list[str] = []
        self.page.on("dialog", self._on_dialog)
        self.page.on("request", lambda r: None if r.url.startswith(("http://127.0.0.1", "data:", "blob:"))
                     else self.external.append(r.url))
        self.page.goto(app.url)
        self.page.wait_for_selector("#kgqa-question textarea", timeout=60_000)
        self.page.wait_for_function("document.querySelector('#kgqa-header-inner') !== null", timeout=60_000)
        # the load event has applied the browser's language once the header carries it (a shared
        # app may take a moment when other tabs keep it busy)
        ui = ui_language(accept_language.split(",")[0].split(";")[0].split("-")[0].strip().lower())
        self.page.wait_for_selector(f'#kgqa-header-inner[lang="{ui}"]', timeout=60_000)
        time.sleep(0.5)  # let the load event's other updates (examples, language menus) land

    def _on_dialog(self, dialog) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def answers(self) -> int:
        return self.page.locator(".kgqa-answer").count()

    def ask(self, question: str, *, timeout_ms: int = 60_000):
        """Submit ``question``; return the one new answer element (asserting there is exactly one)."""
        before = self.answers()
        box = self.page.locator("#kgqa-question textarea")
        box.fill(question)
        box.press("Enter")
        self.page.wait_for_function(f"document.querySelectorAll('.kgqa-answer').length > {before}",
                                    timeout=timeout_ms)
        time.sleep(0.4)
        assert self.answers() == before + 1, "one question must give exactly one answer message"
        return self.page.locator(".kgqa-answer").last

    def header(self) -> str:
        return self.page.inner_text("#kgqa-header")

    def assert_nothing_executed(self) -> None:
        assert self.dialogs == []
        assert self.page.evaluate("window.__kgqa_xss === undefined")
        handlers = self.page.eval_on_selector_all(
            "#kgqa-chat *", "els => els.filter(e => [...e.attributes].some(a => a.name.startsWith('on'))).length")
        assert handlers == 0
        assert self.page.locator("#kgqa-chat img[src='x']").count() == 0

    def screenshot(self, name: str) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path

    def close(self) -> None:
        self.context.close()

