"""Shared fixtures: the tiny in-memory KG and paths to the shared data; and the groups and
order pytest-xdist hands out test files in (``make test`` runs ``-n auto --dist loadfile``)."""

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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The files with the most ``slow`` tests first (each file stays in its own order), the
    browser files side by side: with ``--dist loadfile`` a worker takes the next file when
    it is free, and the longest files then start first instead of last (``make test``
    passes ``--no-loadscope-reorder``, or pytest-xdist would order the files by their
    number of tests instead).  The browser and the chat apps it drives are started once
    per worker (``tests/chat/conftest.py``)."""
    browser_files = {item.nodeid.split("::")[0] for item in items if "browser" in getattr(item, "fixturenames", ())}

    def group(item: pytest.Item) -> str:
        path = item.nodeid.split("::")[0]
        return "browser" if path in browser_files else path

    slow: dict[str, int] = {}
    for item in items:
        if item.get_closest_marker("slow") is not None:
            slow[group(item)] = slow.get(group(item), 0) + 1
    items.sort(key=lambda item: (-slow.get(group(item), 0), group(item)))
