"""The hand-written multilingual property lexicon: each language's part in its package
(``lang/<code>/lexicon.json``), the properties' answer types in ``assets/property_types.json``.

The lexicon says how people *ask* for a Wikidata property in each language ("who
directed", "regie", "режиссёр", "导演" for P57), which answer type a property yields,
which question words announce which answer type ("how many" -> ``count``), and which
cue words hint at superlative, comparative, counting, ordinal or negated questions, or
at a question about a role ("who played the role of …": a work's cast list does not
answer it).  KG labels are *not* copied here; the candidate generator reads them from the
KG at run time and uses these files on top.

The files: ``assets/property_types.json``, ``{"version": 1, "properties": {"P19":
{"answer_type": "place"}, ...}}``; ``lang/de/lexicon.json``, ``{"phrases": {"P19": ["geboren",
...], ...}, "question_words": {"wer": "person", ...}, "cues": {"superlative": [...], ...}}``
(a language without the file has no phrases).  :meth:`PropertyLexicon.load` merges them into
one lexicon (``version`` 1), which is also the format of a whole lexicon in one file::

    {"version": 1,
     "properties": {"P19": {"answer_type": "place",
                            "phrases": {"en": ["born in", ...], "de": [...], ...}}, ...},
     "question_words": {"en": {"who": "person", "how many": "count", "what": null, ...}, ...},
     "cues": {"superlative": {"en": ["most", ...], ...}, "comparative": {...}, "count": {...}, ...}}

All phrases are lower-case.  What makes a yes/no question is each language's
(``lang/<code>/shape_words.py``: its openers and the marks that may stand anywhere), read
by :func:`qa.reading.words.is_yes_no` for the lexicon and the analysis alike.
"""

from __future__ import annotations

import importlib
import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from core.errors import LexiconError
from core.phrases import Phrase, PhraseMatcher, Word, search
from core.settings import LEXICON_PATH
from core.text import fold_typed, is_cjk, normalize_cue_text, normalize_phrase, tokenize
from lang import MAIN, SUPPORTED
from lang import get as language
from qa.reading.words import YES_NO_ANYWHERE, YES_NO_OPENERS, is_yes_no

DEFAULT_PATH = LEXICON_PATH
"""The lexicon shipped with the project: its language-independent part
(``<project root>/assets/property_types.json``), completed by ``lang/<code>/lexicon.json``."""

LANGUAGES: tuple[str, ...] = MAIN
"""Languages the lexicon covers (every property has phrases in each of them)."""

ANSWER_TYPES: frozenset[str] = frozenset(
    {"person", "place", "date", "number", "organization", "work", "entity", "string"}
)
"""The answer types a property may declare."""

QUESTION_TYPES: frozenset[str] = ANSWER_TYPES | {"count", "boolean"}
"""The types a question word may announce (answer types plus ``count`` and ``boolean``)."""

_SCRIPT_LANGS = frozenset(code for code in SUPPORTED if language(code).script == "cjk")
_MIN_INFLECTED = 4
_ENDINGS: dict[str, re.Pattern[str]] = {
    code: re.compile(ending) for code in SUPPORTED if (ending := language(code).inflection_ending)}
"""Inflectional endings stripped from phrase words before prefix matching (per language)."""
_PID = re.compile(r"P[1-9]\d*")
_WORD_CHAR = re.compile(r"\w")
MAX_GAP = 4
"""How many other words may sit between two words of a phrase in a gapped match."""
def _pid_key(pid: str) -> int:
    return int(pid[1:])


@dataclass(frozen=True)
class Match:
    """One lexicon phrase found in a question: which property, which phrase, where."""

    pid: str
    phrase: str
    start: int
    end: int
    exact: bool = True
    """False when other words sit between the phrase's words ("where was X born")."""

    @property
    def weight(self) -> float:
        """How specific the match is: the phrase's word count, less half a word when gapped."""
        return len(self.phrase.split()) - (0.0 if self.exact else 0.5)


@dataclass(frozen=True, eq=False)
class PropertyLexicon:
    """The parsed lexicon.  Build it with :meth:`load` (or :func:`default_lexicon`).

    Compared and hashed by identity (it is loaded once and shared); the automata and
    reverse-index caches fill lazily and are safe to share between threads because a
    racing fill only computes the same value twice.
    """

    answer_types: dict[str, str]
    phrase_table: dict[str, dict[str, tuple[str, ...]]]
    question_word_table: dict[str, dict[str, str | None]]
    cue_table: dict[str, dict[str, tuple[str, ...]]]
    source: Path | None = None
    _matchers: dict[tuple[str, str], tuple[PhraseMatcher, dict[str, Phrase]]] = field(
        default_factory=dict, repr=False, compare=False
    )
    _found: dict[tuple[str, str, str], dict[Phrase, list[tuple[int, int]]]] = field(
        default_factory=dict, repr=False, compare=False
    )
    _indexes: dict[str, dict[str, tuple[str, ...]]] = field(default_factory=dict, repr=False, compare=False)

    # ------------------------------------------------------------------ loading
    @classmethod
    def load(cls, path: Path | str | None = None) -> PropertyLexicon:
        """Read and validate the lexicon (default: :data:`DEFAULT_PATH`).

        A file without ``question_words`` is the language-independent part (the properties'
        answer types, ``assets/property_types.json``): each supported language's own part,
        ``lang/<code>/lexicon.json`` (:func:`language_lexicon`), completes it; a file with
        them is a whole lexicon.  Raises :class:`LexiconError` naming the file when it is
        missing, not JSON, or not shaped as described in the module docstring.
        """
        file = Path(path) if path is not None else DEFAULT_PATH
        data = _read_json(file)
        if isinstance(data, dict) and "question_words" not in data:
            data = _with_languages(data, file)
        try:
            return cls.from_dict(data, source=file)
        except ValueError as exc:
            raise LexiconError(file, f"malformed property lexicon: {exc}") from exc

    @classmethod
    def from_dict(cls, data: object, source: Path | None = None) -> PropertyLexicon:
        """Validate an already parsed lexicon; raises ``ValueError`` describing the first problem."""
        top = _mapping(data, "top level")
        if top.get("version") != 1:
            raise ValueError(f"unsupported version {top.get('version')!r} (expected 1)")
        answer_types: dict[str, str] = {}
        phrases: dict[str, dict[str, tuple[str, ...]]] = {}
        for pid, entry in _mapping(top.get("properties"), "properties").items():
            if not _PID.fullmatch(pid):
                raise ValueError(f"property key {pid!r} is not a Wikidata property id")
            body = _mapping(entry, pid)
            kind = body.get("answer_type")
            if kind not in ANSWER_TYPES:
                raise ValueError(f"{pid}: answer_type {kind!r} is not one of {sorted(ANSWER_TYPES)}")
            answer_types[pid] = kind
            phrases[pid] = {
                lang: _phrases(items, f"{pid}.phrases.{lang}")
                for lang, items in _mapping(body.get("phrases"), f"{pid}.phrases").items()
            }
        words: dict[str, dict[str, str | None]] = {}
        for lang, table in _mapping(top.get("question_words"), "question_words").items():
            entries = _mapping(table, f"question_words.{lang}")
            for word, kind in entries.items():
                if kind is not None and kind not in QUESTION_TYPES:
                    raise ValueError(f"question_words.{lang}.{word}: type {kind!r} is not allowed")
                if word != normalize_phrase(word):
                    raise ValueError(f"question_words.{lang}: {word!r} is not lower-case/normalized")
            words[lang] = dict(entries)
        cues = {
            kind: {lang: _phrases(items, f"cues.{kind}.{lang}") for lang, items in _mapping(table, kind).items()}
            for kind, table in _mapping(top.get("cues", {}), "cues").items()
        }
        return cls(answer_types, phrases, words, cues, source)

    # ------------------------------------------------------------------ lookups
    def properties(self) -> list[str]:
        """All property ids in the lexicon, in numeric order (P6 before P17)."""
        return sorted(self.answer_types, key=_pid_key)

    def languages(self) -> list[str]:
        """Languages that have phrases for at least one property."""
        langs = {lang for table in self.phrase_table.values() for lang in table}
        return [lang for lang in LANGUAGES if lang in langs] + sorted(langs - set(LANGUAGES))

    def __contains__(self, pid: object) -> bool:
        return pid in self.answer_types

    def phrases(self, pid: str, lang: str) -> list[str]:
        """How people ask for ``pid`` in ``lang``; empty when unknown."""
        return list(self.phrase_table.get(pid, {}).get(lang, ()))

    def all_phrases(self, pid: str) -> dict[str, list[str]]:
        """``{lang: phrases}`` for ``pid``; empty when the property is unknown."""
        return {lang: list(items) for lang, items in self.phrase_table.get(pid, {}).items()}

    def name(self, pid: str, lang: str) -> str | None:
        """A name for ``pid`` in ``lang`` to say it by (a verbalization's fallback when the KG
        has no label in ``lang``): its first phrase that does not open with a question word
        ("столиця", not "яка столиця"); ``None`` when the lexicon has none."""
        openers = [normalize_phrase(w) for w in self.question_word_table.get(lang, {})]
        for phrase in self.phrase_table.get(pid, {}).get(lang, ()):
            text = normalize_phrase(phrase)
            if not any(_opens_with(text, w) for w in openers if w):
                return phrase
        return None

    def answer_type(self, pid: str) -> str | None:
        """The answer type ``pid`` yields (``person``, ``place``, ...), or ``None`` when unknown."""
        return self.answer_types.get(pid)

    def question_words(self, lang: str) -> dict[str, str | None]:
        """``{question word: expected type or None}`` for ``lang`` (empty when not covered)."""
        return dict(self.question_word_table.get(lang, {}))

    def yes_no_openers(self, lang: str) -> list[str]:
        """Words that make a yes/no question in ``lang``: its openers, then its marks that may
        stand anywhere (``lang/<code>/shape_words.py``; empty for a language without them)."""
        return [*YES_NO_OPENERS.get(lang, ()), *YES_NO_ANYWHERE.get(lang, ())]

    def cues(self, kind: str, lang: str) -> list[str]:
        """Cue words of family ``kind`` in ``lang``; empty when not covered."""
        return list(self.cue_table.get(kind, {}).get(lang, ()))

    def _index(self, lang: str) -> dict[str, tuple[str, ...]]:
        index = self._indexes.get(lang)
        if index is None:
            collected: dict[str, list[str]] = {}
            for pid in self.properties():
                for phrase in self.phrase_table[pid].get(lang, ()):
                    collected.setdefault(phrase, []).append(pid)
            index = {phrase: tuple(pids) for phrase, pids in collected.items()}
            self._indexes[lang] = index
        return index

    # ------------------------------------------------------------------ matching
    def find(self, text: str, phrase: str, lang: str, *, open_end: bool = False) -> int:
        """Start offset of ``phrase`` in normalized ``text`` as a whole word (substring for zh/ja), or -1.

        With ``open_end`` (used for property phrases) each word of four letters or more also
        matches its inflected forms (see :func:`_word_pattern`): "столица" finds "столицей".
        """
        found = search(fold_typed(text), self._pattern(phrase, lang, open_end))
        return found[0] if found else -1

    def match_properties(self, question: str, lang: str) -> list[Match]:
        """Every lexicon phrase of ``lang`` found in ``question``, best first.

        A multi-word phrase also matches with up to :data:`MAX_GAP` other words between
        each of its words ("what books did Jane Austen write" finds "what books did write"),
        flagged ``exact=False``.  Order: higher :attr:`Match.weight` (more phrase words,
        exact before gapped at equal length), then longer phrase, then earlier.  A phrase
        is only a hint: several properties share words ("born", "language"), so callers
        score the matches rather than trust the first one.
        """
        text = fold_typed(normalize_phrase(question))
        exact_found, exact_phrases = self._find_all(text, lang, "exact")
        gapped_found, gapped_phrases = self._find_all(text, lang, "gapped")
        matches: list[Match] = []
        for phrase, pids in self._index(lang).items():
            spans = exact_found.get(exact_phrases[phrase])
            exact = spans is not None
            if spans is None and phrase in gapped_phrases:
                spans = gapped_found.get(gapped_phrases[phrase])
            if spans is not None:
                start, end = spans[0]
                matches.extend(Match(pid, phrase, start, end, exact) for pid in pids)
        matches.sort(key=lambda m: (-m.weight, -len(m.phrase), m.start, _pid_key(m.pid)))
        return matches

    def property_words(self, question: str, lang: str) -> frozenset[str]:
        """The words of every lexicon phrase of ``lang`` found in ``question`` (normalized
        tokens): the words some property reading of the question can explain."""
        return frozenset(w for m in self.match_properties(question, lang) for w in tokenize(m.phrase))

    def expected_answer_type(self, question: str, lang: str) -> str | None:
        """The type announced by the question's question word (earliest, then longest), or ``None``.

        Returns ``"boolean"`` for a yes/no question without a typed question word.
        """
        found = self._cue_starts(normalize_phrase(question), lang)
        best: tuple[int, int, str | None] | None = None
        for word, kind in self.question_word_table.get(lang, {}).items():
            start = found.get(word, -1)
            if start >= 0 and (best is None or (start, -len(word)) < (best[0], -best[1])):
                best = (start, len(word), kind)
        if best is not None and best[2] is not None:
            return best[2]
        if self.is_yes_no(question, lang):
            return "boolean"
        return None

    def is_yes_no(self, question: str, lang: str) -> bool:
        """True when ``question`` reads as a yes/no question in ``lang``: what
        :func:`qa.reading.words.is_yes_no` says (the language's own openers and marks, the
        same reading :func:`qa.reading.analysis.analyze` gives)."""
        return is_yes_no(normalize_cue_text(question), lang)

    def find_cues(self, question: str, lang: str) -> dict[str, list[str]]:
        """``{cue kind: cue words found in question}``, only for kinds with a hit."""
        found = self._cue_starts(normalize_phrase(question), lang)
        hits: dict[str, list[str]] = {}
        for kind, table in self.cue_table.items():
            cues = [cue for cue in table.get(lang, ()) if cue in found]
            if cues:
                hits[kind] = cues
        return hits

    def _cue_starts(self, text: str, lang: str) -> dict[str, int]:
        """``{question word, opener or cue: start of its first occurrence}`` in normalized ``text``."""
        found, phrases = self._find_all(fold_typed(text), lang, "find")
        starts: dict[str, int] = {}
        for word, phrase in phrases.items():
            spans = found.get(phrase)
            if spans:
                starts[word] = spans[0][0]
        return starts

    def _find_all(self, text: str, lang: str, kind: str) -> tuple[dict[Phrase, list[tuple[int, int]]],
                                                                   dict[str, Phrase]]:
        """Every phrase of ``kind`` in ``lang`` found in folded ``text`` (one automaton pass,
        remembered for the last few texts), and the phrase table the automaton was built over."""
        matcher, phrases = self._matcher(lang, kind)
        key = (text, lang, kind)
        found = self._found.get(key)
        if found is None:
            found = matcher.find_all(text)
            if len(self._found) >= 256:
                self._found.clear()
            self._found[key] = found
        return found, phrases

    def _matcher(self, lang: str, kind: str) -> tuple[PhraseMatcher, dict[str, Phrase]]:
        """The automaton over the ``kind`` phrases of ``lang``, built on first use: ``exact`` and
        ``gapped`` property phrases (open-ended words), ``find`` for question words and cues
        (whole words)."""
        built = self._matchers.get((lang, kind))
        if built is None:
            if kind == "find":
                words = [*self.question_word_table.get(lang, {}),
                         *(cue for table in self.cue_table.values() for cue in table.get(lang, ()))]
                phrases = {word: self._pattern(word, lang, False) for word in words}
            elif kind == "exact":
                phrases = {phrase: self._pattern(phrase, lang, True) for phrase in self._index(lang)}
            else:
                phrases = {phrase: self._pattern(phrase, lang, True, gapped=True) for phrase in self._index(lang)
                           if " " in phrase and lang not in _SCRIPT_LANGS}
            built = (PhraseMatcher(phrases.values()), phrases)
            self._matchers[(lang, kind)] = built
        return built

    def _pattern(self, phrase: str, lang: str, open_end: bool, gapped: bool = False) -> Phrase:
        """``phrase`` as the automaton matches it: whole words separated by one space (or up to
        :data:`MAX_GAP` other words when ``gapped``), open-ended words with ``open_end``, a
        plain substring in zh/ja."""
        if lang in _SCRIPT_LANGS:
            return Phrase((Word(fold_typed(phrase)),))
        words = tuple(_word_pattern(word, lang) if open_end else Word(word) for word in fold_typed(phrase).split(" "))
        return Phrase(words, before="word" if _WORD_CHAR.match(phrase[0]) else "none",
                      after="word" if _WORD_CHAR.match(phrase[-1]) else "none", gap=MAX_GAP if gapped else 0)


def _word_pattern(word: str, lang: str) -> Word:
    """One phrase word as the automaton matches it, accepting inflected forms too.

    A word of at least :data:`_MIN_INFLECTED` letters accepts any word continuing it
    ("language" finds "languages"); a longer one first loses one inflectional ending
    (see :data:`_ENDINGS`) as long as :data:`_MIN_INFLECTED` letters of stem remain:
    "столица" finds "столицей", "presidente" finds "presidenti", but "haus" never
    finds "hauptstadt".
    """
    if len(word) < _MIN_INFLECTED or not word.isalpha():
        return Word(word)
    ending = _ENDINGS.get(lang)
    stem = ending.sub("", word) if ending is not None else word
    if len(stem) < _MIN_INFLECTED:
        stem = word
    return Word(stem, stem=True)


LANGUAGE_FILE = "lexicon.json"
"""Each language's part of the lexicon, in its package: ``lang/<code>/lexicon.json``."""


def language_file(code: str) -> Path:
    """Where language ``code`` keeps its part of the lexicon (the file may be absent)."""
    return Path(importlib.import_module(f"lang.{code}").__file__ or "").parent / LANGUAGE_FILE


def language_lexicon(code: str) -> dict:
    """Language ``code``'s part of the lexicon, ``{"phrases": {pid: [...]}, "question_words":
    {word: type}, "cues": {kind: [...]}}`` (each key optional; empty for a language without the
    file).  Raises :class:`LexiconError` naming the file when it is not JSON or not an object."""
    file = language_file(code)
    if not file.exists():
        return {}
    data = _read_json(file)
    if not isinstance(data, dict):
        raise LexiconError(file, "malformed property lexicon: expected an object")
    return data


def _with_languages(shared: dict, source: Path) -> dict:
    """The whole lexicon: ``shared`` (version and answer types) with every supported
    language's part (:func:`language_lexicon`) merged in, languages in :data:`lang.SUPPORTED` order."""
    properties = {pid: {**entry, "phrases": {}} if isinstance(entry, dict) else entry
                  for pid, entry in (shared.get("properties") or {}).items()}
    words: dict[str, object] = {}
    cues: dict[str, dict[str, object]] = {}
    for code in SUPPORTED:
        part = language_lexicon(code)
        try:
            for pid, phrases in _mapping(part.get("phrases", {}), "phrases").items():
                if not isinstance(properties.get(pid), dict):
                    raise ValueError(f"phrases for {pid}, which {source.name} does not type")
                properties[pid]["phrases"][code] = phrases
            if "question_words" in part:
                words[code] = part["question_words"]
            for kind, items in _mapping(part.get("cues", {}), "cues").items():
                cues.setdefault(kind, {})[code] = items
        except ValueError as exc:
            raise LexiconError(language_file(code), f"malformed property lexicon: {exc}") from exc
    return {**shared, "properties": properties, "question_words": words, "cues": cues}


def _read_json(file: Path) -> object:
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise LexiconError(file, "property lexicon not found") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise LexiconError(file, f"cannot read property lexicon: {exc}") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise LexiconError(file, f"property lexicon is not valid JSON: {exc}") from exc


@lru_cache(maxsize=4)
def default_lexicon(path: Path = DEFAULT_PATH) -> PropertyLexicon:
    """The lexicon at ``path`` (the shipped one by default), loaded once per process."""
    return PropertyLexicon.load(path)


def _mapping(value: object, where: str) -> dict:
    if not isinstance(value, dict):
        raise ValueError(f"{where}: expected an object, got {type(value).__name__}")
    return value


def _phrases(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) and item for item in value):
        raise ValueError(f"{where}: expected a list of non-empty strings")
    for item in value:
        if item != normalize_phrase(item):
            raise ValueError(f"{where}: {item!r} is not lower-case/normalized")
    return tuple(value)


def _opens_with(text: str, word: str) -> bool:
    """Whether ``text`` starts with ``word``: as a whole word, or with any following character
    in scripts written without spaces (Chinese, Japanese)."""
    if not text.startswith(word):
        return False
    rest = text[len(word):]
    return not rest or rest[0] == " " or is_cjk(word[-1])
