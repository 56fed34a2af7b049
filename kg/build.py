"""One entry point to build everything derived from a KG source: the store and,
beside it, the label index used for entity linking.

Corrupt caches are detected when they are opened and rebuilt once: a store the engine
cannot open (RocksDB reports ``Corruption``, as a foreign ``RuntimeError``) or a label
index SQLite finds damaged (``PRAGMA quick_check``).  What still fails after a rebuild is
a :class:`~core.errors.KGSourceError` naming the file (``kgqa`` exits 2 with it).

The whole-file check of the label index runs once per version of the file, not once per
start: a stamp beside it (:data:`CHECKED_FILE`: size, inode, modification and change
times of the file found whole) lets the next process skip it (it cost 0.3-0.6 s of CPU
per start); any write to the file changes the stamp and the file is checked again."""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import threading
from pathlib import Path

import pyoxigraph

from core.errors import KGSourceError, LabelIndexOutdated
from kg.labels import DB_NAME, LabelIndex, build_label_index
from kg.store import KGPaths, build_store, open_store

log = logging.getLogger(__name__)
_VERIFIED: set[Path] = set()
"""Label indexes checked whole (``quick_check``) in this process: once is enough."""
_LOCK = threading.Lock()
CHECKED_FILE = "labels.checked"
"""Beside the label index: the stamp (:func:`_file_stamp`) of the file last found whole."""


def _build_label_index(store: pyoxigraph.Store, paths: KGPaths) -> None:
    build_label_index(store, paths.labels)


def build_kg(source: Path, cache_dir: Path, *, progress: bool = True) -> KGPaths:
    """Build (or reuse) the store and label index for ``source``; a corrupt store or
    index is rebuilt (once).  Raises :class:`KGSourceError` naming the file."""
    paths = build_store(Path(source), Path(cache_dir), progress=progress, after_load=_build_label_index)
    try:
        verify_store(paths)
    except KGSourceError as exc:
        log.warning("%s: rebuilding the store", exc)
        shutil.rmtree(paths.root, ignore_errors=True)
        paths = build_store(Path(source), Path(cache_dir), progress=progress, after_load=_build_label_index)
        verify_store(paths)
    open_or_build(paths)  # a store built without (or before) the current label index gets one
    return paths


def open_built_store(paths: KGPaths) -> pyoxigraph.Store:
    """:func:`kg.store.open_store`, with the engine's own error for a damaged store (a
    ``RuntimeError`` saying ``Corruption: ...``) translated to :class:`KGSourceError`."""
    try:
        return open_store(paths)
    except RuntimeError as exc:
        raise KGSourceError(paths.store, f"corrupt store: {' '.join(str(exc).split())[:300]}") from exc


def verify_store(paths: KGPaths) -> None:
    """Open the built store and read one triple; raises :class:`KGSourceError` when it is damaged."""
    store = open_built_store(paths)
    try:
        next(iter(store.quads_for_pattern(None, None, None)), None)
    except (RuntimeError, OSError) as exc:
        raise KGSourceError(paths.store, f"corrupt store: {' '.join(str(exc).split())[:300]}") from exc
    finally:
        del store


def ensure_label_index(source: Path, cache_dir: Path) -> LabelIndex:
    """Open the label index of the KG built from ``source``, building what is missing.

    Builds the store and index when nothing is built; builds only the index when a store
    exists without one (or with one from an older version, or a corrupt one).  Raises
    :class:`KGSourceError` naming the file on a missing/corrupt source or index.
    """
    return open_or_build(build_kg(Path(source), Path(cache_dir), progress=False))


def open_or_build(paths: KGPaths) -> LabelIndex:
    """Open the label index beside a built store, (re)building it when missing, outdated or
    corrupt (checked whole once per process)."""
    if (paths.labels / DB_NAME).is_file():
        try:
            return _checked(LabelIndex.open(paths.labels))
        except LabelIndexOutdated:
            pass
        except KGSourceError as exc:
            log.warning("%s: rebuilding the label index", exc)
    build_label_index(open_built_store(paths), paths.labels)
    return _checked(LabelIndex.open(paths.labels))


def _checked(index: LabelIndex) -> LabelIndex:
    key = index.path.resolve()
    with _LOCK:
        if key in _VERIFIED:
            return index
    stamp_file = index.path.with_name(CHECKED_FILE)
    stamp = _file_stamp(key)
    try:
        known = stamp_file.read_text(encoding="utf-8")
    except OSError:
        known = ""
    if stamp is None or known != stamp:
        index.verify()
        if stamp is not None:
            _write_stamp(stamp_file, stamp)
    with _LOCK:
        _VERIFIED.add(key)
    return index


def _file_stamp(path: Path) -> str | None:
    """Size, inode, modification and change times (ns) of ``path``: any write changes it."""
    try:
        st = path.stat()
    except OSError:
        return None
    return f"{st.st_size} {st.st_ino} {st.st_mtime_ns} {st.st_ctime_ns}"


def _write_stamp(stamp_file: Path, stamp: str) -> None:
    """Note ``stamp`` as checked (atomically; a read-only cache is checked on every start)."""
    part = stamp_file.with_name(f"{stamp_file.name}.{os.getpid()}.part")
    try:
        part.write_text(stamp, encoding="utf-8")
        os.replace(part, stamp_file)
    except OSError:
        with contextlib.suppress(OSError):
            part.unlink()
