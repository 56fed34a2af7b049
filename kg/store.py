"""Build and open the persistent embedded KG store (pyoxigraph).

The store lives in ``<cache>/kg/<name>-<fingerprint>/store``; the fingerprint is a hash
of the source's bytes, so the store is rebuilt only when the content changes (a copied,
moved or touched file keeps its store).  A finished build writes ``meta.json`` last, so a crashed build is
never mistaken for a finished one.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pyoxigraph

from core.errors import KGSourceError

META = "meta.json"


@dataclass(frozen=True)
class KGPaths:
    """Where one built KG lives on disk."""

    root: Path

    @property
    def store(self) -> Path:
        """The pyoxigraph store directory."""
        return self.root / "store"

    @property
    def labels(self) -> Path:
        """The label index directory (built beside the store)."""
        return self.root / "labels"

    @property
    def meta(self) -> Path:
        """The build receipt, written last."""
        return self.root / META

    def is_built(self) -> bool:
        """True when a previous build finished."""
        return self.meta.is_file()


def fingerprint(source: Path) -> str:
    """A short hash of the source's content (about 40 ms for the 21 MB union KG), computed
    once per process for each path, size and modification time.  Raises
    :class:`KGSourceError` when the source cannot be read."""
    try:
        st = source.stat()
        return _content_hash(str(source.resolve()), st.st_size, st.st_mtime_ns)
    except OSError as exc:
        raise KGSourceError(source, f"cannot read: {exc.strerror or exc}") from exc


@lru_cache(maxsize=64)
def _content_hash(path: str, size: int, mtime_ns: int) -> str:
    del mtime_ns  # part of the memo's key only: a rewritten file is hashed again
    digest = hashlib.sha256(f"{size}|".encode())
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()[:12]


def _rdf_format(source: Path) -> pyoxigraph.RdfFormat:
    name = source.name.lower().removesuffix(".gz")
    if name.endswith(".nt"):
        return pyoxigraph.RdfFormat.N_TRIPLES
    if name.endswith(".ttl"):
        return pyoxigraph.RdfFormat.TURTLE
    raise KGSourceError(source, "unknown RDF format (expected .nt, .ttl, optionally .gz)")


def check_source(source: Path) -> Path:
    """Resolve ``source`` or raise :class:`KGSourceError` naming it."""
    if not source.exists():
        raise KGSourceError(source, "no such file")
    if not source.is_file():
        raise KGSourceError(source, "not a regular file")
    _rdf_format(source)
    return source


def kg_paths(source: Path, cache_dir: Path) -> KGPaths:
    """The cache location of the KG built from ``source``."""
    stem = source.name.split(".")[0] or "kg"
    return KGPaths(cache_dir / "kg" / f"{stem}-{fingerprint(source)}")


def _load(store: pyoxigraph.Store, source: Path, progress: bool) -> None:
    from tqdm import tqdm  # only a build shows progress: opening a built store never imports it

    fmt = _rdf_format(source)
    total = source.stat().st_size
    with open(source, "rb") as raw, tqdm(
        total=total, unit="B", unit_scale=True, desc=f"loading {source.name}", disable=not progress
    ) as bar:
        reader = _ProgressReader(raw, bar.update)
        stream = gzip.GzipFile(fileobj=reader) if source.name.endswith(".gz") else reader
        try:
            store.bulk_load(stream, fmt)
        except (SyntaxError, ValueError, OSError, EOFError, zlib.error) as exc:
            raise KGSourceError(source, f"cannot parse: {exc}") from exc


def load_source(store: pyoxigraph.Store, source: Path) -> None:
    """Load one N-Triples/Turtle file (gzipped or not) into ``store`` (benchmarks stack
    several sources in one store)."""
    _load(store, Path(source), progress=False)


class _ProgressReader:
    """A binary file wrapper that reports how many bytes were read."""

    def __init__(self, raw, on_read: Callable[[int], object]) -> None:
        self._raw = raw
        self._on_read = on_read

    def read(self, size: int = -1) -> bytes:
        data = self._raw.read(size)
        self._on_read(len(data))
        return data

    def readinto(self, buffer) -> int:
        n = self._raw.readinto(buffer)
        self._on_read(n or 0)
        return n

    def readable(self) -> bool:
        return True


def build_store(
    source: Path,
    cache_dir: Path,
    *,
    progress: bool = True,
    after_load: Callable[[pyoxigraph.Store, KGPaths], None] | None = None,
) -> KGPaths:
    """Build the store for ``source`` under ``cache_dir`` unless an up-to-date one exists.

    ``after_load`` runs on the fresh store before the build is marked finished (the
    label index is built there).  Raises :class:`KGSourceError` naming the file.
    """
    source = check_source(Path(source))
    paths = kg_paths(source, Path(cache_dir))
    if paths.is_built():
        return paths
    if paths.root.exists():
        shutil.rmtree(paths.root)
    paths.root.mkdir(parents=True)
    started = time.monotonic()
    try:
        store = pyoxigraph.Store(str(paths.store))
        _load(store, source, progress)
        store.optimize()
        if after_load is not None:
            after_load(store, paths)
        store.flush()
        del store
    except BaseException:
        shutil.rmtree(paths.root, ignore_errors=True)
        raise
    receipt = {
        "source": str(source.resolve()),
        "size": source.stat().st_size,
        "mtime_ns": source.stat().st_mtime_ns,
        "seconds": round(time.monotonic() - started, 1),
    }
    paths.meta.write_text(json.dumps(receipt, indent=1))
    return paths


def open_store(paths: KGPaths) -> pyoxigraph.Store:
    """Open a built store read-only (fast: no loading)."""
    if not paths.is_built():
        raise KGSourceError(paths.store, "store is not built; run `kgqa build-kg`")
    try:
        return pyoxigraph.Store.read_only(str(paths.store))
    except OSError as exc:
        raise KGSourceError(paths.store, f"cannot open store: {exc}") from exc
