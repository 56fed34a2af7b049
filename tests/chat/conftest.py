"""The browser tests' apps and browser, each started once per test session (per
pytest-xdist worker; ``tests/conftest.py`` hands the browser files out side by side):
starting ``app.py`` costs seconds (tens of seconds over the full KG), and every browser
test file used to start its own.

* ``tiny_app``: ``python app.py --no-validator`` (local backend, embedded KG built from the
  tiny graph file in a temporary cache).
* ``scripted_app``: the same UI over the tiny KG with a scripted backend, for inputs the
  local backend would not produce: a KG label carrying HTML/JS, bad input, the selector.
* ``full_app``: ``python app.py`` on the full embedded KG (skipped without ../shared).
* ``browser``: Debian Chromium through Playwright.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.settings import DEFAULT_KG_SOURCE
from tests import tiny_kg
from tests.chat.browser_kit import CHROMIUM, CHROMIUM_ARGS, App, _clean_env, _free_port, _require_local_backend


@pytest.fixture(scope="session")
def tiny_app(tmp_path_factory) -> Iterator[App]:
    _require_local_backend()
    tmp = tmp_path_factory.mktemp("tiny_app")
    source = tmp / "tiny.nt"
    source.write_text(tiny_kg.ntriples(), encoding="utf-8")
    port, log_path = _free_port(), tmp / "logs" / "sessions.sqlite"
    env = _clean_env(KGQA_KG_SOURCE=str(source), KGQA_CACHE_DIR=str(tmp / "cache"))
    # the temporary cache has no validator model, which the app now refuses to start without
    # (exit 2): the validator is off here, as it was in effect ("unavailable") before
    app = App([sys.executable, "app.py", "--port", str(port), "--log-path", str(log_path), "--no-validator"], env,
              port, log_path, tmp / "app.out")
    yield app
    app.stop()


@pytest.fixture(scope="session")
def scripted_app(tmp_path_factory) -> Iterator[App]:
    tmp = tmp_path_factory.mktemp("scripted_app")
    port, log_path = _free_port(), tmp / "sessions.sqlite"
    gate = tmp / "gate"
    app = App([sys.executable, "-m", "tests.chat.scripted_app", "--port", str(port), "--log-path", str(log_path),
               "--gate", str(gate)], _clean_env(), port, log_path, tmp / "app.out", gate=gate)
    yield app
    app.stop()


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian chromium is not installed (scripts/bootstrap.sh --with-browser)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()



@pytest.fixture(scope="session")
def full_app(tmp_path_factory) -> Iterator[App]:
    if not DEFAULT_KG_SOURCE.exists():
        pytest.skip("../shared/data/kg is not available")
    _require_local_backend()
    tmp = tmp_path_factory.mktemp("full_app")
    port, log_path = _free_port(), tmp / "sessions.sqlite"
    app = App([sys.executable, "app.py", "--port", str(port), "--log-path", str(log_path)], _clean_env(), port,
              log_path, tmp / "app.out", timeout_s=600)
    yield app
    app.stop()
