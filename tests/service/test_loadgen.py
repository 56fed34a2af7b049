"""The load generator against the real chat app (in-process Gradio, scripted backend):
think time between turns, concurrent sessions on the shared pipeline pool, and the
``--think-s`` flag of ``benchmarks/load.py``."""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from backends.fake import FakeBackend
from chat.ui import PIPELINE_CONCURRENCY, build_app, launch_app
from core.settings import PROJECT_ROOT, load_settings
from qa.candidate import Candidate
from service.loadgen import LoadError, missing_turns, run_load, wait_until_up
from service.session_log import SessionLog
from tests.service.faulty_http import Reply, ScriptedServer, free_port
from tests.service.helpers import CAPITAL, tiny_pipeline


def _load_benchmark():
    """``benchmarks/load.py`` as a module (benchmarks is a folder of scripts, not a package)."""
    spec = importlib.util.spec_from_file_location("load_benchmark", PROJECT_ROOT / "benchmarks" / "load.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class _Gauge:
    """A backend that records how many questions it answers at the same time."""

    def __init__(self, delay_s: float) -> None:
        self.delay_s = delay_s
        self.lock = threading.Lock()
        self.running = 0
        self.peak = 0

    def __call__(self, question: str, lang: str) -> list[Candidate]:
        with self.lock:
            self.running += 1
            self.peak = max(self.peak, self.running)
        time.sleep(self.delay_s)
        with self.lock:
            self.running -= 1
        return [Candidate(CAPITAL, 0.9)]


@pytest.fixture
def app_url(tmp_path: Path):
    gauge = _Gauge(delay_s=0.15)
    settings = load_settings({}, port=free_port(), log_path=tmp_path / "s.sqlite", validator=False)
    log = SessionLog(settings.log_path)
    app = build_app(tiny_pipeline(backend=FakeBackend(gauge)), settings, log)
    launch_app(app, settings, prevent_thread_lock=True, quiet=True)
    try:
        yield f"http://127.0.0.1:{settings.port}", settings.log_path, gauge
    finally:
        app.close()
        log.close()


def test_sessions_are_answered_concurrently_and_every_turn_is_logged(app_url):
    url, log_path, gauge = app_url
    script = [[(f"What is the capital of Germany? {s}-{q}", "en") for q in range(3)] for s in range(4)]
    report = run_load(url, script, timeout_s=30)
    assert len(report.acknowledged) == 12 and not report.errors
    assert gauge.peak == PIPELINE_CONCURRENCY > 1
    assert missing_turns(report, log_path) == []


def test_think_time_separates_a_sessions_turns_and_is_not_latency(app_url):
    url, _, _ = app_url
    script = [[(f"What is the capital of Germany? {s}-{q}", "en") for q in range(3)] for s in range(2)]
    report = run_load(url, script, timeout_s=30, think_s=(0.4, 0.5), seed=3)
    assert len(report.acknowledged) == 6
    assert report.wall_s >= 2 * 0.4  # two pauses per session (plus the start offset)
    assert report.summary()["think_s"] == [0.4, 0.5]
    for session in range(2):
        latencies = [r.latency_s for r in report.results if r.session == session]
        assert sum(latencies) + 2 * 0.4 <= report.wall_s  # latencies exclude the pauses


def test_think_range_flag():
    think_range = _load_benchmark().think_range
    assert think_range("2:6") == (2.0, 6.0)
    assert think_range("0.5:0.5") == (0.5, 0.5)
    for bad in ("6:2", "x", "1", "-1:2"):
        with pytest.raises(argparse.ArgumentTypeError):
            think_range(bad)


def test_app_cpu_counts_the_worker_processes():
    import os
    import signal
    import subprocess
    import sys

    cpu_seconds = _load_benchmark()._cpu_seconds
    busy = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.6: pass\ntime.sleep(30)"
    parent = subprocess.Popen([sys.executable, "-c",
                               f"import subprocess, sys, time\nc = subprocess.Popen([sys.executable, '-c', {busy!r}])\n"
                               "print(c.pid, flush=True)\ntime.sleep(30)"], stdout=subprocess.PIPE, text=True)
    child = int(parent.stdout.readline())
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and (cpu_seconds(parent.pid, tree=True) or 0) - (
                cpu_seconds(parent.pid) or 0) < 0.5:
            time.sleep(0.2)
        own, tree = cpu_seconds(parent.pid), cpu_seconds(parent.pid, tree=True)
        assert own is not None and tree is not None and tree - own >= 0.5  # the child's busy loop
    finally:
        os.kill(child, signal.SIGKILL)
        parent.kill()
        parent.wait()
    assert cpu_seconds(parent.pid) is None  # gone


def test_wait_until_up_polls_until_a_200_and_stops_on_a_dead_process():
    answers = iter([Reply(503), Reply(503), Reply(200)])
    with ScriptedServer(lambda r: next(answers, Reply(200))) as srv:
        assert wait_until_up(srv.url + "/health", 10, every_s=0.01)
        assert len(srv.requests) == 3
    assert not wait_until_up(f"http://127.0.0.1:{free_port()}/", 0.3, every_s=0.05)  # nothing listens
    dead = subprocess.Popen([sys.executable, "-c", "raise SystemExit(3)"])
    dead.wait()
    with pytest.raises(LoadError, match="status 3"):
        wait_until_up(f"http://127.0.0.1:{free_port()}/", 10, dead)
