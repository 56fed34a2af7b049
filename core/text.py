"""Text normalization, Unicode scripts and cross-script phonetic keys: the one text module.

Every stage that compares text (label index, linker, lexicon, complex cues) uses these
functions, so a question and a KG label are normalized the same way.
"""

from __future__ import annotations

import array
import re
import sys
import threading
import unicodedata
from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any

import regex
import snowballstemmer
from rapidfuzz.distance import Levenshtein

MIN_PHONETIC = 3  # shortest phonetic key that is indexed or looked up
MAX_PHONETIC_TOKENS = 6

# --------------------------------------------------------------------------- valid Unicode first

REPLACEMENT = "\ufffd"
"""U+FFFD, what a lone surrogate or an invalid byte becomes."""


def valid_unicode(text: str | None) -> str:
    """``text`` as valid Unicode: a surrogate pair becomes its character, a lone surrogate
    (including ``surrogateescape``'s stand-ins for invalid bytes in ``sys.argv``) U+FFFD,
    and NUL characters are dropped (no store, log or parser downstream should see one).
    Every entry point calls this before anything else sees the text."""
    raw = (text or "").replace("\x00", "")
    if raw.isascii():
        return raw
    return raw.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def had_invalid_text(text: str | None) -> bool:
    """True when ``text`` (already through :func:`valid_unicode`) holds U+FFFD: the user
    gets a notice that something in it could not be read."""
    return REPLACEMENT in (text or "")


# --------------------------------------------------------------------------- normalization



class _PunctuationTable(dict[int, str]):
    """``str.translate``'s table: a character of the Basic Multilingual Plane whose Unicode
    category is punctuation, symbol, separator or other becomes a space (the prolonged sound
    mark and the iteration mark stay).  Filled as characters are met, not for all 65,536 at
    import (60 ms of every start); a character left as it is maps to itself."""

    def __missing__(self, cp: int) -> str:
        if cp >= 0x10000:
            raise KeyError(cp)  # translate leaves it as it is
        char = chr(cp)
        out = " " if unicodedata.category(char)[0] in "PSZC" and char not in "\u30fc\u3005" else char
        self[cp] = out
        return out


_PUNCT = _PunctuationTable()
NAME_PARTS = re.compile(r"[\s\u30fb\u00b7\uff65=]+")
_FOLD_EXTRA = str.maketrans({"ø": "o", "ł": "l", "đ": "d", "ð": "d", "æ": "ae", "œ": "oe", "ı": "i",
                             "þ": "th", "ħ": "h", "ŧ": "t"})


@lru_cache(maxsize=200_000)
def normalize(text: str) -> str:
    """NFKC + casefold, punctuation and symbols to spaces, CJK characters spaced apart."""
    s = unicodedata.normalize("NFKC", text).casefold().translate(_PUNCT)
    s = _CJK_CHAR.sub(r" \1 ", s)
    return " ".join(s.split())


@lru_cache(maxsize=200_000)
def fold(text: str) -> str:
    """Strip Latin/Greek/Cyrillic diacritics (and a few letters NFD keeps) from normalized text."""
    decomposed = unicodedata.normalize("NFD", text)
    stripped = "".join(ch for ch in decomposed if not "\u0300" <= ch <= "\u036f")
    return unicodedata.normalize("NFC", stripped).translate(_FOLD_EXTRA)


MIN_STEM = 3


_STEMMING = threading.Lock()  # a Snowball stemmer keeps its word in the instance while stemming (and pymorphy3's)


@cache
def _stemmer(algorithm: str) -> snowballstemmer.Stemmer:
    return snowballstemmer.stemmer(algorithm)


@lru_cache(maxsize=200_000)
def snowball_stem(token: str, algorithm: str) -> str | None:
    """The stem of a normalized token by the Snowball stemmer ``algorithm`` ("russian":
    "франции" and "франция" both give "франц"), ``None`` without an algorithm or when the
    stem is shorter than :data:`MIN_STEM` letters.  Which language has which stemmer is
    its :class:`lang.base.Language`'s (:func:`lang.morphology.stem`)."""
    if not algorithm:
        return None
    stemmer = _stemmer(algorithm)
    with _STEMMING:
        out = stemmer.stemWord(token)
    return out if len(out) >= MIN_STEM else None


@cache
def _analyzer(dictionary: str) -> Any:
    import pymorphy3  # loaded with the first question that needs it (its dictionary is memory-mapped)

    return pymorphy3.MorphAnalyzer(lang=dictionary)


@lru_cache(maxsize=50_000)
def dictionary_forms(token: str, dictionary: str) -> frozenset[str]:
    """The dictionary forms of a normalized token by pymorphy3's ``dictionary`` ("uk":
    "франції" -> {"франція"}), and those forms diacritic-folded; empty without a dictionary
    (:func:`lang.morphology.lemmas`)."""
    if not dictionary:
        return frozenset()
    with _STEMMING:
        forms = {p.normal_form for p in _analyzer(dictionary).parse(token)}
    return frozenset(forms | {fold(f) for f in forms})


def tokenize(text: str) -> list[str]:
    """The normalized tokens of ``text`` (each CJK character is its own token)."""
    return normalize(text).split()


_WORD = re.compile(r"\w+")


_ASIDE = re.compile(r"\s*[(（][^()（）]*[)）]")


def without_asides(text: str) -> str:
    """``text`` without its parenthesized asides ("what is bill walsh (producer)'s
    nationality" reads "what is bill walsh's nationality"), or ``text`` itself when it has
    none or nothing else.  An aside tells which namesake is meant (the linker reads it); a
    reading never says it, and the cross-encoder judged the pair by it (0.02 against 0.95)."""
    bare = _ASIDE.sub("", text)
    return bare if bare.strip(" ?？!.") else text


def without_titles(text: str, titles: Sequence[str]) -> str:
    """``text`` without the honorifics ``titles`` said with a name (« ホーキング博士ってどこで
    生まれたの？ » reads « ホーキングってどこで生まれたの？ »; "Where was Dr. Salk born?" reads
    "Where was Salk born?"), or ``text`` itself when it has none or nothing else.  A
    reading says a person by their name alone, and the cross-encoder judged the pair by
    the title (« ホーキング place of birth ?answer »: 0.001 with « 博士 », 0.998 without).  A
    CJK title goes wherever it stands (it follows the name, unspaced); any other only as a
    whole word before another word, a dot after it allowed."""
    out = text
    for title in titles:
        if is_cjk(title):
            out = out.replace(title, "")
        else:
            out = re.sub(rf"(?<!\w){re.escape(title)}\.?\s+(?=\w)", "", out, flags=re.IGNORECASE)
    return out if out.strip(" ?？!.") else text


def without_description(text: str, noun: str, name: str) -> str:
    """``text`` without the noun typed right before ``name`` that says what it is ("In what
    city did the painter Velázquez pass away?" reads "In what city did the Velázquez pass
    away?"), or ``text`` itself when ``noun`` is not typed there.  A reading says an entity
    by its name alone, and the cross-encoder judged the pair by the noun (« Velázquez
    lugar de fallecimiento ?answer »: 0.002 with « el pintor », 0.99 without)."""
    if not noun or not name:
        return text
    out = re.sub(rf"(?<!\w){re.escape(noun)}\s+(?={re.escape(name)})", "", text, count=1, flags=re.IGNORECASE)
    return out if out.strip(" ?？!.") else text


def as_question(text: str, requests: Sequence[tuple[str, str]]) -> str:
    """``text``, a request for answers, put as the question it stands for, or ``text``
    itself when no request of ``requests`` opens it (its opening words, lower case; the
    question, ``{}`` where the rest goes; the longest opening that matches whole words):
    « Dame todas las películas dirigidas por Christopher Nolan » reads « ¿Cuáles son las
    películas dirigidas por Christopher Nolan? ».  The cross-encoder learned questions, and
    judges the request by its opening (0.004 against 0.98 for the question, paired with
    "?answer director Christopher Nolan")."""
    body = text.strip().lstrip("¿¡").lstrip()
    low = body.casefold()
    for opening, asked in sorted(requests, key=lambda r: -len(r[0])):
        if low.startswith(opening) and len(low) > len(opening) and not low[len(opening)].isalnum():
            rest = body[len(opening):].strip().rstrip(" .!?？")
            if rest:
                return asked.format(rest)
    return text


def borrow_case(question: str, reading: str) -> str:
    """``question``, typed all in lower case, with each word that ``reading`` writes with
    capitals written as the reading writes it ("wo wurde albert einstein geboren?" paired
    with "Albert Einstein Geburtsort" reads "wo wurde Albert Einstein geboren?").  A
    question with any capital is left as typed: its case is the user's."""
    if any(c.isupper() for c in question):
        return question
    cased = {w.casefold(): w for w in _WORD.findall(reading) if not w.islower()}
    if not cased:
        return question
    return _WORD.sub(lambda m: cased.get(m.group(0), m.group(0)), question)


NAME_MIN_LETTERS = 4
"""A word typed with diacritics is written as a name of the reading only when longer than this
(« Qué », « más » are no names)."""


def borrow_accents(question: str, reading: str) -> str:
    """``question`` with each word typed without diacritics ("Osterreich", "Cual") written
    as the word of ``reading`` it folds to ("Österreich"), its first letter's case kept:
    users often leave accents out, and the cross-encoder, which learned from accented
    questions, compared "Osterreich" with "Österreich" as different words (0.10 against
    0.98).  A name typed with diacritics its reading's name has none of is written as the
    reading writes it (« ¿Dónde nació Medvédev? » with « Medvedev lugar de nacimiento »:
    0.0003, as « Medvedev » 0.996)."""
    words = _WORD.findall(reading)
    accented = {fold(w.casefold()): w for w in words if fold(w.casefold()) != w.casefold()}
    plain_names = {w.casefold(): w for w in words if w[:1].isupper() and fold(w.casefold()) == w.casefold()}
    if not accented and not plain_names:
        return question

    def write(match: re.Match[str]) -> str:
        word = match.group(0)
        folded = fold(word.casefold())
        found = (accented.get(folded) if folded == word.casefold()
                 else plain_names.get(folded) if len(word) > NAME_MIN_LETTERS else None)
        if found is None:
            return word
        return (found[0].upper() if word[0].isupper() else found[0].lower()) + found[1:]

    return _WORD.sub(write, question)


def cased_tokens(text: str) -> list[str]:
    """The tokens of ``text`` as :func:`tokenize` splits them, but with their case kept."""
    s = unicodedata.normalize("NFKC", text).translate(_PUNCT)
    return _CJK_CHAR.sub(r" \1 ", s).split()


def is_cjk(token: str) -> bool:
    """True for a token made of CJK characters (Han, kana; one character or more)."""
    return bool(_CJK_ONLY.fullmatch(token))


def join_tokens(tokens: Sequence[str]) -> str:
    """Tokens written back as text: CJK tokens side by side with no space between them
    (:func:`tokenize` spaces each CJK character apart), the others spaced."""
    out = ""
    for token in tokens:
        if out and not (is_cjk(token) and is_cjk(out[-1])):
            out += " "
        out += token
    return out


def name_keys(text: str) -> tuple[str, str]:
    """``(normalized, folded)`` lookup keys of a name."""
    norm = normalize(text)
    return norm, fold(norm)


def normalize_cue_text(text: str) -> str:
    """The text the complex layer finds cue words and numbers in: NFKC, casefold,
    ``ё`` -> ``е``, one space between words (punctuation kept, unlike :func:`normalize`)."""
    s = unicodedata.normalize("NFKC", text).casefold().replace("ё", "е")
    return " ".join(s.split())


_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'"})


def normalize_phrase(text: str) -> str:
    """How the property lexicon stores and matches phrases: lower-case, apostrophes
    unified, whitespace collapsed (no Unicode normalization)."""
    return " ".join(text.translate(_APOSTROPHES).lower().split())


def fold_yo(text: str) -> str:
    """Matching-only folding: Russian "ё" is often typed as "е"."""
    return text.replace("ё", "е")


@lru_cache(maxsize=4096)
def _bare_latin(ch: str) -> str:
    if ch.isascii() or not ch.isalpha():
        return ch
    base = unicodedata.normalize("NFD", ch)[0]
    return base if base.isascii() and base.isalpha() else ch


def fold_typed(text: str) -> str:
    """Matching-only folding of what people type: :func:`fold_yo`, and a Latin letter without
    its diacritics (« murio » for « murió », « ou » for « où »), one character for one, so
    offsets into the text stay true (Cyrillic « й », Han and kana are left alone)."""
    return "".join(_bare_latin(ch) for ch in fold_yo(text))


# --------------------------------------------------------------------------- Unicode scripts
#
# Which script a character is written in comes from Unicode's Script_Extensions property, as
# the ``regex`` module reads it (``\p{scx=Cyrillic}``): no code point ranges are written here.
# A script's characters are its letters, numbers and own marks (the punctuation and marks
# several scripts share, such as 。, ؟ or the combining acute accent, belong to none of them).
# Every stage asks these functions (docs/scripts.md), and the patterns stay ``re`` patterns
# (``regex``'s ``\w`` also matches combining marks, ``re``'s does not): each class is the code
# points of the Basic Multilingual Plane the property gives, written as ranges once per process.

CJK_SCRIPTS: tuple[str, ...] = ("Han", "Hiragana", "Katakana")
"""Scripts written without spaces between words (the tokenizer spaces each character apart)."""


@cache
def _code_points() -> str:
    """Every code point of the Basic Multilingual Plane but the surrogates, in order (the
    plane of every script the product reads; the punctuation table above covers it too)."""
    points = array.array("I", range(0xD800))
    points.extend(range(0xE000, 0x10000))
    return points.tobytes().decode("utf-32-le" if sys.byteorder == "little" else "utf-32-be")


@cache
def _script_runs(name: str) -> tuple[tuple[int, int], ...]:
    """The runs of consecutive code points of script ``name``: its letters and numbers (by
    Script_Extensions: "ー" is both hiragana and katakana) and its own marks (by Script: a
    mark several scripts share, such as the combining acute accent, is none of theirs).  A
    letter Latin text uses too (the modifier apostrophe "ʼ", shared with Cyrillic, Devanagari,
    Bengali and Thai) is Latin's alone: it is no evidence of another script."""
    letters = f"[\\p{{scx={name}}}&&[\\p{{L}}\\p{{N}}]]"
    if name != "Latin":
        letters = f"[{letters}--\\p{{scx=Latin}}]"
    try:
        runs = regex.compile(f"(?:{letters}|[\\p{{sc={name}}}&&\\p{{M}}])+", regex.V1)
    except regex.error as exc:
        raise ValueError(f"unknown script {name!r}: {exc}") from exc
    return tuple((ord(m.group()[0]), ord(m.group()[-1])) for m in runs.finditer(_code_points()))


@cache
def script_class(*scripts: str) -> str:
    """The letters, numbers and marks of ``scripts`` (Unicode script names, "Cyrillic",
    "Han") as the body of an ``re`` character class (``f"[{script_class('Greek')}]"``)."""
    if not scripts:
        raise ValueError("script_class needs at least one script")
    merged: list[list[int]] = []
    for first, last in sorted(run for name in scripts for run in _script_runs(name)):
        if merged and first <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], last)
        else:
            merged.append([first, last])
    return "".join(f"\\u{a:04x}" if a == b else f"\\u{a:04x}-\\u{b:04x}" for a, b in merged)


@cache
def script_pattern(*scripts: str) -> re.Pattern[str]:
    """One character of ``scripts`` (:func:`script_class`), compiled."""
    return re.compile(f"[{script_class(*scripts)}]")


def in_script(ch: str, *scripts: str) -> bool:
    """Whether the character ``ch`` is a letter, number or mark of one of ``scripts``."""
    return bool(script_pattern(*scripts).fullmatch(ch))


CJK_CLASS = script_class(*CJK_SCRIPTS)
"""Han and kana, as a regex class body (:func:`script_class`)."""
CJK = script_pattern(*CJK_SCRIPTS)
_CJK_CHAR = re.compile(f"([{CJK_CLASS}])")
_CJK_ONLY = re.compile(f"[{CJK_CLASS}]+")
CASED_NON_LATIN = script_pattern("Greek", "Cyrillic")
"""Greek and Cyrillic: non-Latin scripts that capitalize names."""
TRANSLITERABLE = script_pattern("Greek", "Cyrillic", "Arabic", "Devanagari", "Katakana")
"""Greek, Cyrillic, Arabic, Devanagari and katakana: scripts a Latin name is transliterated into."""
CYRILLIC = script_pattern("Cyrillic")
LABEL_SCRIPTS: dict[str, tuple[str, ...]] = {
    "cyrillic": ("Cyrillic",), "cjk": CJK_SCRIPTS, "arabic": ("Arabic",), "devanagari": ("Devanagari",),
    "greek": ("Greek",), "hebrew": ("Hebrew",), "hangul": ("Hangul",), "armenian": ("Armenian",),
    "bengali": ("Bengali",), "ethiopic": ("Ethiopic",), "latin": ("Latin",),
}
"""The scripts a label may be written in (label choice), by name (a language's is its
:class:`lang.base.Language`'s ``script``)."""

def script_share(text: str, script: str) -> float:
    """The share of ``text``'s letters written in ``script`` (a :data:`LABEL_SCRIPTS` key)."""
    letters = [ch for ch in text if ch.isalpha()]
    if not letters:
        return 0.0
    pattern = script_pattern(*LABEL_SCRIPTS[script])
    return sum(1 for ch in letters if pattern.match(ch)) / len(letters)


def is_latin(text: str) -> bool:
    """Whether every letter of ``text`` is a Latin one (true without letters)."""
    latin = script_pattern("Latin")
    return all(latin.match(ch) for ch in text if ch.isalpha())


def is_katakana(token: str) -> bool:
    """True for a single katakana character (the tokenizer spaces kana apart)."""
    return len(token) == 1 and bool(script_pattern("Katakana").match(token))


# --------------------------------------------------------------------------- phonetic keys
#
# Names reach the KG mostly in Latin script, while questions name them in Cyrillic, Greek,
# Arabic, Devanagari or katakana ("Льюис Кэрролл", "ليبرون جيمس", "アインシュタイン").  A name is
# transliterated to Latin letters and reduced to a coarse consonant skeleton: vowels (and
# h, y, w, which scripts render as vowels or drop) vanish, and letters that the scripts
# confuse share a class (b p f v; k g q hard-c; s z j sh zh ch ts soft-c; t d; l r).  Equal
# skeletons mark sound-alike names; the linker uses them only for non-Latin question spans.

_CYRILLIC = dict(zip("абвгдеёжзийклмнопрстуфхцчшщъыьэюяіїєґўјђћџ",
                     ["a", "b", "v", "g", "d", "e", "e", "zh", "z", "i", "y", "k", "l", "m", "n", "o", "p", "r",
                      "s", "t", "u", "f", "kh", "ts", "ch", "sh", "shch", "", "y", "", "e", "yu", "ya", "i", "i",
                      "e", "g", "u", "j", "dj", "c", "dz"], strict=True))
_GREEK = dict(zip("αβγδεζηθικλμνξοπρσςτυφχψω",
                  ["a", "v", "g", "d", "e", "z", "i", "th", "i", "k", "l", "m", "n", "x", "o", "p", "r", "s", "s",
                   "t", "y", "f", "ch", "ps", "o"], strict=True))
_ARABIC = {
    "ا": "a", "أ": "a", "إ": "i", "آ": "a", "ب": "b", "ت": "t", "ث": "th", "ج": "j", "ح": "h", "خ": "kh",
    "د": "d", "ذ": "dh", "ر": "r", "ز": "z", "س": "s", "ش": "sh", "ص": "s", "ض": "d", "ط": "t", "ظ": "z",
    "ع": "", "غ": "gh", "ف": "f", "ق": "q", "ك": "k", "ل": "l", "م": "m", "ن": "n", "ه": "h", "و": "u",
    "ي": "i", "ى": "a", "ة": "a", "ء": "", "ئ": "", "ؤ": "", "پ": "p", "چ": "ch", "ژ": "zh", "گ": "g",
    "ک": "k", "ی": "i", "ڤ": "v",
}
_DEVANAGARI = {
    "क": "k", "ख": "kh", "ग": "g", "घ": "gh", "ङ": "n", "च": "ch", "छ": "chh", "ज": "j", "झ": "jh",
    "ञ": "n", "ट": "t", "ठ": "th", "ड": "d", "ढ": "dh", "ण": "n", "त": "t", "थ": "th", "द": "d", "ध": "dh",
    "न": "n", "प": "p", "फ": "ph", "ब": "b", "भ": "bh", "म": "m", "य": "y", "र": "r", "ल": "l", "व": "v",
    "श": "sh", "ष": "sh", "स": "s", "ह": "h", "ं": "n", "ः": "h", "ँ": "", "्": "", "़": "",
    "अ": "a", "आ": "a", "इ": "i", "ई": "i", "उ": "u", "ऊ": "u", "ए": "e", "ऐ": "e", "ओ": "o", "औ": "o",
    "ऋ": "ri", "ा": "a", "ि": "i", "ी": "i", "ु": "u", "ू": "u", "े": "e", "ै": "e", "ो": "o", "ौ": "o",
    "ृ": "ri", "ॉ": "o", "ॅ": "e",
}
_KANA_ROWS = {
    "": "アイウエオ", "k": "カキクケコ", "g": "ガギグゲゴ", "s": "サシスセソ", "z": "ザジズゼゾ", "t": "タチツテト",
    "d": "ダヂヅデド", "n": "ナニヌネノ", "h": "ハヒフヘホ", "b": "バビブベボ", "p": "パピプペポ", "m": "マミムメモ",
    "r": "ラリルレロ", "x": "ァィゥェォ",
}
_KANA = {ch: ("" if c == "x" else c) + v for c, row in _KANA_ROWS.items() for ch, v in zip(row, "aiueo", strict=True)}
_KANA.update({"シ": "shi", "ジ": "ji", "チ": "chi", "ヂ": "ji", "ツ": "tsu", "ヅ": "zu", "フ": "fu", "ヤ": "ya",
              "ユ": "yu", "ヨ": "yo", "ャ": "ya", "ュ": "yu", "ョ": "yo", "ワ": "wa", "ヲ": "o", "ン": "n",
              "ヴ": "vu", "ー": "", "ッ": "", "ヽ": "", "ヾ": "", "ヮ": "wa"})
_KANA_CHAR = f"[{script_class('Hiragana', 'Katakana')}]"
_KANA_GAP = re.compile(f"(?<={_KANA_CHAR}) (?={_KANA_CHAR})")  # tokenize() spaces kana apart
_TRANSLIT = {**_CYRILLIC, **_GREEK, **_ARABIC, **_DEVANAGARI, **_KANA}
_DIGRAPHS = (("shch", "s"), ("sch", "s"), ("tch", "s"), ("dzh", "j"), ("ph", "f"), ("ck", "k"), ("kh", "k"),
             ("gh", "k"), ("th", "t"), ("sh", "s"), ("zh", "s"), ("ts", "s"), ("tz", "s"), ("dj", "j"), ("x", "ks"))
_CLASSES = str.maketrans({"b": "b", "p": "b", "f": "b", "v": "b", "k": "k", "g": "k", "q": "k", "s": "s",
                          "z": "s", "j": "s", "t": "t", "d": "t", "l": "r", "r": "r", "m": "m", "n": "n",
                          "a": None, "e": None, "i": None, "o": None, "u": None, "y": None, "h": None,
                          "'": None})
_VOWEL_CLASSES = str.maketrans({**{chr(c): v for c, v in _CLASSES.items()}, "a": "a", "w": "w"})
_SOFT_C = re.compile(r"c(?=[eiy])")
_LATIN_NAME = re.compile(r"^[a-z' ]+$")
_ASCII_NAME = re.compile(r"[a-z' ]*")


def _kana(ch: str) -> str:
    """Hiragana as katakana (the same sounds)."""
    return chr(ord(ch) + 0x60) if "\u3041" <= ch <= "\u3096" else ch


def transliterate(text: str) -> str | None:
    """Latin letters for a normalized, folded name in Latin, Cyrillic, Greek, Arabic,
    Devanagari or kana script (``None`` for other scripts, e.g. Han characters)."""
    if _ASCII_NAME.fullmatch(text):
        return text  # already Latin letters (most names): what the loop below would give
    out: list[str] = []
    for ch in _KANA_GAP.sub("", unicodedata.normalize("NFC", text)):
        ch = _kana(ch)
        if "a" <= ch <= "z" or ch in " '":
            out.append(ch)
        elif ch in "ャュョ" and out and out[-1].endswith("i") and len(out[-1]) > 1:
            stem = out[-1][:-1]  # "キャ" is "kya", "シュ" is "shu"
            out[-1] = stem + (_TRANSLIT[ch][1:] if stem.endswith(("sh", "ch", "j")) else _TRANSLIT[ch])
        elif ch in _TRANSLIT:
            out.append(_TRANSLIT[ch])
        elif "\u064b" <= ch <= "\u0652" or ch in "\u0640\u3099\u309a":
            continue  # Arabic vowel marks and tatweel, kana voicing marks (already composed)
        else:
            return None
    return "".join(out)


def _skeleton(latin: str, *, w_sound: bool, hard_ch: bool, vowels: bool = False) -> str:
    s = latin.replace(" ", "")
    if vowels:
        s = re.sub(r"[aeiouy]+", "a", s)
    s = s.replace("ch", "k" if hard_ch else "s").replace("ng", "n")
    for digraph, sound in _DIGRAPHS:
        s = s.replace(digraph, sound)
    s = _SOFT_C.sub("s", s).replace("c", "k")
    if not vowels:
        s = s.replace("w", "b" if w_sound else "")
    return _collapse(s.translate(_VOWEL_CLASSES if vowels else _CLASSES))


def latin_form(text: str) -> str:
    """A name in Latin letters (transliterated, lower-case, no spaces; ``""`` when impossible)."""
    return sounds_of(fold(normalize(text)))[1]


def sound_similarity(a: str, b: str) -> float:
    """Similarity in [0, 1] of two :func:`latin_form` names: half from their letter classes
    (vowels kept as one class; "w" as a vowel or as "v", whichever is closer), half from the
    spelling itself (lightly unified)."""
    (sa, spa), (sb, spb) = _forms(a), _forms(b)
    if "w" in sa + sb:
        sound = max(Levenshtein.normalized_similarity(_collapse(sa.replace("w", x)), _collapse(sb.replace("w", x)))
                    for x in ("a", "b"))
    else:
        sound = Levenshtein.normalized_similarity(sa, sb)
    return 0.5 * sound + 0.5 * Levenshtein.normalized_similarity(spa, spb)


@lru_cache(maxsize=100_000)
def _forms(latin: str) -> tuple[str, str]:
    return _skeleton(latin, w_sound=False, hard_ch=False, vowels=True), _spelling(latin)


_SPELLING = str.maketrans({"w": "v", "y": "i", "k": "c", "z": "s", "h": None, "'": None, "j": "i"})


def _spelling(latin: str) -> str:
    return _collapse(latin.replace("ph", "f").translate(_SPELLING))


def _collapse(s: str) -> str:
    return "".join(ch for i, ch in enumerate(s) if i == 0 or s[i - 1] != ch)


def phonetic_keys(text: str) -> set[str]:
    """The consonant skeletons of a name (two or four variants for Latin names with "w"/"ch",
    which other scripts render either way); empty for short or untransliterable names."""
    return sounds_of(fold(normalize(text)))[0]


def sounds_of(folded: str) -> tuple[set[str], str]:
    """``(phonetic_keys(text), latin_form(text))`` of a name from its folded form
    (``fold(normalize(text))``, :func:`name_keys`' second key), transliterated once (the
    label index's build asks both of every name)."""
    latin = transliterate(folded)
    form = latin.replace(" ", "") if latin else ""
    if (latin is None or not folded or len(folded.split()) > MAX_PHONETIC_TOKENS
            or any(map(str.isdigit, folded))):
        return set(), form
    native = bool(_LATIN_NAME.match(folded))
    # a Latin name's "w" and "ch" are each read two ways; without them the variants are one
    w_ways = (False, True) if native and "w" in form else (False,)
    ch_ways = (False, True) if native and "ch" in form else (False,)
    keys = {_skeleton(latin, w_sound=w, hard_ch=c) for w in w_ways for c in ch_ways}
    return {k for k in keys if len(k) >= MIN_PHONETIC}, form


def phonetic_key(text: str) -> str | None:
    """The skeleton of a question span in a non-Latin script, ``None`` when it has none."""
    norm = fold(normalize(text))
    if not norm or _LATIN_NAME.match(norm):
        return None
    latin = transliterate(norm)
    if latin is None:
        return None
    key = _skeleton(latin, w_sound=False, hard_ch=False)
    return key if len(key) >= MIN_PHONETIC else None


