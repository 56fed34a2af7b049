"""CLDR's names (Babel) of countries, languages and currencies, found from an entity's
English label (or a currency's ISO code) and its ``P31`` classes.

The KG names most countries only in English ("France" has no German or Ukrainian label
here), while CLDR has every country, language and currency in every language the chat
speaks.  The label index adds these names (:func:`kg.labels.build_label_index`), and the
label stage shows them (:mod:`qa.label`)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from babel import Locale, UnknownLocaleError

from core.text import fold, name_keys
from lang import SUPPORTED

COUNTRY_CLASSES = frozenset({"Q6256", "Q3624078", "Q7275", "Q3024240", "Q1763527", "Q15634554"})
LANGUAGE_CLASSES = frozenset({"Q34770", "Q1288568", "Q33742", "Q20162172", "Q33384", "Q315"})
CURRENCY_CLASSES = frozenset({"Q8142", "Q747381"})
NAME_LANGUAGES: tuple[str, ...] = SUPPORTED
"""The languages the label index adds CLDR names in: the chat's (:data:`lang.SUPPORTED`)."""
_EN_ALIASES = {"united states of america": "US", "people's republic of china": "CN", "russian federation": "RU",
               "kingdom of the netherlands": "NL", "czech republic": "CZ", "republic of ireland": "IE",
               "state of palestine": "PS", "united kingdom of great britain and northern ireland": "GB"}


@cache
def _english_index(kind: str) -> dict[str, str]:
    """English CLDR display name (folded) -> code, for territories, languages or currencies."""
    en = Locale("en")
    table = {"territory": en.territories, "language": en.languages, "currency": en.currencies}[kind]
    index = {fold(str(name).lower()): code for code, name in table.items()}
    if kind == "territory":
        index.update(_EN_ALIASES)
    if kind == "language":
        index.update({fold(f"{name} language".lower()): code for code, name in table.items()})
    return index


@cache
def _locale(lang: str) -> Locale | None:
    try:
        return Locale.parse(lang.replace("-", "_"))
    except (ValueError, UnknownLocaleError):
        return None


def cldr_code(english: str, kind: str) -> str | None:
    """The CLDR code of the territory / language / currency whose English name (or, for a
    currency, ISO code) is ``english``."""
    text = english.strip()
    if kind == "currency" and re.fullmatch(r"[A-Z]{3}", text):
        return text
    return _english_index(kind).get(fold(text.lower()))


def cldr_name(english: str, kind: str, lang: str) -> str | None:
    """CLDR's name in ``lang`` of the territory / language / currency whose English name
    (or ISO code) is ``english``; ``None`` if CLDR does not know it."""
    code = cldr_code(english, kind)
    return code_name(code, kind, lang) if code else None


def code_name(code: str, kind: str, lang: str) -> str | None:
    """CLDR's name in ``lang`` of the territory / language / currency with CLDR code ``code``."""
    loc = _locale(lang)
    if loc is None:
        return None
    table = {"territory": loc.territories, "language": loc.languages, "currency": loc.currencies}[kind]
    name = table.get(code)
    return str(name) if name else None


def kind_of(classes: Iterable[str]) -> str | None:
    """``territory``/``language``/``currency`` for an entity of these classes (Q-ids), else ``None``."""
    found = set(classes)
    if found & COUNTRY_CLASSES:
        return "territory"
    if found & LANGUAGE_CLASSES:
        return "language"
    if found & CURRENCY_CLASSES:
        return "currency"
    return None


@cache
def _written_names(lang: str) -> dict[str, str]:
    """Normalized and folded key -> CLDR's name as written, for every territory, language
    and currency name CLDR has in ``lang``."""
    loc = _locale(lang)
    if loc is None:
        return {}
    out: dict[str, str] = {}
    for table in (loc.currencies, loc.languages, loc.territories):  # a country wins a shared name
        for name in table.values():
            for key in name_keys(str(name)):
                out[key] = str(name)
    return out


@cache
def territory_names(lang: str) -> tuple[str, ...]:
    """CLDR's names of the countries and territories in ``lang``, one word each, as written
    (« Irlanda », « México »): what a country's adjective in ``lang`` is read against
    (:func:`country_of_adjective`)."""
    loc = _locale(lang)
    if loc is None:
        return ()
    return tuple(sorted({str(name) for code, name in loc.territories.items()
                         if code.isalpha() and " " not in str(name) and "-" not in str(name)}))


@cache
def _other_names(lang: str) -> frozenset[str]:
    """CLDR's names in ``lang`` of languages and currencies, folded: a word that names a
    language (« italiano », « français ») is no country's adjective."""
    loc = _locale(lang)
    if loc is None:
        return frozenset()
    return frozenset(fold(str(name).lower()) for table in (loc.languages, loc.currencies) for name in table.values())


DEMONYM_MIN_STEM = 4
"""The fewest letters an adjective keeps once its ending is cut (« cub(ana) » is too short to tell)."""
DEMONYM_TAIL = 3
"""The most letters a country's name carries beyond the adjective's stem (« méxic|o »,
« mexic|que », « franc|ia »)."""


def country_of_adjective(word: str, endings: Iterable[str], lang: str) -> str | None:
    """CLDR's name in ``lang`` of the one country whose name begins with ``word`` less one of
    its adjective ``endings`` (« irlandesa » -> « Irlanda », « mexicana » -> « México »,
    « irlandaise » -> « Irlande »), the closest when several do and no other as close; ``None``
    when none does, or ``word`` is itself the name of a country, a language or a currency
(« italiano »: the language)."""
    folded = fold(word.lower())
    names = {fold(n.lower()): n for n in territory_names(lang)}
    if folded in names or folded in _other_names(lang):
        return None
    found: dict[str, int] = {}
    for ending in endings:
        if not folded.endswith(fold(ending)):
            continue
        stem = folded[: len(folded) - len(fold(ending))]
        if len(stem) < DEMONYM_MIN_STEM:
            continue
        for key, name in names.items():
            if key.startswith(stem) and len(key) - len(stem) <= DEMONYM_TAIL:
                found[name] = min(found.get(name, 99), len(key) - len(stem))
    if not found:
        return None
    best = min(found.values())
    closest = [name for name, tail in found.items() if tail == best]
    return closest[0] if len(closest) == 1 else None


def written_name(key: str, lang: str) -> str | None:
    """CLDR's name in ``lang`` whose normalized (or folded) form is ``key`` ("dänemark" ->
    "Dänemark"), as the label index's CLDR names are keyed; ``None`` if none is."""
    return _written_names(lang).get(key)


@cache
def _english_names(lang: str) -> dict[str, str]:
    """Normalized (and folded) key of each CLDR name in ``lang`` -> CLDR's English name of
    the same territory, language or currency."""
    loc, en = _locale(lang), Locale("en")
    if loc is None:
        return {}
    out: dict[str, str] = {}
    for table, english in ((loc.currencies, en.currencies), (loc.languages, en.languages),
                           (loc.territories, en.territories)):  # a country wins a shared name
        for code, name in table.items():
            if code in english:
                for key in name_keys(str(name)):
                    out[key] = str(english[code])
    return out


def cldr_english(key: str, lang: str) -> str | None:
    """CLDR's English name of the country, language or currency whose name in ``lang``
    normalizes to ``key`` (« island » in German: "Iceland"); ``None`` if none does (or
    the name is English already)."""
    english = _english_names(lang).get(key) if lang != "en" else None
    return english if english is not None and name_keys(english)[0] != key else None


CITY_CLASSES = frozenset({"Q515", "Q1549591", "Q1637706", "Q5119", "Q200250", "Q7930989", "Q1093829", "Q51929311"})
"""Classes of the cities CLDR may name: city, big city, million city, capital, metropolis,
city or town, US city, largest city of its country."""


@cache
def _cities() -> dict[str, str]:
    """English name of each city CLDR names a time zone after -> the zone (``Europe/Rome``)."""
    import zoneinfo

    english = _locale("en")
    given = english.time_zones if english is not None else {}
    out: dict[str, str] = {}
    for zone in sorted(zoneinfo.available_timezones()):
        if "/" not in zone or zone.startswith(("Etc/", "SystemV/", "US/")):
            continue
        name = given.get(zone, {}).get("city") or zone.rsplit("/", 1)[1].replace("_", " ")
        out.setdefault(name, zone)
    return out


def city_name(english: str | None, classes: Iterable[str], lang: str) -> str | None:
    """CLDR's name in ``lang`` of a city one of whose ``P31`` classes is a city class and whose
    English label is the English name of a city CLDR names a time zone after (« Roma »,
    « Київ »); ``None`` for anything else."""
    if not english or not CITY_CLASSES & set(classes):
        return None
    zone = _cities().get(english)
    loc = _locale(lang)
    if zone is None or loc is None:
        return None
    return loc.time_zones.get(zone, {}).get("city") or english
