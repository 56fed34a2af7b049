"""Corrupt caches are detected when opened and rebuilt (issue 35, item 9): a damaged
store (RocksDB's ``Corruption``, a raw ``RuntimeError`` before) or label index (SQLite's
"malformed"), never a raw RuntimeError; what cannot be rebuilt is a KGSourceError."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from core.errors import KGSourceError
from kg import build as kg_build
from kg.build import CHECKED_FILE, build_kg, ensure_label_index, open_built_store, verify_store
from kg.labels import DB_NAME, LabelIndex
from kg.store import KGPaths, kg_paths
from tests import tiny_kg


@pytest.fixture
def built(tmp_path: Path) -> tuple[Path, Path, KGPaths]:
    source = tmp_path / "tiny.nt"
    source.write_text(tiny_kg.ntriples(), encoding="utf-8")
    cache = tmp_path / "cache"
    return source, cache, build_kg(source, cache, progress=False)


def _garble(path: Path) -> None:
    path.write_bytes(b"garbage" * 10)


def _store_file(paths: KGPaths, pattern: str) -> Path:
    return next(p for p in sorted(paths.store.iterdir()) if pattern in p.name)


STORE_DAMAGE: dict[str, Callable[[KGPaths], None]] = {
    "CURRENT": lambda paths: _garble(_store_file(paths, "CURRENT")),
    "MANIFEST": lambda paths: _garble(_store_file(paths, "MANIFEST")),
    "sst": lambda paths: _garble(_store_file(paths, ".sst")),
}


@pytest.mark.parametrize("damage", sorted(STORE_DAMAGE))
def test_a_corrupt_store_is_a_kg_source_error_and_is_rebuilt(built, damage: str):
    source, cache, paths = built
    STORE_DAMAGE[damage](paths)
    with pytest.raises(KGSourceError, match="corrupt store") as raised:
        verify_store(paths)
    assert raised.value.path == paths.store
    rebuilt = build_kg(source, cache, progress=False)
    assert rebuilt == paths
    store = open_built_store(rebuilt)
    assert store.query("ASK { <http://www.wikidata.org/entity/Q64> ?p ?o }")


LABEL_DAMAGE: dict[str, Callable[[Path], None]] = {
    "garbage": lambda db: db.write_bytes(b"garbage" * 1000),
    "bad page": lambda db: db.write_bytes(db.read_bytes()[:4096] + b"\xff" * 4096 + db.read_bytes()[8192:]),
    "truncated": lambda db: db.write_bytes(db.read_bytes()[:5000]),
}


@pytest.mark.parametrize("damage", sorted(LABEL_DAMAGE))
def test_a_corrupt_label_index_is_rebuilt(built, damage: str):
    source, cache, paths = built
    LABEL_DAMAGE[damage](paths.labels / DB_NAME)
    index = ensure_label_index(source, cache)
    assert index.lookup(["berlin"])["berlin"]  # answers again
    index.verify()


def test_a_store_that_stays_corrupt_is_a_clear_error(built, tmp_path: Path):
    source, cache, paths = built
    shutil.rmtree(paths.store)
    paths.store.mkdir()
    (paths.store / "CURRENT").write_text("MANIFEST-000001")  # no newline: RocksDB reports Corruption
    with pytest.raises(KGSourceError) as raised:
        open_built_store(kg_paths(source, cache))
    assert "corrupt store" in str(raised.value) and "\n" not in str(raised.value)


def test_the_whole_file_check_runs_once_per_version_of_the_label_index(built, monkeypatch):
    """``quick_check`` costs 0.3-0.6 s a start on the full KG: a stamp beside the index lets
    the next process skip it, and any write to the file brings it back."""
    source, cache, paths = built
    assert (paths.labels / CHECKED_FILE).is_file()  # the build's check was noted
    checked: list[Path] = []
    verify = LabelIndex.verify
    monkeypatch.setattr(LabelIndex, "verify", lambda self: (checked.append(self.path), verify(self))[1])
    monkeypatch.setattr(kg_build, "_VERIFIED", set())  # as in a new process
    ensure_label_index(source, cache)
    assert checked == []
    LABEL_DAMAGE["bad page"](paths.labels / DB_NAME)
    monkeypatch.setattr(kg_build, "_VERIFIED", set())
    index = ensure_label_index(source, cache)
    assert checked  # the changed file was checked whole, found damaged and rebuilt
    assert index.lookup(["berlin"])["berlin"]
