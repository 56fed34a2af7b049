"""Function words of every supported language, from a maintained list.

Each ``lang/xx/stop_words.py`` builds its :data:`STOP_WORDS` from the ``stopwords-iso``
collection (PyPI ``stopwordsiso``: per-language lists gathered from many sources and kept
up to date) joined with the words this product always read as function or question words
of that language.  A word of these lists needs no explaining: the coverage decision
(:mod:`qa.decisions`) asks every other word of a question to be accounted for by the
reading it shows."""

from __future__ import annotations

import importlib
import importlib.util
import json
import re
from functools import cache
from pathlib import Path

from core.text import fold, is_cjk
from lang import SUPPORTED


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


# --------------------------------------------------------------------------- the product's own lists
# (moved here from core.text, which imports nothing of the project: each language's list is
# its ``lang/xx/stop_words.py``'s ``OWN``; the linker and the generator read these, exactly as
# before, while coverage reads the fuller :data:`~lang.base.Language.stop_words`)


@cache
def _own_words() -> dict[str, frozenset[str]]:
    """Per language, the product's own function and question words (``OWN`` of its module)."""
    out: dict[str, frozenset[str]] = {}
    for code in SUPPORTED:
        module = importlib.import_module(f"lang.{code}.stop_words")
        out[code] = frozenset(str(module.OWN).split())
    return out


@cache
def _tables() -> tuple[frozenset[str], frozenset[str], dict[str, frozenset[str]]]:
    """(every language's own words, the CJK characters among them, per language its own
    non-CJK words with their folded forms)."""
    own = _own_words()
    cjk = frozenset(w for words in own.values() for w in words if all(is_cjk(ch) for ch in w))
    plain = {code: frozenset(w for w in words if w not in cjk) for code, words in own.items()}
    every = frozenset(w for words in plain.values() for w in words)
    per_lang = {code: words | frozenset(fold(w) for w in words) for code, words in plain.items() if words}
    return every, cjk, per_lang


def is_stopword_as_written(token: str) -> bool:
    """True for a function/question word of any supported language, accents as written."""
    every, cjk, _ = _tables()
    return token in every or token in cjk


def is_stopword(token: str) -> bool:
    """True for a function/question word of any supported language."""
    return is_stopword_as_written(token) or fold(token) in _tables()[0]


def is_stopword_in(token: str, lang: str) -> bool:
    """True for a function/question word of ``lang`` itself (English "die" is none, German
    "die" is); for a language without its own list, the same as :func:`is_stopword`."""
    _, cjk, per_lang = _tables()
    own = per_lang.get(lang)
    if own is None:
        return is_stopword(token)
    return token in own or fold(token) in own or token in cjk


_WORD = re.compile(r"\w+")


def uninformative_case(text: str) -> bool:
    """Whether the capitals of ``text`` say nothing about which words are names: at least
    three words of a script with case, and every one of them written in capitals
    ("WHERE WAS ALBERT EINSTEIN BORN?") or every one capitalized, a function or question
    word among them ("What Is The Capital Of France?").  Capitalized words without one are
    names and nouns, written as they should be ("Albert Einstein Geburtsort", "Barack Obama
    Birthplace").  One-letter words (the "s" of "World's") and digits are not counted; in a
    question of a script without case (CJK, Arabic, Devanagari) the Latin words are names."""
    found = _WORD.findall(text)
    if any(c.isalpha() and not (c.isupper() or c.islower()) for w in found for c in w):
        return False  # a script without case around them: the capitalized words are names
    words = [w for w in found if len(w) > 1 and any(c.isupper() or c.islower() for c in w)]
    if len(words) < 3:
        return False
    if all(w.isupper() for w in words):
        return True
    return all(w[0].isupper() for w in words) and any(is_stopword(w.lower()) for w in words)


def read_case(text: str) -> str:
    """``text`` in lower case when its case is :func:`uninformative_case`, else as written:
    the validator learned from questions written in sentence case or in lower case, and a
    shouted question made it reject right readings ("WHAT IS THE CAPITAL OF JAPAN?" 0.001
    against 0.993 in lower case); the linker's name features read capitals as names."""
    return text.lower() if uninformative_case(text) else text
