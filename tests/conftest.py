"""Shared fixtures: the tiny in-memory KG and paths to the shared data; and the order
pytest-xdist hands out test files in (``make test`` runs ``-n auto --dist loadfile``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.settings import DEFAULT_BENCH_DIR, DEFAULT_KG_SOURCE
from kg.client import EmbeddedKG
from tests import tiny_kg


@pytest.fixture
def tiny_store():
    """The tiny graph in an in-memory pyoxigraph store."""
    return tiny_kg.memory_store()


@pytest.fixture
def tiny_kg_client(tiny_store) -> EmbeddedKG:
    """A :class:`kg.client.KG` over the tiny graph."""
    return EmbeddedKG(tiny_store)


@pytest.fixture
def tiny_nt(tmp_path: Path) -> Path:
    """The tiny graph as an N-Triples file."""
    path = tmp_path / "tiny.nt"
    path.write_text(tiny_kg.ntriples(), encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def shared_kg_source() -> Path:
    """The full embedded KG source (skips when ../shared is absent)."""
    if not DEFAULT_KG_SOURCE.exists():
        pytest.skip("../shared/data/kg is not available")
    return DEFAULT_KG_SOURCE


@pytest.fixture(scope="session")
def full_store_kg(shared_kg_source):
    """The full KG's embedded store (built by the set-up) and its paths, opened once per
    test session (per pytest-xdist worker)."""
    from core.settings import PROJECT_ROOT
    from kg.build import build_kg
    from kg.store import open_store

    paths = build_kg(shared_kg_source, PROJECT_ROOT / ".cache", progress=False)
    return EmbeddedKG(open_store(paths)), paths


@pytest.fixture(scope="session")
def shipped_pipeline(full_store_kg):
    """The shipped pipeline (validator, calibrated gate) over :func:`full_store_kg`, built once
    per test session."""
    from core.settings import load_settings
    from service.factory import build_pipeline

    return build_pipeline(load_settings({}), kg=full_store_kg[0])


@pytest.fixture(scope="session")
def configured_pipeline():
    """The pipeline exactly as the configuration builds it (``KGQA_*``, the bounded store),
    built once per test session; skips without the full KG."""
    import os

    from core.settings import load_settings
    from service.factory import build_pipeline

    settings = load_settings(os.environ)  # KGQA_KG_SOURCE where ../shared is elsewhere
    if not settings.kg_source.exists():
        pytest.skip("the full KG is not available")
    return build_pipeline(settings)


@pytest.fixture(scope="session")
def bench_dir() -> Path:
    """The dev benchmark directory (skips when ../shared is absent)."""
    if not DEFAULT_BENCH_DIR.exists():
        pytest.skip("../shared/data/bench is not available")
    return DEFAULT_BENCH_DIR


# Seconds each heavy file took (its slow tests, summed over phases; ``--durations`` of a whole
# ``make test`` on this 2-core box, 2026-11-28, other work beside it, rounded).  Only an ordering
# hint: a file not listed is weighed by its number of slow tests and of tests; a wrong figure
# costs time, never a result.
_MEASURED_S = {
    "tests/qa/test_written.py": 200,
    "tests/chat/test_lost_questions.py": 160,
    "tests/chat/test_panels.py": 80,
    "tests/kg/test_endpoint_union.py": 55,
    "tests/qa/test_guard.py": 50,
    "tests/service/test_worker_lifetime.py": 50,
    "tests/chat/test_browser_trust.py": 45,
    "tests/chat/test_browser_conversation.py": 45,
    "tests/evaluation/test_results.py": 40,
    "tests/training/test_device.py": 37,
    "tests/backends/test_complex.py": 35,
    "tests/chat/test_browser.py": 35,
    "tests/service/test_workers.py": 30,
    "tests/chat/test_app_start.py": 30,
    "tests/service/test_serve_after_abuse.py": 28,
    "tests/cli/test_serve.py": 28,
    "tests/qa/test_shapes_devset.py": 23,
    "tests/chat/test_forged_state.py": 17,
    "tests/service/test_idle_connections.py": 17,
    "tests/chat/test_browser_replies.py": 16,
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The longest files first (each file stays in its own order): with ``--dist loadfile`` a
    worker takes the next file when it is free, so the longest files start first and the
    short ones fill in at the end, instead of one worker finishing a long file alone
    (``make test`` passes ``--no-loadscope-reorder``, or pytest-xdist would order the files
    by their number of tests instead).  A file's weight is its measured time
    (``_MEASURED_S``), else a rough one from its slow tests and its tests.  The browser and
    the chat apps it drives are started once per worker (``tests/chat/conftest.py``)."""
    slow: dict[str, int] = {}
    count: dict[str, int] = {}
    for item in items:
        path = item.nodeid.split("::")[0]
        count[path] = count.get(path, 0) + 1
        if item.get_closest_marker("slow") is not None:
            slow[path] = slow.get(path, 0) + 1

    def weight(path: str) -> float:
        return _MEASURED_S.get(path, 3.0 * slow.get(path, 0) + 0.05 * count[path])

    items.sort(key=lambda item: (-weight(item.nodeid.split("::")[0]), item.nodeid.split("::")[0]))
