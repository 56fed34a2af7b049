"""One entry point to build everything derived from a KG source: the store and,
beside it, the label index used for entity linking."""

from __future__ import annotations

from pathlib import Path

import pyoxigraph

from core.errors import LabelIndexOutdated
from kg.labels import DB_NAME, LabelIndex, build_label_index
from kg.store import KGPaths, build_store, open_store


def _build_label_index(store: pyoxigraph.Store, paths: KGPaths) -> None:
    build_label_index(store, paths.labels)


def build_kg(source: Path, cache_dir: Path, *, progress: bool = True) -> KGPaths:
    """Build (or reuse) the store and label index for ``source``."""
    paths = build_store(Path(source), Path(cache_dir), progress=progress, after_load=_build_label_index)
    open_or_build(paths)  # a store built without (or before) the current label index gets one
    return paths


def ensure_label_index(source: Path, cache_dir: Path) -> LabelIndex:
    """Open the label index of the KG built from ``source``, building what is missing.

    Builds the store and index when nothing is built; builds only the index when a store
    exists without one (or with one from an older version).  Raises :class:`KGSourceError`
    naming the file on a missing/corrupt source or index.
    """
    return open_or_build(build_kg(Path(source), Path(cache_dir), progress=False))


def open_or_build(paths: KGPaths) -> LabelIndex:
    """Open the label index beside a built store, (re)building it when missing or outdated."""
    if (paths.labels / DB_NAME).is_file():
        try:
            return LabelIndex.open(paths.labels)
        except LabelIndexOutdated:
            pass
    build_label_index(open_store(paths), paths.labels)
    return LabelIndex.open(paths.labels)
