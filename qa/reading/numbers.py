"""Numbers, units and filters in a question: decimals in each language's notation,
scale words ("3 million", "1,9 млрд"), units normalized to SI, and the comparison or year
filters around them ("over 100 million", "before 1400", "1990年以前", "in the 1990s")."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Literal

from core.text import CJK, CJK_CLASS
from lang import SUPPORTED
from lang import get as language
from qa.reading.words import word_pattern

# --------------------------------------------------------------------------- numbers and filters

FilterOp = Literal[">", ">=", "<", "<=", "=", "year", "decade"]


@dataclass(frozen=True)
class NumberFilter:
    """A comparison parsed from the question: ``value`` is SI-normalized when ``unit``
    says how; ``is_year`` marks "before 1400"-style filters on dates."""

    op: FilterOp
    value: Decimal
    is_year: bool
    unit: str | None
    start: int
    end: int


_SCALES: dict[str, Decimal] = {  # lang/<code>/numbers.py
    word: factor for code in SUPPORTED for word, factor in language(code).numbers.scales.items()}
_SYMBOLS: dict[str, tuple[str, Decimal]] = {
    "m": ("m", Decimal(1)), "cm": ("m", Decimal("0.01")), "km": ("m", Decimal(1000)), "kg": ("kg", Decimal(1)),
    "km2": ("m2", Decimal(10) ** 6), "km²": ("m2", Decimal(10) ** 6)}
"""The SI symbols of the units read (they belong to no language)."""
# unit word -> (SI unit, factor)
_UNITS: dict[str, tuple[str, Decimal]] = {
    **_SYMBOLS, **{word: unit for code in SUPPORTED for word, unit in language(code).numbers.units.items()}}
UNIT_PROPERTY: dict[str, tuple[str, ...]] = {"m": ("P2048", "P3157", "P2043"), "kg": ("P2067",), "m2": ("P2046",)}

# operator words placed before the number; (words, op, is_date_word)
_OPS_BEFORE: Mapping[str, tuple[tuple[tuple[str, ...], FilterOp, bool], ...]] = {
    code: ops for code in SUPPORTED if (ops := language(code).filter_words_before)}  # lang/<code>/numbers.py
# operator words placed after the number (zh/ja, "or more")
_OPS_AFTER: Mapping[str, tuple[tuple[tuple[str, ...], FilterOp, bool], ...]] = {
    code: ops for code in SUPPORTED if (ops := language(code).filter_words_after)}  # lang/<code>/numbers.py
_YEAR_MARKERS = tuple(dict.fromkeys(w for code in SUPPORTED for w in language(code).numbers.year_words))

_NUMBER = re.compile(
    r"(?<![.,\d])" rf"(?<![^\W\d_{CJK_CLASS}])"
    r"(\d{1,3}(?:[ ,.'\u00a0\u202f]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?)(?:(?:'s|s|-х|er)(?![^\W\d_]))?"
)
# "one million", "a million", "eine Million", "один миллион": the number 1 before a scale word
_ONE_SCALE = re.compile(
    r"(?<!\w)(?:" + "|".join(dict.fromkeys(w for code in SUPPORTED for w in language(code).numbers.one_words))
    + r")(?=\s+(?:" + "|".join(dict.fromkeys(w for code in SUPPORTED for w in language(code).numbers.one_scale_words))
    + "))")
_DECADE = re.compile(r"(?<!\d)(\d{3}0)(?:"
                     + "|".join(dict.fromkeys(e for code in SUPPORTED for e in language(code).numbers.decade_endings))
                     + ")")


def parse_decimal(raw: str, lang: str) -> Decimal | None:
    """``"1,9"`` -> 1.9 in comma-decimal languages, ``"100,000"`` -> 100000 in English."""
    s = raw.replace("\u00a0", " ").replace("\u202f", " ").replace("'", "").replace(" ", "")
    comma_decimal = language(lang).numbers.decimal_comma if lang in SUPPORTED else True
    groups = re.fullmatch(r"\d{1,3}([.,])\d{3}(?:\1\d{3})*", s)
    if groups and not (comma_decimal and groups.group(1) == "," and s.count(",") == 1):
        s = s.replace(groups.group(1), "")
    elif "," in s and "." in s:
        s = s.replace(",", "") if s.rfind(".") > s.rfind(",") else s.replace(".", "").replace(",", ".")
    elif "," in s:
        s = s.replace(",", ".") if comma_decimal or not re.fullmatch(r"\d+,\d{3}", s) else s.replace(",", "")
    try:
        return Decimal(s)
    except InvalidOperation:
        return None


def _scale_and_unit(text: str, pos: int) -> tuple[Decimal, str | None, Decimal, int]:
    """Scale word, SI unit and unit factor right after a number at ``pos``."""
    rest = text[pos:pos + 40]
    scale, unit, factor, end = Decimal(1), None, Decimal(1), pos
    m = re.match(rf"\s*({_CJK_SCALES}|[^\W\d_{CJK_CLASS}]+\.?)", rest)
    if m and m.group(1).rstrip(".") in _SCALES:
        scale = _SCALES[m.group(1).rstrip(".")]
        rest, end = rest[m.end():], end + m.end()
    for word in _UNITS_LONGEST_FIRST:
        um = _unit_pattern(word).match(rest)
        if um:
            unit, factor = _UNITS[word]
            end += um.end()
            break
    return scale, unit, factor, end


_UNITS_LONGEST_FIRST = tuple(sorted(_UNITS, key=len, reverse=True))
_CJK_SCALES = "|".join(sorted((w for w in _SCALES if CJK.search(w)), key=len, reverse=True)) or "(?!)"
"""The CJK scale words (百万, 万 …), longest first: CJK text has no word boundary to find them by."""


@lru_cache(maxsize=256)
def _unit_pattern(word: str) -> re.Pattern[str]:
    """A unit word right after a number (compiled once: the ``re`` module's own cache is
    shared with every other pattern of the process and overflows)."""
    return re.compile(r"\s*" + re.escape(word) + (r"(?!\w)" if not CJK.search(word) else ""))


def parse_filters(text: str, lang: str, *, dated: bool = False) -> list[NumberFilter]:
    """Numeric and year filters in normalized ``text`` ("over 100 million", "before 1400",
    "1990年以前", "в 1985 году", "in the 1990s"); with ``dated`` (the question names a date
    property) a bare year is a year filter ("Wurde X 1985 geboren?")."""
    out: list[NumberFilter] = []
    for m in _DECADE.finditer(text):
        out.append(NumberFilter("decade", Decimal(m.group(1)), True, None, m.start(), m.end()))
    numbers = [(m, parse_decimal(m.group(1), lang)) for m in _NUMBER.finditer(text)]
    numbers += [(m, Decimal(1)) for m in _ONE_SCALE.finditer(text)]
    for m, value in sorted(numbers, key=lambda t: t[0].start()):
        if value is None or any(f.start <= m.start() < f.end for f in out):
            continue
        scale, unit, factor, end = _scale_and_unit(text, m.end())
        if m.re is _ONE_SCALE and scale == 1:
            continue
        before = text[max(0, m.start() - 30):m.start()]
        after = text[end:end + 12]
        op, is_date = _operator_after(after, lang)
        if op is None:
            op, is_date = _operator_before(before, lang)
        plain_year = scale == 1 and unit is None and value == value.to_integral() and 100 <= value <= 2100
        year_marked = plain_year and any(after.lstrip().startswith(y) for y in _YEAR_MARKERS)
        if op is None and (year_marked or (dated and plain_year and value >= 1000)):
            op, is_date = "year", True
        if op is None:
            continue
        if is_date and not plain_year:
            continue
        if op == "year" and not (plain_year and (value >= 1000 or year_marked)):
            continue
        is_year = plain_year and (is_date or year_marked) and unit is None
        out.append(NumberFilter(op, value if is_year else value * scale * factor, is_year, unit, m.start(), end))
    return sorted(out, key=lambda f: f.start)


def _operator_before(before: str, lang: str) -> tuple[FilterOp | None, bool]:
    best: tuple[int, FilterOp, bool] | None = None
    for words, op, is_date in (*_OPS_BEFORE.get(lang, ()), *(_OPS_BEFORE["en"] if lang != "en" else ())):
        for w in words:
            m = _operator_pattern(w).search(before)
            if m and (best is None or len(w) > best[0]):
                best = (len(w), op, is_date)
    return (best[1], best[2]) if best else (None, False)


@lru_cache(maxsize=1024)
def _operator_pattern(word: str) -> re.Pattern[str]:
    """Operator word ``word`` at the end of the text before a number (compiled once)."""
    return re.compile(word_pattern(word).pattern + r"\s*(?:the\s+|the\s+year\s+|dem\s+jahr\s+|dem\s+)?$")


def _operator_after(after: str, lang: str) -> tuple[FilterOp | None, bool]:
    stripped = after.lstrip()
    stripped = stripped[1:] if stripped.startswith("年") else stripped
    for words, op, is_date in (*_OPS_AFTER.get(lang, ()), *(_OPS_AFTER["en"] if lang != "en" else ())):
        for w in sorted(words, key=len, reverse=True):
            if stripped.startswith(w):
                return op, is_date
    return None, False
