"""The ``read`` stage: a question read once, for the decisions and every backend.

:func:`read` gives a frozen :class:`Reading` of a question in a language: its tokens
(:func:`core.text.tokenize`), which of them are function or question words of the language
(never content a reading must explain), where its cue words are and of which kind
(``ordinal``, ``superlative``, ``comparative``), and whether it asks yes or no.  It is
cached: the pipeline's stage and the local backend read a question once between them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from core.text import fold, is_cjk, normalize_cue_text, tokenize
from lang import SUPPORTED
from lang import get as language
from lang.stopwords import is_stopword_in
from qa.reading.words import (
    DIRECTION_WORDS,
    GRADABLES,
    ORDINAL_FORMS,
    ORDINAL_WORDS,
    SUPERLATIVE_WORDS,
    THAN_WORDS,
    find_words,
    is_yes_no,
    words_for,
)


@dataclass(frozen=True)
class Reading:
    """A question as read in ``lang``: its tokens, the positions of its function words, its
    cue words' positions by kind, and whether it asks yes or no
    (:func:`qa.reading.words.is_yes_no`)."""

    text: str
    lang: str
    tokens: tuple[str, ...]
    function_words: frozenset[int]
    cues: tuple[tuple[int, str], ...]
    yes_no: bool = False


@lru_cache(maxsize=512)
def read(text: str, lang: str) -> Reading:
    """The :class:`Reading` of ``text`` in ``lang`` (cached: a question is read once)."""
    tokens = tuple(tokenize(text))
    return Reading(text, lang, tokens,
                   frozenset(i for i, t in enumerate(tokens) if is_word(t) and function_word(t, lang)),
                   tuple(sorted(cue_positions(text, tokens, lang).items())),
                   is_yes_no(normalize_cue_text(text), lang))


def is_word(token: str) -> bool:
    """A word that may need explaining: letters, not a CJK character (a character is no word)."""
    return token.isalpha() and not any(is_cjk(ch) for ch in token)


def function_word(token: str, lang: str) -> bool:
    """Whether ``token`` (as :func:`core.text.tokenize` gives it) is a function or question
    word of ``lang``: the language's maintained list (:mod:`lang.stopwords`), else the
    product's own lists."""
    if lang in SUPPORTED:
        words = language(lang).stop_words
        if token in words or fold(token) in words:
            return True
    return is_stopword_in(token, lang)


def cue_positions(question: str, tokens: Sequence[str], lang: str) -> dict[int, str]:
    """Token positions of the question's cue words by kind: ``ordinal`` ("second", "40th"),
    ``superlative`` ("largest"), ``comparative`` ("more than")."""
    text = normalize_cue_text(question)
    hits: list[tuple[str, str]] = []
    for kind, table in (("ordinal", ORDINAL_WORDS), ("superlative", SUPERLATIVE_WORDS), ("comparative", THAN_WORDS)):
        hits += [(kind, text[s:e]) for s, e, _ in find_words(text, words_for(table, lang))]
    if not graded(text, lang):  # « in che città », « de qué país »: "than" words that are only function words here
        hits = [(kind, found) for kind, found in hits
                if kind != "comparative" or not all(function_word(w, lang) for w in tokenize(found) if is_word(w))]
    form = ORDINAL_FORMS.get(lang)
    if form is not None:
        hits += [("ordinal", m.group(0)) for m in re.finditer(form, text)]
    out: dict[int, str] = {}
    for kind, found in hits:
        words = [w for w in tokenize(found) if is_word(w)]
        for i in _occurrences(tokens, words):
            out.setdefault(i, kind)
    return out


def graded(text: str, lang: str) -> bool:
    """Whether the (cue-normalized) question has a word of degree: "more", "less", a
    superlative or a gradable word ("older", « più alto »).  Without one, a "than" word that is
    also a function word of the language (Italian « che », « di », Spanish « que ») compares
    nothing."""
    tables = (DIRECTION_WORDS["DESC"], DIRECTION_WORDS["ASC"], SUPERLATIVE_WORDS, *(g.words for g in GRADABLES))
    return any(find_words(text, words_for(table, lang)) for table in tables)


def _occurrences(tokens: Sequence[str], words: Sequence[str]) -> list[int]:
    """Positions of every occurrence of the word sequence ``words`` in ``tokens``."""
    n = len(words)
    if not n:
        return []
    return [j for i in range(len(tokens) - n + 1) if list(tokens[i:i + n]) == list(words) for j in range(i, i + n)]
