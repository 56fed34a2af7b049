"""``kgqa kg-serve`` and ``kgqa serve`` as real processes: the whole service chain
(QAnswer-compatible backend -> our API -> our SPARQL endpoint over the tiny store)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from core.settings import PROJECT_ROOT
from kg.client import RemoteKG
from kg.name_keys import HAS_KEYS
from kg.store import build_store
from service.kgserve import query_url, wait_ready
from service.session_log import SessionLog
from tests.service.faulty_http import Reply, ScriptedServer, free_port
from tests.service.helpers import CAPITAL

HTTP = httpx.Client(timeout=60)  # generous: CI machines may be busy


def _kgqa(*args: str) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KGQA_")}
    return subprocess.Popen([sys.executable, "-m", "cli.main", *args], cwd=PROJECT_ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _stop(process: subprocess.Popen) -> None:
    process.kill()
    process.wait(timeout=10)


def _wait_http(url: str, process: subprocess.Popen, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"process exited: {process.stderr.read().decode(errors='replace')}")
        try:
            if HTTP.get(url, timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"{url} never came up")


@pytest.mark.slow
def test_kg_serve_and_serve_processes(tiny_nt: Path, tmp_path: Path):
    cache = tmp_path / "cache"
    build_store(tiny_nt, cache, progress=False)  # the store `kgqa build-kg` would have built
    kg_port = free_port()
    endpoint = query_url("127.0.0.1", kg_port)
    kg_proc = _kgqa("kg-serve", "--kg-source", str(tiny_nt), "--cache-dir", str(cache), "--port", str(kg_port))
    try:
        wait_ready(endpoint, 60, kg_proc)
        assert RemoteKG(endpoint).query("ASK { wd:Q64 wdt:P17 wd:Q183 }").boolean is True
        assert RemoteKG(endpoint).query(HAS_KEYS).boolean is True  # served with its name keys
        reply = {"question": "q", "queries": [{"query": CAPITAL, "confidence": 0.9, "kb": "wikidata"}]}
        with ScriptedServer(lambda r: Reply.json(reply)) as upstream:
            api_port = free_port()  # chosen after the upstream bound its own port: they cannot coincide
            api = _kgqa("serve", "--backend", "qanswer", "--qanswer-url", upstream.url, "--kg-endpoint", endpoint,
                        "--no-validator", "--cache-dir", str(cache), "--port", str(api_port),
                        "--log-path", str(tmp_path / "logs" / "sessions.sqlite"))
            try:
                base = f"http://127.0.0.1:{api_port}"
                _wait_http(base + "/health", api)
                health = HTTP.get(base + "/health").json()
                assert health == {"status": "ok", "backend": "qanswer", "kg": "remote", "validator": "off",
                                  "workers": 2, "stuck": 0, "refused": {}}
                r = HTTP.post(base + "/gerbil", content=b"query=Hauptstadt von Deutschland?&lang=de")
                bindings = r.json()["questions"][0]["answers"][0]["results"]["bindings"]
                assert bindings == [{"answer": {"type": "uri", "value": "http://www.wikidata.org/entity/Q64"}}]
                r = HTTP.get(base + "/api/qa/full", params={"question": "Hauptstadt?", "lang": "de"})
                assert r.json()["queries"] == reply["queries"]
                with SessionLog(tmp_path / "logs" / "sessions.sqlite") as log:
                    rows = list(log.turns())
                assert [(t["source"], t["question"], t["status"]) for t in rows] == [
                    ("api", "Hauptstadt von Deutschland?", "ok")]
            finally:
                _stop(api)
    finally:
        _stop(kg_proc)


def test_kg_serve_without_a_source_fails_cleanly(tmp_path: Path):
    proc = _kgqa("kg-serve", "--kg-source", str(tmp_path / "missing.nt"), "--cache-dir", str(tmp_path))
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert b"missing.nt" in err and b"no such file" in err


@pytest.mark.slow
def test_kgqa_ask_answers_through_a_running_serve_and_alone_alike(tiny_nt: Path, tmp_path: Path):
    import json

    cache, port = tmp_path / "cache", free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("KGQA_")}
    serve = _kgqa("serve", "--kg-source", str(tiny_nt), "--cache-dir", str(cache), "--port", str(port),
                  "--no-validator", "--workers", "1")
    try:
        _wait_http(f"http://127.0.0.1:{port}/health", serve)
        health = HTTP.get(f"http://127.0.0.1:{port}/health").json()
        assert (health["status"], health["workers"], health["stuck"]) == ("ok", 1, 0)

        def ask(*flags: str) -> tuple[dict, str]:
            done = subprocess.run([sys.executable, "-m", "cli.main", "ask", "Where was Albert Einstein born?",
                                   "--json", "--timings", "--no-validator", "--serve-port", str(port), *flags],
                                  cwd=PROJECT_ROOT, env=env, capture_output=True, text=True, timeout=120)
            assert done.returncode == 0, done.stderr
            turn = json.loads(done.stdout)
            turn.pop("timings_ms")
            return turn, done.stderr

        served, served_timings = ask()
        alone, alone_timings = ask("--local", "--kg-source", str(tiny_nt), "--cache-dir", str(cache))
    finally:
        _stop(serve)
    assert "timings (kgqa serve)" in served_timings and "load" not in served_timings
    assert "timings (this process)" in alone_timings and "load" in alone_timings
    assert served["answers"][0]["id"] == "Q3012" and served == alone
