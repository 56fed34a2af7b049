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

import json
import re
import unicodedata
from collections.abc import Iterable, Mapping
from functools import cache

from core.errors import KGError
from core.settings import ASSETS_DIR
from core.text import NAME_PARTS, fold, is_cjk, is_latin, normalize, script_share, sound_similarity
from kg.cldr import city_name, cldr_name, kind_of
from kg.client import KG, LabelTable, fetch_values
from kg.sparql import RDFS_LABEL, SKOS_ALT, WD, WDT, entity_iri, local_id, prop_iri
from lang import SUPPORTED
from lang import get as language

LABEL_FALLBACKS: dict[str, tuple[str, ...]] = {
    code: chain for code in SUPPORTED if (chain := language(code).label_fallbacks)}
"""A language's written variants a name may come from (``lang/<code>/names.py``); then English,
then the KG's own label (no language tag), never a third language (issue 36: Spanish names
inside French replies)."""


def _script(lang: str) -> str:
    """The script ``lang`` is written in (``lang/<code>/``: ``script``; Latin for a language
    the chat does not speak)."""
    return language(lang).script if lang in SUPPORTED else "latin"


def label_chain(lang: str) -> tuple[str, ...]:
    """Where a name is looked for: ``lang`` (and its variants), English, the untagged label."""
    own = LABEL_FALLBACKS.get(lang, (lang,))
    return (*own, *(c for c in (*LABEL_FALLBACKS["en"], "") if c not in own))


_CODE_LIKE = re.compile(r"^(?:[a-z]{2,3}(?:[-_][a-z0-9]{2,8})*|[QPL]\d+|\d+|[A-Z]{2,3}\d*)$")
P31 = WDT + "P31"
PERSON = "Q5"
"""The class of people (``wd:Q5``): a person's whole name is its given and family names; a
place's or a thing's is the one without a word for its kind ("New York", not "New York City")."""


def is_code_like(text: str) -> bool:
    """A 2–3 letter lowercase code (``it``, ``fra``, ``zh-hans``), an id (``Q76346``),
    a bare number or an upper-case code (``USD``): never shown as a name."""
    return bool(_CODE_LIKE.match(text.strip()))


_ABBREVIATED = re.compile(r"(?:^|[\s.\-])(?:\w{1,3}\.(?=\s*\w)|\w-(?=\w))|\.\s*$")
"""A word cut short with a dot (« С.Петербург », « St. Petersburg », « D. F. ») or a lone letter
before a hyphen (« С-Петербург »)."""
MATCH = 0.8
"""How alike (:func:`name_similarity`) two names must be to be the same name, said or written
in another script (« Нур-Султан » and "Nur-Sultan": 1.0; « Женева » and "Geneva": 0.83)."""


@cache
def sound_form(text: str) -> str:
    """A name as plain Latin letters and digits, whatever its script (``anyascii``: Cyrillic,
    Greek, Han as pinyin, kana …), lower-case, without spaces or punctuation."""
    from anyascii import anyascii

    return re.sub(r"[^a-z0-9]", "", anyascii(fold(normalize(text))).lower())


def name_similarity(a: str, b: str) -> float:
    """How alike two names are, in [0, 1]: the better of their spelling's (Indel) and their
    sound's (:func:`core.text.sound_similarity`) similarity, on their :func:`sound_form`."""
    from rapidfuzz.distance import Indel

    x, y = sound_form(a), sound_form(b)
    return max(Indel.normalized_similarity(x, y), sound_similarity(x, y)) if x and y else 0.0


def is_abbreviation(name: str) -> bool:
    """An abbreviation: a short all-capitals word (« СПб », « GE », « DDR »), or a name with a
    word cut to its first letter (« С.Петербург », « St. Petersburg »)."""
    letters = [ch for ch in name if ch.isalpha()]
    capitals = sum(1 for ch in letters if ch.isupper())
    if letters and capitals >= 2 and len(letters) <= 5 and " " not in name.strip():
        return True
    return bool(_ABBREVIATED.search(name.strip()))


def _words(name: str) -> frozenset[str]:
    return frozenset(fold(normalize(name)).split())


def is_full_name(name: str, lang_spaced: bool = False) -> bool:
    """Whether ``name`` reads as a whole name: not an abbreviation, not a catalogue form
    (« Толстой, Лев »), no qualifier in brackets (« Москва (город) »), and, in a language
    written without spaces (``lang_spaced``: Chinese, Japanese), no space where its names
    have a middle dot (« ドナルド トランプ »)."""
    if is_abbreviation(name) or "," in name or "，" in name or "(" in name:
        return False
    return not (lang_spaced and " " in name.strip())


def _marks(name: str, letters: str) -> int:
    """How many of ``name``'s letters carry a diacritic (of ``letters`` only, when given)."""
    return sum(1 for ch in name.lower() if fold(ch) != ch and (not letters or ch in letters))


def _foreign(name: str, letters: str) -> bool:
    """Whether ``name`` has a letter its language does not write: a diacritic not among
    ``letters`` or, for a language written in another script, a letter of that script
    outside its alphabet (``letters``)."""
    if not letters:
        return False
    latin = is_latin(letters)
    return any(ch not in letters and (fold(ch) != ch or unicodedata.combining(ch) or (ch.isalpha() and not latin
                                                                                    and not is_latin(ch)))
               for ch in unicodedata.normalize("NFC", name.lower()))


RELATED = 0.5
"""How alike (:func:`name_similarity`) a language's own name must be to the label to be the
same name in its own form (« Ginebra » ~ "Geneva": 0.71), not another name of the thing
(« Léopoldville » for Kinshasa, "Rey del Pop" for Michael Jackson)."""
CLOSE = 0.9
"""How alike (:func:`name_similarity`) two names must be to be the same spelling of a name
(« Zurich » and « Zürich », not « Zuerich »; « Mumbai », not « Mumbay »)."""


def spelling_similarity(a: str, b: str) -> float:
    """How alike two names are spelled, in [0, 1] (Indel, on their :func:`sound_form`)."""
    from rapidfuzz.distance import Indel

    x, y = sound_form(a), sound_form(b)
    return Indel.normalized_similarity(x, y) if x and y else 0.0


def name_support(alias: str, others: Mapping[str, Iterable[str]], *, close: float | None = None) -> int:
    """In how many other languages one of the entity's names is the same name as ``alias``
    (:func:`name_similarity` at least :data:`MATCH`), or, with ``close``, spelled alike
    (:func:`spelling_similarity` at least ``close``)."""
    if close is None:
        return sum(1 for names in others.values() if any(name_similarity(alias, name) >= MATCH for name in names))
    return sum(1 for names in others.values() if any(spelling_similarity(alias, name) >= close for name in names))


def label_likeness(alias: str, labels: Iterable[str]) -> float:
    """How alike ``alias`` is to the entity's most alike label in another language: the label
    is the name Wikidata's editors chose, and an alias that says it in the user's language is
    the name people use."""
    return max((name_similarity(alias, label) for label in labels), default=0.0)


def in_own_script(name: str, lang: str) -> bool:
    """Whether ``name`` is written mostly in ``lang``'s script (Cyrillic for Russian, Han or
    kana for Chinese and Japanese, Latin for the rest)."""
    return script_share(name, _script(lang)) >= 0.5


def best_alias(aliases: Iterable[str], others: Mapping[str, Iterable[str]],
               labels: Mapping[str, Iterable[str]] | None = None, lang: str = "", *,
               person: bool | None = None) -> str | None:
    """The alias to show among a language's aliases, by one stated rule: the first of these
    that tells two aliases apart decides (``person``: whether the entity is a person, when known).

    1. written in the language's own script (« Гамбург », not "Hamburg", in Russian);
    2. a whole name (:func:`is_full_name`): no abbreviation (« СПб », « С.Петербург »), no
       catalogue form or bracketed qualifier; not clipped: not without the article it is
       written with (« Caire » of « Le Caire »), not a Chinese given name without its surname
       (« 中山 » of « 孙中山 »); in a language that declines names, not a case form (« Праге »);
       for a place or thing, not the name with a word for its kind after it ("New York
       City", « 北京市 »); in Chinese, in simplified characters (« 毛泽东 », not « 毛澤東 »);
    3. nothing foreign to the language: no diacritic it does not write (French "Zurich", not
       « Zürich »), no other language's article ("The Hague" in Spanish), no spelling it never
       writes (``Language.foreign_spelling``: Spanish "Kyoto", "Christophorus");
    4. not a copy without the diacritics, where the spelling with them is the language's own
       or at least as common (« Genève », not "Geneve"; but "Tokyo", not « Tôkyô »);
    5. not a one-off spelling: one no other language writes loses to a close one that the
       language's other names use or most languages write (« Istanbul », not « Istanboul »;
       "Beijing", not "Bejing");
    6. not a copy of an English name (label or alias) where a name of the language's own that
       other languages use exists and is no expansion of it (Spanish « Ginebra », not
       "Geneva"; but French « Victor Hugo » stays before « Victor Marie Hugo »); a name with
       the language's diacritics is no copy unless it is the English label with accents;
    7. the same name, by sound or transliteration (:data:`MATCH`), as the entity's label in
       another language (« Нур-Султан » ~ "Nur-Sultan", « Санкт-Петербург » ~ "Saint
       Petersburg"): a nickname, a slang word or a title (« Питер », « 习主席 ») is not;
       among these, the language's own adaptation (its diacritics, written by no other
       language: « Mijaíl Gorbachov », not "Mikhail Gorbachov");
    8. in a language written in Latin letters, one like the label or written by another
       language (« La Haye », not the inhabitants' « Haguenois »);
    9. the spelling the language's other names keep using (:func:`_kin`: « 普京 », not « 普丁 »);
    10. the more alike that label, to a tenth (French "Rome" before « Roma », but « Гамбург »
        and « Хамбург » alike); among names like no label, first the one other languages
        write letter for letter once transliterated (« Пекин » ~ "Pekin", « 孙中山 » ~ "Sun
        Zhongshan"), then the more alike;
    11. the one the most other languages spell alike (:data:`CLOSE`), then write exactly;
    12. the first (the KG's order)."""
    names = [alias for alias in dict.fromkeys(aliases) if not is_code_like(alias)]
    if len(names) < 2:
        return names[0] if names else None
    keys = _alias_keys(names, others, labels or {}, lang, person)
    return names[max(range(len(names)), key=lambda i: keys[i])]


def _alias_keys(names: list[str], others: Mapping[str, Iterable[str]], labels: Mapping[str, Iterable[str]],
                lang: str, person: bool | None = None) -> list[tuple[object, ...]]:
    """:func:`best_alias`'s sort key of each name (the greatest wins)."""
    label_texts = [text for texts in labels.values() for text in texts]
    english = {text for code in LABEL_FALLBACKS["en"] for table in (labels, others) for text in table.get(code, ())
               if is_latin(text)}
    if lang in LABEL_FALLBACKS["en"] or _script(lang) != "latin":
        english = set()  # a name in another script is never a copy of an English one
    letters = language(lang).name_letters if lang in SUPPORTED else ""
    script = [in_own_script(name, lang) for name in names]
    full = [is_full_name(name, _script(lang) == "cjk") for name in names]
    simplified = [lang != "zh" or _simplified(name) for name in names]
    articles = language(lang).name_articles if lang in SUPPORTED else ()
    spelling = re.compile(language(lang).foreign_spelling, re.IGNORECASE) if lang in SUPPORTED and \
        language(lang).foreign_spelling else None
    foreign = [_foreign(name, letters) or _bare(name, _ARTICLES) != _bare(name, articles)
               or bool(spelling and spelling.search(name)) for name in names]
    marks = [_marks(name, "") for name in names]
    accents = lang in SUPPORTED and language(lang).stress_accents
    written = [sum(1 for texts in others.values() if name in texts) for name in names]
    stripped = [any(fold(other.lower()) == fold(name.lower()) and marks[j] > marks[i] and not foreign[j]
                    and (accents or written[j] == 0 or written[j] >= written[i])
                    for j, other in enumerate(names)) for i, name in enumerate(names)]
    latin_languages = sum(1 for texts in others.values() if any(is_latin(text) for text in texts))
    base = [(script[i], full[i], simplified[i], not foreign[i]) for i in range(len(names))]
    variant = [written[i] == 0 and not _marks(names[i], letters) and any(
        j != i and written[j] > 0 and not stripped[j] and all(a >= b for a, b in zip(base[j], base[i], strict=True))
        and spelling_similarity(names[i], names[j]) >= CLOSE
        and _attested(names[j], names[i], names)
        + (2 * written[j] >= latin_languages and _dropped(names[i], names[j])) > 0
        for j in range(len(names))) for i in range(len(names))]
    clipped = [any(j != i and (_bare(other, articles).casefold() == name.casefold() != other.casefold()
                               or _surnamed(other, name)) for j, other in enumerate(names))
               for i, name in enumerate(names)]
    label_texts = [*label_texts, *(_bare(text, _ARTICLES) for text in label_texts)]
    likeness = [label_likeness(_bare(name, articles), label_texts) for name in names]
    support = [name_support(name, others, close=CLOSE) for name in names]
    admissible = [name for i, name in enumerate(names) if full[i] and simplified[i] and not foreign[i]]
    kin = [_kin(names[i], admissible) for i in range(len(names))]
    echo = [sum(1 for texts in others.values()
                if any(is_latin(text) and sound_form(text) == sound_form(name) for text in texts)) for name in names]
    folded = {fold(text.casefold()) for code in LABEL_FALLBACKS["en"] for text in labels.get(code, ())}
    english = {name for name in english  # « Léonard de Vinci » is French (but « Tôkyô » is "Tokyo" with accents)
               if not _marks(name, letters) or fold(name.casefold()) in folded}
    non_english = {code: texts for code, texts in others.items() if code not in LABEL_FALLBACKS["en"]}
    own = [full[j] and not foreign[j] and not stripped[j] and not variant[j] and names[j] not in english
           and (likeness[j] >= MATCH or likeness[j] >= RELATED and name_support(names[j], non_english) > 0)
           for j in range(len(names))]
    ours = [own[j] and (_marks(names[j], letters) > 0 or sum(own) == 1) for j in range(len(names))]
    copy = [name in english and any(
        ours[j] and not _words(names[j]) >= _words(name) for j in range(len(names))) for name in names]
    inflected = _inflected(names, echo, lang)
    qualified = [person is False and any(j != i and _qualifies(name, other) for j, other in enumerate(names))
                 for i, name in enumerate(names)]
    adapted = [likeness[i] >= MATCH and written[i] == 0 and _script(lang) == "latin"
               and _marks(names[i], letters) > 0 for i in range(len(names))]
    attested = [_script(lang) != "latin" or likeness[i] >= MATCH or support[i] > 0 for i in range(len(names))]
    return [(script[i],  # 1
             full[i], not clipped[i], not inflected[i], not qualified[i], simplified[i],  # 2
             not foreign[i], not stripped[i], not variant[i], not copy[i],  # 3-6
             likeness[i] >= MATCH, adapted[i], attested[i], kin[i],  # 7-9
             round(likeness[i], 1) if likeness[i] >= MATCH else 0, echo[i], likeness[i],  # 10
             support[i], written[i], -i)  # 11, 12
            for i in range(len(names))]


def _kin(name: str, names: list[str]) -> int:
    """How many of the language's other names (``names``) share a word with ``name`` (folded,
    three letters or more; in Chinese and Japanese, a part of it between middle dots, inside
    them): the spelling the language keeps using (« Istanbul » in « İstanbul », « 普京 » in
    « 弗拉基米尔·弗拉基米罗维奇·普京 »), not a one-off variant (« Istanboul », « 普丁 »)."""
    if _KANA.search(name):  # a name in kana: its parts as whole words (« コロン » is no part of « コロンブス »)
        parts = {part for part in NAME_PARTS.split(name.strip()) if len(part) >= 2}
        return len({sound_form(other) for other in names if parts & set(NAME_PARTS.split(other.strip()))}
                   - {sound_form(name)})
    if is_cjk(name.strip()[:1]):
        parts = [part for part in NAME_PARTS.split(name.strip()) if len(part) >= 2]
        return len({sound_form(other) for other in names if any(part in other for part in parts)} - {sound_form(name)})
    words = {w for w in fold(normalize(name)).split() if len(w) >= 3}
    return len({sound_form(other) for other in names if words & set(fold(normalize(other)).split())}
               - {sound_form(name)})


_ARTICLES = tuple(sorted({article for code in SUPPORTED for article in language(code).name_articles}))


def _bare(name: str, articles: Iterable[str]) -> str:
    """``name`` without the article it begins with (« Le Caire » -> « Caire », « L'Aquila »
    -> « Aquila »); ``name`` itself when it begins with none of ``articles``."""
    lowered = name.casefold().replace("’", "'").replace("´", "'")
    for article in articles:
        cut = len(article) if article.endswith("'") else len(article) + 1
        if len(name) > cut and lowered.startswith(article) and (article.endswith("'") or lowered[cut - 1] in " -"):
            return name[cut:].lstrip()
    return name


def _surnamed(name: str, given: str) -> bool:
    """Whether a Chinese name is ``given`` after a one-character surname (« 孙中山 » of
    « 中山 », « 孔仲尼 » of « 仲尼 »): ``given`` alone is a given or courtesy name."""
    return len(given) >= 2 and len(name) == len(given) + 1 and name.endswith(given) and is_cjk(name[0]) \
        and not _KANA.search(name)


_KANA = re.compile(r"[\u3040-\u30ff]")


def _qualifies(name: str, bare: str) -> bool:
    """Whether ``name`` is ``bare`` with a word for its kind after it ("New York City",
    "Tokyo-to", « 北京市 », « イスタンブール市 »)."""
    if is_cjk(bare.strip()[:1]):
        return len(bare) >= 2 and name.startswith(bare) and 0 < len(name) - len(bare) <= 2
    return len(name) > len(bare) and name.startswith(bare) and name[len(bare)] in " -(" \
        and len(name[len(bare) + 1:].split()) == 1


def _inflected(names: list[str], echo: list[int], lang: str) -> list[bool]:
    """In a language that declines names (``cased_names``: Russian, Ukrainian), whether a
    one-word name is a case form of another of its names (the same stem, its inflectional
    ending aside) that more other languages write letter for letter: « Праге » and « Праг »
    of « Прага » ("Praga")."""
    spec = language(lang) if lang in SUPPORTED else None
    if spec is None or not spec.cased_names or not spec.inflection_ending:
        return [False] * len(names)
    ending = re.compile(spec.inflection_ending)
    stems = [ending.sub("", name.casefold()) if " " not in name.strip() and "-" not in name else None
             for name in names]
    return [stems[i] is not None and len(stems[i]) >= 3 and any(
        j != i and stems[j] == stems[i] and echo[j] > echo[i] for j in range(len(names))) for i in range(len(names))]


def _dropped(name: str, other: str) -> bool:
    """Whether ``name`` is ``other`` with one letter left out ("Bejing" of "Beijing"): a slip,
    where « Salzbourg » of "Salzburg" is a spelling of its own."""
    x, y = sound_form(name), sound_form(other)
    return len(y) == len(x) + 1 and any(y[:k] + y[k + 1:] == x for k in range(len(y)))


def _attested(name: str, other: str, names: list[str]) -> int:
    """How many more of the language's names use ``name``'s own words (those ``other`` lacks)
    than ``other``'s own words: the spelling the language keeps writing."""
    mine, theirs = _words(name) - _words(other), _words(other) - _words(name)
    rest = [_words(n) for n in names if n not in (name, other)]
    return sum(1 for words in rest if words & mine) - sum(1 for words in rest if words & theirs)


def _simplified(name: str) -> bool:
    """Whether a Chinese name is written in simplified characters (those of GB 2312, mainland
    China's standard set, which has no traditional ones such as 澤 or 爾)."""
    try:
        NAME_PARTS.sub("", name).encode("gb2312")
    except UnicodeEncodeError:
        return False
    return True


@cache
def _latin_words(text: str) -> frozenset[str]:
    """The folded words of a name in Latin script (others: empty)."""
    return frozenset(w for w in fold(normalize(text)).split() if len(w) > 1) if is_latin(text) else frozenset()


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
                 lang: str, *, person: bool | None = None) -> tuple[str | None, str | None]:
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
            alias = best_alias(aliases.get(code, ()), others,
                               {other: texts for other, texts in labels.items() if other != code}, lang,
                               person=person)
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


PROPERTY_NAMES = ASSETS_DIR / "property_names.json"
"""Property names in the chat languages the KG has no label in for them (a lexicon asset)."""


@cache
def _property_names() -> dict[str, dict[str, str]]:
    try:
        table: dict[str, dict[str, str]] = json.loads(PROPERTY_NAMES.read_text(encoding="utf-8"))["properties"]
    except (OSError, ValueError, KeyError):
        return {}
    return table


def property_name(pid: str, lang: str) -> str | None:
    """The name of property ``pid`` in ``lang`` from the property-name lexicon
    (``assets/property_names.json``), ``None`` when it has none."""
    return _property_names().get(pid, {}).get(lang)


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
        person = PERSON in classes.get(nodes[key][0], ()) if key.startswith(("Q", WD)) else None
        out[key] = (cldr, lang) if cldr else choose_label(own, alt, lang, person=person)
        if out[key][1] != lang:  # a city the KG does not name in the user's language: CLDR's name
            city = next((c for name in (*own.get("en", ()), *alt.get("en", ()))
                         if (c := city_name(name, classes.get(nodes[key][0], ()), lang))), None)
            out[key] = (city, lang) if city else out[key]
        if key.startswith("P") and out[key][1] != lang and (lexicon := property_name(key, lang)):
            out[key] = (lexicon, lang)  # a relation named in the user's language, not the English fallback
    return out
