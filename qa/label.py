"""The label stage: name answer entities (and the entities and properties a candidate is
about) in (or near) the user's language, with names people can read.

The quality rule: the ``rdfs:label`` in the user's language (or a related one) first;
then an alias in that language that looks like a name (never a code like ``it``/``fr`` or
an id like ``Q76346``; among several, the one other languages agree with, so that an
epithet loses to the name); else the English label, which the UI marks as a fallback.  Countries, languages
and currencies get CLDR's name in the user's language (Babel), found from the KG's English
label or ISO code.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import cache

from core.errors import KGError
from core.text import fold, is_latin, normalize
from kg.cldr import cldr_name, kind_of
from kg.client import KG, LabelTable, fetch_values
from kg.sparql import RDFS_LABEL, SKOS_ALT, WD, WDT, entity_iri, local_id, prop_iri
from lang import SUPPORTED
from lang import get as language

LABEL_FALLBACKS: dict[str, tuple[str, ...]] = {
    code: chain for code in SUPPORTED if (chain := language(code).label_fallbacks)}
"""A language's written variants a name may come from (``lang/<code>/names.py``); then English,
then the KG's own label (no language tag), never a third language (issue 36: Spanish names
inside French replies)."""


def label_chain(lang: str) -> tuple[str, ...]:
    """Where a name is looked for: ``lang`` (and its variants), English, the untagged label."""
    own = LABEL_FALLBACKS.get(lang, (lang,))
    return (*own, *(c for c in (*LABEL_FALLBACKS["en"], "") if c not in own))


_CODE_LIKE = re.compile(r"^(?:[a-z]{2,3}(?:[-_][a-z0-9]{2,8})*|[QPL]\d+|\d+|[A-Z]{2,3}\d*)$")
P31 = WDT + "P31"


def is_code_like(text: str) -> bool:
    """A 2–3 letter lowercase code (``it``, ``fra``, ``zh-hans``), an id (``Q76346``),
    a bare number or an upper-case code (``USD``): never shown as a name."""
    return bool(_CODE_LIKE.match(text.strip()))


@cache
def _latin_words(text: str) -> frozenset[str]:
    """The folded words of a name in Latin script (others: empty)."""
    return frozenset(w for w in fold(normalize(text)).split() if len(w) > 1) if is_latin(text) else frozenset()


def _shares_word(words: frozenset[str], name: str) -> bool:
    return bool(words & _latin_words(name))


def name_support(alias: str, others: Mapping[str, Iterable[str]]) -> int | None:
    """In how many other languages one of the entity's Latin-script names shares a word with
    the Latin-script ``alias`` (folded); ``None`` for an alias in another script (names do
    not compare reliably across scripts, so such an alias is not judged)."""
    words = _latin_words(alias)
    if not words:
        return None
    return sum(1 for names in others.values() if any(_shares_word(words, name) for name in names))


def best_alias(aliases: Iterable[str], others: Mapping[str, Iterable[str]]) -> str | None:
    """The alias to show among a language's aliases (none of them code-like): the one most
    other languages agree with, so that an epithet (« L'Homme océan ») loses to the name
    (« Victor Hugo »); with no agreement at all (a local name such as « Hambourg »), the first."""
    names = [alias for alias in aliases if not is_code_like(alias)]
    if len(names) < 2:
        return names[0] if names else None
    supports = [name_support(name, others) or 0 for name in names]
    return names[max(range(len(names)), key=lambda i: (supports[i], -i))]


def pick_label(labels: dict[str, list[str]], lang: str) -> tuple[str | None, str | None]:
    """The best label along :func:`label_chain` (``lang``, English, the untagged label; never
    a third language); returns (label, its lang), ``(None, None)`` when it has none.

    ``labels`` may mix labels and aliases (labels first in each list); code-like entries
    are skipped."""
    for code in label_chain(lang):
        for text in labels.get(code, ()):
            if not is_code_like(text):
                return text, code or None
    return None, None


def choose_label(labels: Mapping[str, list[str]], aliases: Mapping[str, list[str]],
                 lang: str) -> tuple[str | None, str | None]:
    """The quality rule: an ``rdfs:label`` along ``lang``'s chain, else the alias in
    ``lang`` itself that looks most like a name (in this KG most non-English names are
    ``skos:altLabel``s), else the English label or alias, else the untagged label; never a
    third language.  Returns (name, its language)."""
    for code in label_chain(lang):
        for text in labels.get(code, ()):
            if not is_code_like(text):
                return text, code
        if code == lang:
            others: dict[str, list[str]] = {}
            for table in (labels, aliases):
                for other, names in table.items():
                    if other != code:
                        others.setdefault(other, []).extend(names)
            alias = best_alias(aliases.get(code, ()), others)
            if alias:
                return alias, code
    return pick_label({code: [*labels.get(code, ()), *aliases.get(code, ())] for code in {*labels, *aliases}}, lang)


# ---------------------------------------------------------------- fetching


def fetch_names(kg: KG, iris: Iterable[str], lang: str, *,
                timeout_s: float | None = None) -> dict[str, tuple[str | None, str | None]]:
    """``{iri: (name, its language)}`` by the quality rule (CLDR for countries, languages
    and currencies).  A KG fault leaves names out (the caller shows the id)."""
    return _names({iri: (iri,) for iri in iris if iri}, kg, lang, timeout_s)


def names_for_ids(kg: KG, ids: Iterable[str], lang: str, *,
                  timeout_s: float | None = None) -> dict[str, tuple[str | None, str | None]]:
    """``{id: (name, its language)}`` for entity (``Q…``) and property (``P…``) ids.  A
    property's labels sit on ``wd:P…`` (Wikidata dumps) or ``wdt:P…`` (some extracts):
    both are read and merged."""
    return _names(_id_nodes(ids), kg, lang, timeout_s)


def names_with_ids(kg: KG, iris: Iterable[str], ids: Iterable[str], lang: str, *, timeout_s: float | None = None
                   ) -> tuple[dict[str, tuple[str | None, str | None]], dict[str, tuple[str | None, str | None]]]:
    """:func:`fetch_names` of ``iris`` and :func:`names_for_ids` of ``ids``, in one read."""
    by_iri = {iri: (iri,) for iri in iris if iri}
    by_id = _id_nodes(ids)
    found = _names({**by_iri, **by_id}, kg, lang, timeout_s)  # IRIs and ids never coincide ("http…", "Q…")
    return ({k: v for k, v in found.items() if k in by_iri}, {k: v for k, v in found.items() if k in by_id})


def _id_nodes(ids: Iterable[str]) -> dict[str, tuple[str, ...]]:
    return {i: (entity_iri(i), *((prop_iri(i),) if i.startswith("P") else ())) for i in ids}


def _names(nodes: Mapping[str, tuple[str, ...]], kg: KG, lang: str,
           timeout_s: float | None) -> dict[str, tuple[str | None, str | None]]:
    """``{key: (name, its language)}``: each key named from the labels and aliases of its
    nodes (merged), by CLDR when its first node is a country, language or currency, else
    by :func:`choose_label`.  A KG fault leaves every name out."""
    iris = sorted({iri for group in nodes.values() for iri in group})
    try:
        found = fetch_values(kg, iris, (RDFS_LABEL, SKOS_ALT, P31), timeout_s=timeout_s)  # one request
    except KGError:
        return {}
    labels: LabelTable = found[RDFS_LABEL]
    aliases: LabelTable = found[SKOS_ALT]
    classes = {iri: {local_id(c) or "" for c in values.get("", ())} for iri, values in found[P31].items()
               if iri.startswith(WD + "Q")}
    out: dict[str, tuple[str | None, str | None]] = {}
    for key in sorted(nodes):
        own: dict[str, list[str]] = {}
        alt: dict[str, list[str]] = {}
        for node in nodes[key]:
            for code, texts in labels.get(node, {}).items():
                own.setdefault(code, []).extend(texts)
            for code, texts in aliases.get(node, {}).items():
                alt.setdefault(code, []).extend(texts)
        kind = kind_of(classes.get(nodes[key][0], ()))
        english = (own.get("en") or [None])[0]
        cldr = cldr_name(english, kind, lang) if (kind and english) else None
        out[key] = (cldr, lang) if cldr else choose_label(own, alt, lang)
    return out
