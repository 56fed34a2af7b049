"""langdetect's language profiles, kept as one compact table so they load in milliseconds.

``langdetect`` reads 55 JSON profiles and loops over every n-gram of each (~0.4 s) on its
first detection.  :func:`ready` installs the same factory from a table written once (by the
first detection that finds none, next to the other derived files): a marshal'd dict of every
n-gram to its non-zero probabilities (language indexes and IEEE doubles, exactly as
``DetectorFactory.add_profile`` computed them), decoded per n-gram when a detection first
reads it.  The table records the package's version and its profile files (names in
``os.listdir`` order, which sets the language order, sizes, modification times); any change
rebuilds it.  A missing, stale or unreadable table falls back to langdetect's own loading,
so results never differ.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import threading
from array import array
from pathlib import Path
from typing import Any

TABLE_FILE = "langdetect-profiles.marshal"
_FORMAT = 1
_LOCK = threading.Lock()
_path: Path | None = None


def use_dir(directory: Path | None) -> None:
    """Keep (and look for) the table in ``directory``; ``None``: langdetect loads its own way."""
    global _path
    _path = None if directory is None else Path(directory) / TABLE_FILE


class _Probabilities(dict):
    """``n-gram -> [probability per language]`` as langdetect's detector reads it (``in`` and
    ``[]``), each list decoded from its packed form on first read."""

    __slots__ = ("_size", "_decoded")

    def __init__(self, packed: dict[str, bytes], size: int) -> None:
        super().__init__(packed)
        self._size = size
        self._decoded: dict[str, list[float]] = {}

    def __getitem__(self, word: str) -> list[float]:
        got = self._decoded.get(word)
        if got is None:
            packed = dict.__getitem__(self, word)
            count = len(packed) // 9
            probs = array("d")
            probs.frombytes(packed[count:])
            got = [0.0] * self._size
            for index, prob in zip(packed[:count], probs, strict=True):
                got[index] = prob
            self._decoded[word] = got
        return got


def _stamp(profiles: str) -> list[Any]:
    """The package version and its profile files, in ``os.listdir`` order (as it loads them)."""
    from importlib.metadata import version

    files = []
    for name in os.listdir(profiles):
        st = os.stat(os.path.join(profiles, name))
        files.append((name, st.st_size, st.st_mtime_ns))
    return [_FORMAT, version("langdetect"), files]


def _pack(table: dict[str, list[float]]) -> dict[str, bytes]:
    out = {}
    for word, probs in table.items():
        kept = [(i, p) for i, p in enumerate(probs) if p != 0.0]
        out[word] = bytes(i for i, _ in kept) + array("d", [p for _, p in kept]).tobytes()
    return out


def ready() -> None:
    """Make sure langdetect's factory is loaded: from the table when it is current, else
    langdetect's own way (then the table is written for the next process, if it can be)."""
    from langdetect import detector_factory

    if detector_factory._factory is not None:
        return
    with _LOCK:
        if detector_factory._factory is not None or _path is None:
            return
        try:
            stamp = _stamp(detector_factory.PROFILES_DIRECTORY)
        except OSError:
            return
        factory = _read(_path, stamp)
        if factory is not None:
            detector_factory._factory = factory
            return
        detector_factory.init_factory()
        _write(_path, stamp, detector_factory._factory)


def _read(path: Path, stamp: list[Any]) -> Any:
    from langdetect.detector_factory import DetectorFactory

    try:
        data = marshal.loads(path.read_bytes())
        if data[0] != stamp:
            return None
        langlist, packed = data[1], data[2]
        factory = DetectorFactory()
        factory.langlist = list(langlist)
        factory.word_lang_prob_map = _Probabilities(packed, len(langlist))
        return factory
    except (OSError, EOFError, ValueError, TypeError, IndexError, KeyError):
        return None


def _write(path: Path, stamp: list[Any], factory: Any) -> None:
    """Write the table atomically; a read-only place just keeps langdetect's own loading."""
    part = path.with_name(f"{path.name}.{os.getpid()}.part")
    try:
        payload = marshal.dumps([stamp, list(factory.langlist), _pack(factory.word_lang_prob_map)])
        path.parent.mkdir(parents=True, exist_ok=True)
        part.write_bytes(payload)
        os.replace(part, path)
    except (OSError, ValueError):
        with contextlib.suppress(OSError):
            part.unlink()
