"""Function words of every supported language, from a maintained list.

Each ``lang/xx/stop_words.py`` builds its :data:`STOP_WORDS` from the ``stopwords-iso``
collection (PyPI ``stopwordsiso``: per-language lists gathered from many sources and kept
up to date) joined with the words this product always read as function or question words
of that language.  A word of these lists needs no explaining: the coverage decision
(:mod:`qa.decisions`) asks every other word of a question to be accounted for by the
reading it shows."""

from __future__ import annotations

import importlib.util
import json
from functools import cache
from pathlib import Path

from core.text import fold


@cache
def _iso_lists() -> dict[str, list[str]]:
    """The whole ``stopwords-iso`` table, read from the installed package's data file.  The
    package is located, not imported: its ``__init__`` needs ``pkg_resources``, which recent
    setuptools no longer ships.  Empty when the package is missing."""
    spec = importlib.util.find_spec("stopwordsiso")
    if spec is None or not spec.submodule_search_locations:
        return {}
    path = Path(next(iter(spec.submodule_search_locations))) / "stopwords-iso.json"
    if not path.is_file():
        return {}
    table: dict[str, list[str]] = json.loads(path.read_text(encoding="utf-8"))
    return table


def iso_stop_words(code: str) -> frozenset[str]:
    """``stopwords-iso``'s function words of ``code``, lower-cased, with their folded forms
    (accents off), as the question's words are compared."""
    words = {w.strip().lower() for w in _iso_lists().get(code, ()) if w.strip()}
    return frozenset(words | {fold(w) for w in words})


def stop_words(code: str, own: str = "") -> frozenset[str]:
    """``code``'s :func:`iso_stop_words` joined with ``own`` (space-separated words this
    product reads as function words of the language), with their folded forms."""
    words = set(own.split())
    return iso_stop_words(code) | frozenset(words | {fold(w) for w in words})
