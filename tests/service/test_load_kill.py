"""The chat app killed with ``kill -9`` in the middle of a load loses no acknowledged turn."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from core.settings import PROJECT_ROOT
from service.loadgen import TurnResult, logged_questions, missing_turns, run_load
from tests.service.faulty_http import free_port

pytest.importorskip("chat.ui")


def _start_app(port: int, log_path: Path) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KGQA_")}
    proc = subprocess.Popen([sys.executable, "-m", "tests.service.chat_app_proc", str(port), str(log_path)],
                            cwd=PROJECT_ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"app exited: {proc.stderr.read().decode(errors='replace')[-2000:]}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/gradio_api/info", timeout=2).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    proc.kill()
    raise AssertionError("chat app did not come up")


@pytest.mark.slow
def test_kill_9_mid_load_loses_no_acknowledged_turn(tmp_path: Path):
    port, log_path = free_port(), tmp_path / "logs" / "sessions.sqlite"
    proc = _start_app(port, log_path)
    killed = threading.Event()
    acked = []

    def on_result(result: TurnResult) -> None:
        if result.ok and not result.refused:
            acked.append(result)
        if len(acked) >= 40 and not killed.is_set():
            killed.set()
            os.kill(proc.pid, signal.SIGKILL)

    script = [[(f"What is the capital of Germany? session {s} question {q}", "en") for q in range(30)]
              for s in range(10)]
    try:
        report = run_load(f"http://127.0.0.1:{port}", script, timeout_s=30, on_result=on_result)
    finally:
        proc.kill()
        proc.wait()
    assert killed.is_set() and proc.returncode == -signal.SIGKILL
    answered = [r for r in report.acknowledged if not r.refused]  # refused calls are not turns
    assert len(answered) >= 40
    assert report.errors, "the kill must have interrupted some turns"
    assert missing_turns(report, log_path) == []
    logged = logged_questions(log_path, report.started_at)
    assert sum(logged.values()) >= len(answered)
    with sqlite3.connect(log_path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
