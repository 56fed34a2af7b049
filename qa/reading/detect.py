"""The detect stage: language detection for short questions.

Three signals, cheapest first:

1. **Script rules** decide every language with its own script: kana -> ``ja``, Han ->
   ``zh``, Hangul -> ``ko``, Arabic -> ``ar``, Devanagari -> ``hi``, Bengali -> ``bn``,
   Armenian -> ``hy``, Ethiopic -> ``am``, Greek, Hebrew, Thai.  Cyrillic: ``ba`` by its
   own letters, ``be`` by ``ў`` or ``і`` beside ``ы``, else letters, question words and
   lingua's ru/uk/be models decide.
2. For Latin script, a **cue table** of question words, function words and letters that
   mark one language (``¿``, ``ß``, ``ã``, ``qu'``, ``wer`` ...).
3. Two statistical detectors restricted to the eight Latin-script languages we support:
   ``lingua`` (n-gram models bundled with the package, loaded lazily once; a process
   that has settled its one question's language may free them, :func:`release_models`) and
   ``langdetect`` (seeded, so results are reproducible).

The scores are added; ties and very weak evidence fall back to English, the most
common language of short questions.  A detector runs only while it can still change
the best language (:func:`language_scores`): the cues settle about one Latin-script
question in ten, cues and langdetect most of the rest, so lingua's models (seconds to
load, holding the interpreter lock) load only for the few close calls; the result is
the one the full sum gives.  Measured by ``benchmarks/language_detection.py``.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Mapping
from functools import cache
from typing import Any

from core.errors import EmptyQuestion, QuestionTooLong
from core.memory import release_free_memory
from core.text import CJK_CLASS, CYRILLIC, fold_typed, script_pattern, valid_unicode
from lang import SEED, SUPPORTED, others
from lang import get as language
from lang.others import OTHER_SCRIPTS, SHARED_WEAK
from qa.reading.lexicon import language_lexicon

SEED_LANGUAGES: tuple[str, ...] = SEED
"""Languages of the seed challenges (QALD-9-plus, QALD-10 task 2, QALD-3) the KG has few names in."""

SUPPORTED_LANGUAGES: tuple[str, ...] = SUPPORTED
"""Languages the chat speaks (UI text, messages, language selector)."""

SCRIPT_LANGUAGES: tuple[str, ...] = tuple(code for code in OTHER_SCRIPTS if code not in SUPPORTED)
"""Languages recognised by their script alone; the chat answers them with English UI text."""
_OWN_SCRIPTS = [(code, language(code).own_scripts) for code in SUPPORTED if language(code).own_scripts]
LANGUAGE_BY_SCRIPT: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (code, script_pattern(*scripts)) for code, scripts in sorted(
        [*_OWN_SCRIPTS, *((code, OTHER_SCRIPTS[code]) for code in SCRIPT_LANGUAGES)],
        key=lambda item: "Han" in item[1]))
"""Scripts that name the question's language on their own (``lang/<code>/``: ``own_scripts``;
:data:`lang.others.OTHER_SCRIPTS`), Han last: Japanese and Korean questions write it too
(their kana or Hangul decide them)."""

DETECTABLE_LANGUAGES: tuple[str, ...] = SUPPORTED_LANGUAGES + SCRIPT_LANGUAGES
LATIN_LANGUAGES: tuple[str, ...] = tuple(code for code in SUPPORTED if language(code).script == "latin")
"""The Latin-script languages, told apart by cue words and letters and the statistical detectors."""
CYRILLIC_LANGUAGES: tuple[str, ...] = tuple(
    code for code in SUPPORTED if language(code).script == "cyrillic" and language(code).cue_words)
"""The Cyrillic-script languages told apart by letters, cue words and lingua (those with cue
words; Bashkir is told by its own letters alone)."""

_UK_LETTERS = re.compile(f"[{language('uk').cue_letters}]")  # lang/<code>/cue_words.py
_RU_LETTERS = re.compile(f"[{language('ru').cue_letters}]")
_BA_LETTERS = re.compile(f"[{language('ba').cue_letters}]")  # Bashkir letters none of ru/uk/be has
_BE_LETTER = re.compile(f"[{language('be').cue_letters}]")
_NOT_BE = re.compile(r"[дт][еёіюя]")  # д, т before a soft vowel: never Belarusian (дзеканне, цеканне)
_BE_CLUSTERS = re.compile(language("be").cue_spelling)  # dzekanne, geminate цц, шч for щ
_BE_WORDS = language("be").cue_words
_UK_WORDS = language("uk").cue_words
_RU_WORDS = language("ru").cue_words

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?", re.UNICODE)

CUE_WORDS: dict[str, frozenset[str]] = {code: language(code).cue_words for code in LATIN_LANGUAGES}
"""Words (lower case, accents kept) that mark one Latin-script language among the others
(``lang/<code>/cue_words.py``): frequent in short questions and rare in the other five."""

# Words shared by two languages still help against the other four.
_SHARED_WEAK = SHARED_WEAK  # lang/others.py
MIN_FOLDED_CUE = 4
"""A cue word typed without its accents is evidence from this many letters (« ou », « que », « nao »
are too many languages' words)."""


def _folded_cues(tables: Mapping[str, frozenset[str]]) -> dict[str, frozenset[str]]:
    """Per language, its accented cue words as typed without their accents (« murio », « donde »
    for « murió », « dónde »), each only where it is no other language's cue word or function
    word, with or without its accents (« como », « esta »: Portuguese as well)."""
    elsewhere: dict[str, set[str]] = {}
    for code, table in tables.items():
        for word in table | language(code).stop_words:
            for form in {word, fold_typed(word)}:
                elsewhere.setdefault(form, set()).add(code)
    return {code: frozenset(bare for word in table if (bare := fold_typed(word)) != word
                            and len(bare) >= MIN_FOLDED_CUE and bare not in _SHARED_WEAK
                            and elsewhere.get(bare, set()) <= {code}) for code, table in tables.items()}


CUE_FOLDED: dict[str, frozenset[str]] = _folded_cues(CUE_WORDS)
"""The cue words of :data:`CUE_WORDS` typed without their accents, where that still marks one
language (a question typed in a hurry, « donde nacio dali », is Spanish, not Portuguese)."""
CUE_LETTERS: dict[str, str] = {
    ch: " ".join(code for code in LATIN_LANGUAGES if ch in language(code).cue_letters)
    for ch in dict.fromkeys("".join(language(code).cue_letters for code in LATIN_LANGUAGES))}
"""Letter -> the Latin-script languages it marks (``lang/<code>/cue_words.py``: ``CUE_LETTERS``)."""
_SPELLINGS: dict[str, re.Pattern[str]] = {
    code: re.compile(spelling, re.IGNORECASE) for code in LATIN_LANGUAGES if (spelling := language(code).cue_spelling)}
"""Spellings that mark a Latin-script language (French and Italian elision)."""

WEIGHTS: Mapping[str, float] = {"lingua": 1.0, "langdetect": 0.5, "cue_word": 0.4, "cue_letter": 0.3, "en_prior": 0.15}

# Languages the chat does not speak: letters and question words that say "this is Polish"
# (rather than forcing the nearest supported language onto it, and answering in that one).
OTHER_LETTERS: dict[str, str] = {
    ch: kept for ch, codes in others.OTHER_LETTERS.items()
    if (kept := " ".join(code for code in codes.split() if code not in SUPPORTED))}
OTHER_WORDS: dict[str, frozenset[str]] = {
    code: table for code, table in others.OTHER_WORDS.items() if code not in SUPPORTED}  # lang/others.py
MIN_OTHER_EVIDENCE = 2


def unsupported_language(text: str, detected: str) -> str | None:
    """The language the chat does not speak that ``text`` is written in, else ``None``:
    a script of its own (Korean, Greek, Hebrew, Thai), or at least
    :data:`MIN_OTHER_EVIDENCE` letters and question words of one such language, more than
    the cue words and letters of ``detected`` (the best supported guess)."""
    if detected not in SUPPORTED:
        return detected
    if detected not in LATIN_LANGUAGES:
        return None
    lower = unicodedata.normalize("NFC", text).lower()
    other: dict[str, float] = {}
    for ch in set(lower):
        for lang in OTHER_LETTERS.get(ch, "").split():
            other[lang] = other.get(lang, 0.0) + 1.0
    for token in _WORD.findall(lower):
        for lang, table in OTHER_WORDS.items():
            if token in table:
                other[lang] = other.get(lang, 0.0) + 1.0
    if not other:
        return None
    best = max(other, key=lambda lang: other[lang])
    cue_words, cue_letters = _cue_scores(text)
    own = cue_words.get(detected, 0.0) + cue_letters.get(detected, 0.0)
    return best if other[best] >= MIN_OTHER_EVIDENCE and other[best] > own else None


def unsupported_args(code: str, lang: str) -> dict[str, str]:
    """The ``unsupported_language`` message's fields: the language's name in ``lang``
    (CLDR), the supported languages by their own names, and its ``code``."""
    from babel import Locale, UnknownLocaleError

    try:
        name = Locale.parse(code).get_display_name(lang if lang in SUPPORTED else "en") or code
    except (ValueError, UnknownLocaleError):
        name = code
    return {"language": name, "supported": ", ".join(language(c).name for c in SUPPORTED), "code": code}


_lock = threading.Lock()
_lingua: dict[tuple[str, ...], Any] = {}


def script_language(text: str) -> str | None:
    """The language a non-Latin script decides on its own, else ``None``."""
    for lang, pattern in LANGUAGE_BY_SCRIPT:
        if pattern.search(text):
            return lang
    if CYRILLIC.search(text):
        return _cyrillic_language(text.lower())
    return None


def _cyrillic_language(lower: str) -> str:
    """ba by its own letters; be by ў or by і next to ы (uk lacks ы, ru lacks і); else
    letters, question words and the Cyrillic lingua models decide among ru, uk and be."""
    if _BA_LETTERS.search(lower):
        return "ba"
    if _BE_LETTER.search(lower) or ("і" in lower and "ы" in lower):
        return "be"
    words = _WORD.findall(lower)
    scores = {
        "uk": min(len(_UK_LETTERS.findall(lower)), 2) + sum(w in _UK_WORDS for w in words),
        "ru": min(len(_RU_LETTERS.findall(lower)), 2) + sum(w in _RU_WORDS for w in words),
        "be": (sum(w in _BE_WORDS for w in words) + len(_BE_CLUSTERS.findall(lower))
               + 0.5 * ("і" in lower and "ы" not in lower and "и" not in lower)
               + 1.0 * ("и" not in lower and "щ" not in lower and "ъ" not in lower)),
    }
    if settled(scores, 1.0):  # lingua's confidences (summing to 1) cannot change the best: no models loaded
        return max(CYRILLIC_LANGUAGES, key=lambda lang: (scores[lang], lang == "ru"))
    for lang, value in _lingua_scores(lower, CYRILLIC_LANGUAGES).items():
        scores[lang] = scores.get(lang, 0.0) + value
    if _NOT_BE.search(lower):  # Belarusian writes дз, ц before soft vowels (дзе, цi): « де помер
        scores["be"] = float("-inf")  # тарас шевченко? » is Ukrainian
    return max(CYRILLIC_LANGUAGES, key=lambda lang: (scores[lang], lang == "ru"))


def _lingua_detector(codes: tuple[str, ...]) -> Any:
    """The lingua detector over ``codes`` (built once per set)."""
    with _lock:
        if codes not in _lingua:
            from lingua import IsoCode639_1, Language, LanguageDetectorBuilder

            langs = [Language.from_iso_code_639_1(IsoCode639_1.from_str(c)) for c in codes]
            _lingua[codes] = LanguageDetectorBuilder.from_languages(*langs).build()
        return _lingua[codes]


def release_models() -> None:
    """Unload lingua's n-gram models (about 240 MB for the Latin-script languages, 70 MB
    for the Cyrillic ones) and give their memory back; the next detection loads them
    again (about a second), with the same results.  For a process that has settled its
    one question's language before loading something large (``kgqa ask``, before the
    cross-encoder)."""
    with _lock:
        detectors = list(_lingua.values())
        _lingua.clear()
    for detector in detectors:
        detector.unload_language_models()
    release_free_memory()


def warm_up(*, lingua: bool = True) -> None:
    """Load the statistical models now: langdetect's profiles and (``lingua``) lingua's
    n-gram models (a detection that needs them otherwise loads them first, ~3 s)."""
    _langdetect_scores("Who is the mayor of Berlin?")
    if lingua:
        load_lingua()


def load_lingua() -> None:
    """Load lingua's n-gram models (Latin and Cyrillic detectors) now: 3-4 s of CPU holding
    the interpreter lock, about 290 MB."""
    _lingua_scores("Who is the mayor of Berlin?")
    _lingua_scores("кто мэр берлина?", CYRILLIC_LANGUAGES)


def _lingua_scores(text: str, codes: tuple[str, ...] = LATIN_LANGUAGES) -> dict[str, float]:
    values = _lingua_detector(codes).compute_language_confidence_values(text)
    return {v.language.iso_code_639_1.name.lower(): float(v.value) for v in values}


def _langdetect_scores(text: str) -> dict[str, float]:
    from langdetect import DetectorFactory, detect_langs
    from langdetect.lang_detect_exception import LangDetectException

    from qa.reading import profiles

    profiles.ready()
    DetectorFactory.seed = 0
    try:
        guesses = detect_langs(text)
    except LangDetectException:
        return {}
    return {g.lang: float(g.prob) for g in guesses if g.lang in LATIN_LANGUAGES}


PHRASE_CUE = 1.5
"""A word that only one Latin-script language's lexicon names a property with ("wife",
« Geburtsort »), in a question with no cue word at all (a bare noun phrase, "einstein wife",
whose names the detectors read as German): it counts as this many cue words."""
MIN_PHRASE_CUE = 4


@cache
def phrase_cues() -> dict[str, frozenset[str]]:
    """Each Latin-script language's one-word property phrases (``lang/<code>/lexicon.json``) of
    at least :data:`MIN_PHRASE_CUE` letters that no other of them has as a phrase or a
    function word."""
    own = {code: {w for phrases in (language_lexicon(code).get("phrases") or {}).values() for p in phrases
                  if len(found := _WORD.findall(p.lower())) == 1 and len(w := found[0]) >= MIN_PHRASE_CUE}
           for code in LATIN_LANGUAGES}
    out = {}
    for code, words in own.items():
        others = set().union(*(own[o] | language(o).stop_words for o in LATIN_LANGUAGES if o != code))
        out[code] = frozenset(words - others)
    return out


def _cue_scores(text: str) -> tuple[dict[str, float], dict[str, float]]:
    lower = text.lower()
    words: dict[str, float] = dict.fromkeys(LATIN_LANGUAGES, 0.0)
    tokens = [token.replace("’", "'") for token in _WORD.findall(lower)]
    for token in tokens:
        for lang, table in CUE_WORDS.items():
            if token in table or token in CUE_FOLDED[lang]:
                words[lang] += 1.0
        for lang in _SHARED_WEAK.get(token, ()):
            words[lang] += 0.3
    if not any(words.values()):
        for lang, table in phrase_cues().items():
            words[lang] += PHRASE_CUE * sum(token in table for token in tokens)
    for lang, spelling in _SPELLINGS.items():
        if spelling.search(lower):
            words[lang] += 1.0
    letters: dict[str, float] = dict.fromkeys(LATIN_LANGUAGES, 0.0)
    for ch in set(lower):
        for lang in CUE_LETTERS.get(ch, "").split():
            letters[lang] += 1.0
    return words, letters


def settled(scores: Mapping[str, float], at_most: float) -> bool:
    """Whether evidence still to come, which moves any two languages' scores apart by at
    most ``at_most``, cannot change the best of ``scores`` (its lead is larger)."""
    best, second = sorted(scores.values(), reverse=True)[:2]
    return best - second > at_most + 1e-9


def language_scores(text: str, *, complete: bool = False) -> dict[str, float]:
    """Combined evidence for each Latin-script language (higher is more likely).

    Cheapest first, and only as far as the best language can still change: a detector's
    confidences lie in [0, 1] (lingua's sum to 1), so lingua moves two languages apart by
    at most ``WEIGHTS["lingua"]`` and langdetect by at most ``WEIGHTS["langdetect"]``.
    When the cue words and letters already lead by more than both, neither detector runs;
    when they and langdetect lead by more than lingua could move, lingua's n-gram models
    (about 3 s to load) are not needed: the best language is the one the full sum gives
    (``complete``: every signal, always)."""
    cue_words, cue_letters = _cue_scores(text)
    scores = {lang: (WEIGHTS["cue_word"] * min(cue_words[lang], 4.0)
                     + WEIGHTS["cue_letter"] * min(cue_letters[lang], 2.0)) for lang in LATIN_LANGUAGES}
    scores["en"] += WEIGHTS["en_prior"]
    if not complete and settled(scores, WEIGHTS["lingua"] + WEIGHTS["langdetect"]):
        return scores
    for lang, value in _langdetect_scores(text).items():
        scores[lang] += WEIGHTS["langdetect"] * value
    if not complete and settled(scores, WEIGHTS["lingua"]):
        return scores
    for lang, value in _lingua_scores(text).items():
        scores[lang] = scores.get(lang, 0.0) + WEIGHTS["lingua"] * value
    return scores


def detect_language(text: str) -> str:
    """Best guess among :data:`DETECTABLE_LANGUAGES` (``en`` when there is no evidence)."""
    text = unicodedata.normalize("NFC", text or "")
    by_script = script_language(text)
    if by_script:
        return by_script
    if sum(len(w) for w in _WORD.findall(text)) < 3:
        return "en"
    scores = language_scores(without_names(text))
    return max(LATIN_LANGUAGES, key=lambda lang: (scores[lang], lang == "en"))


_INNER_WORD = re.compile(r"(?<=\S\s)[^\W\d_][\w’'-]*")
MIN_LETTERS_WITHOUT_NAMES = 5


def without_names(text: str) -> str:
    """``text`` without its capitalized words after the first (names, and German nouns),
    when at least :data:`MIN_LETTERS_WITHOUT_NAMES` letters of other words remain: a name
    says little about the language it is asked in ("Was Albert Einstein born in Ulm?" read
    German by both detectors, "Was … born in?" English), the words around it say more."""
    rest = _INNER_WORD.sub(lambda m: " " if m.group(0)[0].isupper() else m.group(0), text)
    return rest if sum(len(w) for w in _WORD.findall(rest)) >= MIN_LETTERS_WITHOUT_NAMES else text

# --------------------------------------------------------------------------- question limits



_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]")


def input_language(raw: str, fallback: str) -> str:
    """The language to answer input that :func:`clean_question` refused in: the language
    of its visible characters (English for one the chat does not speak), else
    ``fallback`` (e.g. the language the UI speaks) when nothing is visible."""
    visible = "".join(ch for ch in raw[:300] if unicodedata.category(ch)[0] != "C").strip()
    if not visible:
        return fallback
    lang = detect_language(visible)
    return lang if lang in SUPPORTED_LANGUAGES else "en"


def clean_question(text: str | None, max_chars: int) -> str:
    """NFC-normalize, drop control/format characters and collapse whitespace.

    Raises :class:`EmptyQuestion` or :class:`QuestionTooLong`.
    """
    raw = valid_unicode(text)
    if len(raw) > max_chars:
        raise QuestionTooLong(len(raw), max_chars)
    cleaned = _CONTROL.sub(" ", unicodedata.normalize("NFC", raw))
    cleaned = re.sub(r"\s+", " ", cleaned).strip()
    if not cleaned:
        raise EmptyQuestion("question is empty")
    return cleaned


# --------------------------------------------------------------------------- chat preambles

_GREETINGS = tuple(dict.fromkeys(g for code in SUPPORTED for g in language(code).courtesies.greetings))
_REQUESTS = tuple(dict.fromkeys(r for code in SUPPORTED for r in language(code).courtesies.requests))
"""Greetings and requests before a question, in every language (``lang/<code>/courtesies.py``)."""


def _alternation(phrases: tuple[str, ...]) -> str:
    return "|".join(re.escape(p).replace("'", "['’]") for p in sorted(phrases, key=len, reverse=True))


# a greeting only before punctuation ("Hey Jude" is a song), a request before a word boundary
# (or right away in CJK); either followed by optional punctuation and space
_PREAMBLE = re.compile(
    rf"^(?:(?:{_alternation(_GREETINGS)})\s*[,!.:;！，。、]+|(?:{_alternation(_REQUESTS)})(?:(?<=[^\W\d_])(?=\W)|"
    rf"(?<=[{CJK_CLASS}])))\s*[,!.:;！，。、]*\s*",
    re.IGNORECASE)


_PLEASE = tuple(dict.fromkeys(p for code in SUPPORTED for p in language(code).courtesies.please))
_THANKS = tuple(dict.fromkeys(t for code in SUPPORTED for t in language(code).courtesies.thanks))
# a request that closes what it asks for (Japanese « …の出生地を教えてください »)
_REQUEST_AFTER = "|".join(
    f"(?:{after})" for code in SUPPORTED if (after := language(code).courtesies.request_after)) or "(?!)"
# ", please?" keeps its question mark; thanks only after the question's own end ("…? Thanks!")
_CLOSING = re.compile(
    rf"\s*,\s*(?:{_alternation(_PLEASE)})\s*(?P<end>[?？!！.。]*)\s*$"
    rf"|(?<=[?？!！.。])\s*(?:{_alternation(_THANKS)})\s*[!！.。]*\s*$"
    rf"|(?:{_REQUEST_AFTER})\s*[?？!！.。]*\s*$",
    re.IGNORECASE)


def strip_courtesies(question: str) -> str:
    """``question`` without the courtesies around it, in any supported language: greetings
    followed by punctuation ("Hi!", « Hallo, ») and requests ("Can you tell me", "please",
    « Sag mir », « Скажите », « 请问 », and the imperatives « Nenne mir », « Gib mir »,
    « Donnez-moi », « Dammi », « Назовите ») before it, any number of them; ", please", thanks
    and a Japanese request after it ("…, bitte?", "…? Thanks!", « …を教えてください »).  People
    type them to a chat; the validator learned from benchmark questions that have none
    ("Please tell me: Where was Albert Einstein born?" was not answered).  Nothing is removed
    when nothing would be left."""
    rest = question
    while (match := _PREAMBLE.match(rest)) and match.end() > 0:
        rest = rest[match.end():]
    while (closing := _CLOSING.sub(lambda m: m.group("end") or "", rest, count=1)) != rest:
        rest = closing
    return rest if rest.strip(" ?？!.") else question
