"""Worker processes (service/workers.py) end with their parent, and a KG query that runs
forever is stopped at the question's deadline by killing and replacing its worker."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from chat.messages import message, turn_message
from core.settings import load_settings
from service.app import create_app
from service.server import ServerThread
from service.workers import WorkerPipeline
from tests.service.faulty_http import Reply, Request, ScriptedServer

ROOT = Path(__file__).resolve().parents[2]
FOREVER = ("PREFIX wd: <http://www.wikidata.org/entity/> SELECT ?answer WHERE { wd:Q64 ?p ?answer . "
           "?x ?p ?a . ?y ?p ?b . ?z ?p ?c . ?w ?p ?d FILTER(STR(?d) = CONCAT(STR(?a), STR(?b), STR(?c))) }")
"""Connected to a constant and valid, but the embedded store never returns a row, so it
never checks its own timeout (minutes of work on the tiny KG)."""
CAPITAL = ("PREFIX wd: <http://www.wikidata.org/entity/> PREFIX wdt: <http://www.wikidata.org/prop/direct/> "
           "SELECT ?answer WHERE { wd:Q183 wdt:P36 ?answer . }")
DEADLINE_S = 3.0

PARENT = """
import faulthandler, json, signal, sys, time
faulthandler.register(signal.SIGUSR1, all_threads=True)  # the test's diagnosis when it does not end
# Ctrl-C as a terminal delivers it, whatever this process inherited: a suite started in the
# background by a shell without job control ignores SIGINT, and so would this parent
signal.signal(signal.SIGINT, signal.default_int_handler)
from pathlib import Path
from core.settings import load_settings
from service.app import create_app
from service.server import ServerThread
from service.workers import WorkerPipeline
settings = load_settings({}, kg_source=Path(sys.argv[1]), cache_dir=Path(sys.argv[2]), validator=False)
pool = WorkerPipeline(settings, 2)
print(json.dumps([pool._template.pid, *pool.pids()]), flush=True)
time.sleep(600)
"""


@pytest.fixture(scope="module")
def tiny_source(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    from tests import tiny_kg

    root = tmp_path_factory.mktemp("lifetime")
    source = root / "tiny.nt"
    source.write_text(tiny_kg.ntriples(), encoding="utf-8")
    return source, root / "cache"


def _proc_state(pid: int) -> str | None:
    """``pid``'s state letter from ``/proc`` (``None`` once it is gone)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return None


def _running(pid: int) -> bool:
    """True while ``pid`` exists and is not a zombie."""
    return _proc_state(pid) not in (None, "Z", "X")


def _state(pid: int) -> str:
    """``pid``'s state and kernel wait channel, for a failure message."""
    try:
        return f"{pid}: {_proc_state(pid)} {Path(f'/proc/{pid}/wchan').read_text()}"
    except OSError:
        return f"{pid}: gone"


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL, signal.SIGINT])
def test_no_worker_survives_its_parent(tiny_source: tuple[Path, Path], sig: int, tmp_path: Path) -> None:
    errors = tmp_path / "parent.err"
    with errors.open("w") as err:
        parent = subprocess.Popen([sys.executable, "-c", PARENT, *map(str, tiny_source)], cwd=ROOT,
                                  stdout=subprocess.PIPE, stderr=err, text=True)
    try:
        children = json.loads(parent.stdout.readline())
        assert len(children) == 3 and all(_running(pid) for pid in children)
        parent.send_signal(sig)
        try:
            parent.wait(timeout=10)
        except subprocess.TimeoutExpired:  # say where it hangs: its threads' stacks and its children's states
            parent.send_signal(signal.SIGUSR1)
            time.sleep(1)
            pytest.fail(f"the parent did not end within 10 s of signal {sig}; children "
                        f"{[_state(pid) for pid in children]}; its stacks:\n{errors.read_text()[-4000:]}")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(_running(pid) for pid in children):
            time.sleep(0.1)
        assert not [pid for pid in children if _running(pid)]
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()


@pytest.mark.slow
def test_a_query_past_its_deadline_kills_the_worker_and_the_next_user_is_answered(
        tiny_source: tuple[Path, Path]) -> None:
    def qanswer(request: Request) -> Reply:
        forever = "forever" in json.dumps(request.query) + request.body.decode("utf-8", "replace")
        return Reply.json({"queries": [{"query": FOREVER if forever else CAPITAL, "confidence": 0.9}]})

    source, cache = tiny_source
    with ScriptedServer(qanswer) as server:
        settings = load_settings({}, kg_source=source, cache_dir=cache, validator=False, backend="qanswer",
                                 qanswer_url=server.url, timeout_s=2.0)
        with WorkerPipeline(settings, 1, deadline_s=DEADLINE_S) as pool, ServerThread(create_app(pool)) as api:
            victim = pool.pids()[0]
            started = time.monotonic()
            turns: list = []

            def ask_forever() -> None:
                turns.append(pool.answer("What is the capital of forever?", "en"))
                turns.append(time.monotonic() - started)

            asking = threading.Thread(target=ask_forever)
            asking.start()
            time.sleep(DEADLINE_S * 0.75)
            health = httpx.get(api.url + "/health", timeout=10)
            assert health.status_code == 503 and health.json()["stuck"] == 1
            asking.join(timeout=DEADLINE_S * 2)
            turn, took = turns
            assert turn.status == "service_error" and not turn.answered
            assert turn_message(turn) == message("service_unavailable", "en")
            assert DEADLINE_S <= took <= DEADLINE_S + 2.0
            assert not _running(victim) and pool.stuck() == []
            started = time.monotonic()
            turn = pool.answer("What is the capital of Germany?", "en")
            assert turn.answered and turn.answers[0].id == "Q64"
            assert time.monotonic() - started <= 2.0
            assert victim not in pool.pids() and len(pool.pids()) == 1
            health = httpx.get(api.url + "/health", timeout=10)
            assert health.status_code == 200 and health.json()["stuck"] == 0  # the probe ran in a worker


def test_workers_are_forked_from_one_loaded_process(tiny_source: tuple[Path, Path]) -> None:
    source, cache = tiny_source
    settings = load_settings({}, kg_source=source, cache_dir=cache, validator=False)
    with WorkerPipeline(settings, 2, wait=False) as pool:
        assert pool.wait_ready(120) and pool.failure is None
        template = pool._template.pid
        for pid in pool.pids():
            assert int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1]) == template
        assert os.getpid() not in pool.pids()
