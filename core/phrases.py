"""Find many phrases in a text at once: one Aho-Corasick automaton (``pyahocorasick``)
over the literal first word of every phrase, then word-boundary, stem and gap checks at
each hit's position.

A :class:`Phrase` is a sequence of :class:`Word` s separated by whitespace.  A word is a
literal, or a stem that also accepts any word characters after it (``foo*``: greedy, as
the regex ``foo\\w*``).  Between two words the text has whitespace, or with ``gap=k`` up to
``k`` other whole words as well (the lazy regex ``(?:\\s+\\S+){0,k}?\\s+``: the match with
the fewest words skipped wins).  Before the first word and after the last one a
:data:`Boundary` may forbid a neighbouring character class (``word``: ``\\w``; ``letter``:
``\\w`` except ``_`` and CJK, so that Chinese text around a Latin word does not hide it).

The match found for a phrase at a given start is the one Python's ``re`` would find for
the equivalent pattern, so :meth:`PhraseMatcher.find_all` gives every start where the
pattern matches, with the match's end; callers pick the leftmost (``re.search``) or the
non-overlapping ones (``re.finditer``, :func:`non_overlapping`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

import ahocorasick

from core.text import is_cjk

Boundary = Literal["none", "word", "letter"]

def is_word_char(ch: str) -> bool:
    """``re``'s ``\\w`` for one character (alphanumeric or underscore)."""
    return ch.isalnum() or ch == "_"


def _blocked(ch: str, boundary: Boundary) -> bool:
    if boundary == "word":
        return is_word_char(ch)
    if boundary == "letter":
        return is_word_char(ch) and ch != "_" and not is_cjk(ch)
    return False


@dataclass(frozen=True)
class Word:
    """One word of a phrase: ``text`` literally, plus any word characters when ``stem``."""

    text: str
    stem: bool = False


@dataclass(frozen=True)
class Phrase:
    """Words separated by whitespace (``gap``: up to that many other words between two
    words; ``run_sep``: one or more whitespace characters instead of exactly one), and the
    character classes that may not touch the phrase's start and end."""

    words: tuple[Word, ...]
    before: Boundary = "none"
    after: Boundary = "none"
    gap: int = 0
    run_sep: bool = False


class PhraseMatcher:
    """Every occurrence of many phrases in one pass (built once, read-only afterwards,
    so it is safe to share between threads and forked processes)."""

    def __init__(self, phrases: Iterable[Phrase]) -> None:
        self.phrases: tuple[Phrase, ...] = tuple(dict.fromkeys(phrases))
        self._automaton = ahocorasick.Automaton(ahocorasick.STORE_ANY, ahocorasick.KEY_STRING)
        by_key: dict[str, list[int]] = {}
        for index, phrase in enumerate(self.phrases):
            if not phrase.words or not phrase.words[0].text:
                raise ValueError(f"phrase without a literal first word: {phrase!r}")
            by_key.setdefault(phrase.words[0].text, []).append(index)
        for key, indexes in by_key.items():
            self._automaton.add_word(key, (len(key), tuple(indexes)))
        if by_key:
            self._automaton.make_automaton()
        self._empty = not by_key

    def find_all(self, text: str) -> dict[Phrase, list[tuple[int, int]]]:
        """``{phrase: [(start, end), ...]}`` for every phrase found, starts ascending."""
        found: dict[Phrase, list[tuple[int, int]]] = {}
        if self._empty or not text:
            return found
        for last, (length, indexes) in self._automaton.iter(text):
            start = last + 1 - length
            for index in indexes:
                phrase = self.phrases[index]
                end = match_at(text, phrase, start)
                if end is not None:
                    found.setdefault(phrase, []).append((start, end))
        for spans in found.values():
            spans.sort()
        return found


def match_at(text: str, phrase: Phrase, start: int) -> int | None:
    """End of ``phrase``'s match starting at ``start`` (the one ``re`` finds first), or ``None``."""
    if start > 0 and _blocked(text[start - 1], phrase.before):
        return None
    return _rest(text, phrase, 0, start)


def _rest(text: str, phrase: Phrase, i: int, pos: int) -> int | None:
    """Match words ``i..`` with word ``i`` at ``pos``; depth first, fewest skipped words first."""
    word = phrase.words[i]
    if not text.startswith(word.text, pos):
        return None
    end = pos + len(word.text)
    if word.stem:
        while end < len(text) and is_word_char(text[end]):
            end += 1
    if i + 1 == len(phrase.words):
        if end < len(text) and _blocked(text[end], phrase.after):
            return None
        return end
    for nxt in _next_starts(text, end, phrase):
        found = _rest(text, phrase, i + 1, nxt)
        if found is not None:
            return found
    return None


def _next_starts(text: str, pos: int, phrase: Phrase) -> Iterator[int]:
    """Where the next word may start after a word ending at ``pos``, in ``re``'s order."""
    n = len(text)
    if pos >= n or not text[pos].isspace():
        return
    if not phrase.run_sep and not phrase.gap:
        yield pos + 1
        return
    skipped = 0
    while True:
        while pos < n and text[pos].isspace():
            pos += 1
        yield pos
        if skipped == phrase.gap or pos >= n:
            return
        while pos < n and not text[pos].isspace():
            pos += 1
        if pos >= n:
            return
        skipped += 1


def non_overlapping(spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The spans ``re.finditer`` would report: leftmost first, each starting at or after
    the previous one's end (``spans`` sorted by start, one per start)."""
    kept: list[tuple[int, int]] = []
    for start, end in spans:
        if not kept or start >= kept[-1][1]:
            kept.append((start, end))
    return kept


def search(text: str, phrase: Phrase) -> tuple[int, int] | None:
    """The leftmost match of ``phrase`` in ``text`` (``re.search``), without an automaton."""
    key = phrase.words[0].text
    start = text.find(key)
    while start >= 0:
        end = match_at(text, phrase, start)
        if end is not None:
            return start, end
        start = text.find(key, start + 1)
    return None
