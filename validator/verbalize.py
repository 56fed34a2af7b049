"""SPARQL -> natural-language representation (seed paper, section 3.1).

Every IRI of the WHERE clause is replaced by its label in the question's language
(falling back to English, then to any label); variables and literal values are kept;
keywords, punctuation and solution modifiers (``DISTINCT``, ``ORDER BY``, ``LIMIT``,
``OFFSET``, ``GROUP BY``) are dropped.  A short answer-form hint is prepended for
``ASK`` and ``COUNT`` queries, and ``not`` marks ``MINUS`` / ``NOT EXISTS`` groups,
because those change the answer while their triples look the same.

``ORDER BY DESC(…)``/``ASC(…)`` with ``LIMIT`` (superlatives) prepend ``max``/``min``, and
comparison operators in filters are kept, for the same reason.  An ``ASK`` that only tests
that one person has none of the death facts (``FILTER NOT EXISTS { wd:X wdt:P570 ?v } …``:
"is X still alive?") is said ``ask X alive``: the validator reads the negated date of
death as its opposite (Einstein: 0.004 against 0.993).

Example: ``SELECT ?x WHERE { wd:Q218 wdt:P36 ?x }`` in ``ru`` -> ``Румыния столица ?x``.

A second reading (:meth:`Verbalizer.readings`) says the properties the KG names in no form
in the question's language by the name a :class:`PropertyNames` table gives them there (the
property lexicon's, e.g. uk ``столиця``) instead of the English fallback: the validator,
trained on no Ukrainian, reads "Франція столиця ?answer" against "Яка столиця Франції?"
as a match and "France capital ?answer" as none, while in the languages it was trained on
the English fallback it learned often scores better; a candidate's score is its best
reading's.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from core.text import fold, join_tokens, name_keys, normalize, script_share
from kg.cldr import written_name
from kg.client import KG
from kg.sparql import RDFS_LABEL, SKOS_ALT, WD, iri_ref
from lang import get as language
from lang import is_supported
from qa.candidate import Link
from qa.reading.words import ALIVE_WORDS, DEAD_WORDS, DEATH_PROPERTIES

VERSION = 2  # bump when the output changes: cached training data is re-verbalized

# Namespaces whose local name is a Wikidata id (entity or property).
WIKIDATA_NAMESPACES: dict[str, str] = {
    "wd": WD,
    "wdt": "http://www.wikidata.org/prop/direct/",
    "p": "http://www.wikidata.org/prop/",
    "ps": "http://www.wikidata.org/prop/statement/",
    "pq": "http://www.wikidata.org/prop/qualifier/",
    "wdno": "http://www.wikidata.org/prop/novalue/",
}
OTHER_NAMESPACES: dict[str, str] = {
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "skos": "http://www.w3.org/2004/02/skos/core#",
    "schema": "http://schema.org/",
}
_ID_TAIL = re.compile(r"([QP][1-9][0-9]*)$")
_TOKEN = re.compile(
    r"""(?P<iri><[^<>"\s{}|^`\\]*>)
      | (?P<lit>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')(?:@[A-Za-z][A-Za-z0-9-]*|\^\^(?:<[^>]*>|[A-Za-z_][\w-]*:[\w-]*))?
      | (?P<var>[?$][A-Za-z_][\w]*)
      | (?P<pname>[A-Za-z_][\w-]*:[A-Za-z0-9_][\w-]*)
      | (?P<num>[+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)
      | (?P<word>[A-Za-z_]+)
      | (?P<sep>[.;,])
      | (?P<op>>=|<=|!=|=|>|<)
      | (?P<other>\S)""",
    re.VERBOSE,
)
_NEGATIONS = {"MINUS", "NOT"}
Labels = dict[str, tuple[list[str], list[str]]]  # lang -> (rdfs:label values, skos:altLabel values)
LINKED_KINDS = ("label", "alias", "folded", "inflected")
"""Link kinds whose matched name was written in the question (not a fuzzy spelling, a last
name alone or a sound-alike): only these may name an entity in a verbalization."""
TYPED_KINDS = (*LINKED_KINDS, "partial")
"""Link kinds an entity may be read by as typed (:func:`typed_names`): a name written in the
question, a last name alone among them when no one else bears it (« как звали жену ельцина »:
« Ельцина супруг(а) » 0.99, « Ельцин, Борис Николаевич супруг(а) » 0.23)."""


SAID_AS_HEARD = 0.82
"""The sound similarity from which a name linked by sound is said as the user wrote it
(:func:`heard_name`; the linker's close sound-alike)."""


class PropertyNames(Protocol):
    """Names of properties by language, for those the KG has no label for
    (implemented by :class:`qa.reading.lexicon.PropertyLexicon`)."""

    def name(self, pid: str, lang: str) -> str | None:
        """A name for ``pid`` in ``lang``, or ``None``."""
        ...


@dataclass(frozen=True)
class Parsed:
    """The parts of a query the verbalization needs."""

    form: str  # select | ask | count
    where: list[tuple[str, str]]  # (kind, text) tokens of the WHERE group
    order: str | None = None  # "max" / "min": ORDER BY DESC / ASC with a LIMIT (superlatives)
    alive: str | None = None  # the person an ASK of absent death facts is about ("is X still alive?")
    dead: str | None = None  # the person an ASK of a death fact is about ("is X dead?")


def choose_label(labels: Labels, lang: str) -> str | None:
    """The label to show in ``lang``: its ``rdfs:label``, else its best alias, else
    English, else any language (aliases written in ``lang``'s script win)."""
    for code in _chain(lang, labels):
        primary, aliases = labels.get(code, ([], []))
        if primary:
            return primary[0]
        best = _best_alias(aliases, code)
        if best:
            return best
    return None


def _chain(lang: str, labels: Labels) -> list[str]:
    base = lang.split("-")[0].lower()
    variants = sorted(c for c in labels if c != base and c.split("-")[0] == base)
    rest = sorted(c for c in labels if c not in (base, "en", *variants))
    return [base, *variants, "en", *rest]


def _best_alias(aliases: Sequence[str], lang: str) -> str | None:
    usable = [a for a in aliases if a.strip()]
    if not usable:
        return None
    code = lang.split("-")[0]
    script = language(code).script if is_supported(code) else "latin"

    def key(item: tuple[int, str]) -> tuple[float, bool, bool, bool, int]:
        index, alias = item
        return (-script_share(alias, script), len(alias) < 3, alias.isupper(), _catalogue_form(alias), index)

    return min(enumerate(usable), key=key)[1]


def _catalogue_form(name: str) -> bool:
    """Whether ``name`` is written as a catalogue writes it, not as people say it: inverted
    (« Ельцин, Борис Николаевич ») or with initials (« Б. Н. Ельцин »).  The validator read
    « Брежнев, Леонид Ильич место смерти » 0.02 for « где умер брежнев », « Брежнев … » 0.99."""
    return "," in name or bool(re.search(r"(?<!\w)\w\.", name))


def parse(sparql: str) -> Parsed:
    """Tokenize ``sparql``; keep the WHERE group's tokens, the answer form and, for
    ``ORDER BY … LIMIT`` queries, whether the top (``max``) or bottom (``min``) is asked."""
    tokens = [(m.lastgroup or "other", m.group(0)) for m in _TOKEN.finditer(_strip_comments(sparql))]
    words = [t.upper() for kind, t in tokens if kind == "word"]
    form = "ask" if "ASK" in words[:3] else "select"
    start = _where_start(tokens)
    head = tokens[:start]
    if any(kind == "word" and t.upper() == "COUNT" for kind, t in head):
        form = "count"
    where, end = _where_group(tokens, start)
    return Parsed(form, where, _order(tokens[end:]), _alive(form, where), _dead(form, where))


_DEATH_IRIS = frozenset(WIKIDATA_NAMESPACES["wdt"] + pid for pid in DEATH_PROPERTIES)
_DATE_OF_DEATH = WIKIDATA_NAMESPACES["wdt"] + DEATH_PROPERTIES[0]


def _alive(form: str, where: list[tuple[str, str]]) -> str | None:
    """The person node of an ``ASK`` whose every pattern is a negated death fact of that
    person, the date of death among them; ``None`` for any other query."""
    if form != "ask":
        return None
    groups: list[list[tuple[str, str]]] = []
    for kind, text in where:
        if kind == "word" and text.upper() == "NOT":
            groups.append([])
        elif kind in ("iri", "pname", "var", "lit", "num"):
            if not groups:
                return None  # a pattern that is not negated
            groups[-1].append((kind, text))
    subjects, predicates = set(), set()
    for group in groups:
        if len(group) != 3 or group[2][0] != "var":
            return None
        subject, predicate = iri_of(*group[0]), iri_of(*group[1])
        if subject is None or not subject.startswith(WD) or predicate not in _DEATH_IRIS:
            return None
        subjects.add(subject)
        predicates.add(predicate)
    return subjects.pop() if len(subjects) == 1 and _DATE_OF_DEATH in predicates else None


def _dead(form: str, where: list[tuple[str, str]]) -> str | None:
    """The person node of an ``ASK`` of one death fact of that person (``ASK { wd:X wdt:P20
    ?value }``); ``None`` for any other query."""
    terms = [(kind, text) for kind, text in where if kind in ("iri", "pname", "var", "lit", "num", "word")]
    if form != "ask" or len(terms) != 3 or terms[2][0] != "var":
        return None
    subject, predicate = iri_of(*terms[0]), iri_of(*terms[1])
    return subject if subject is not None and subject.startswith(WD) and predicate in _DEATH_IRIS else None


def _order(tail: list[tuple[str, str]]) -> str | None:
    words = [t.upper() for kind, t in tail if kind == "word"]
    if "ORDER" not in words or "LIMIT" not in words:
        return None
    after = words[words.index("ORDER") + 1:]
    return "max" if "DESC" in after[: after.index("LIMIT") if "LIMIT" in after else None] else "min"


def _strip_comments(sparql: str) -> str:
    return re.sub(r"(?m)^\s*#.*$", "", sparql)


def _where_start(tokens: list[tuple[str, str]]) -> int:
    """Index of the first ``{`` of the outer group (after WHERE, or ASK's own)."""
    for i, (kind, text) in enumerate(tokens):
        if kind == "other" and text == "{":
            return i
    return len(tokens)


def _where_group(tokens: list[tuple[str, str]], start: int) -> tuple[list[tuple[str, str]], int]:
    """The tokens inside the outer group (SERVICE blocks dropped) and the index after it."""
    depth, out = 0, []
    skip_depth: int | None = None  # inside a SERVICE block (wikibase:label): dropped
    pending_service = False
    index = start
    for index in range(start, len(tokens)):
        kind, text = tokens[index]
        if kind == "other" and text == "{":
            depth += 1
            if pending_service and skip_depth is None:
                skip_depth = depth
            pending_service = False
            continue
        if kind == "other" and text == "}":
            if skip_depth == depth:
                skip_depth = None
            depth -= 1
            if depth == 0:
                return out, index + 1
            continue
        if kind == "word" and text.upper() == "SERVICE":
            pending_service = True
            continue
        if skip_depth is None and not pending_service:
            out.append((kind, text))
    return out, len(tokens)


def iri_of(kind: str, text: str) -> str | None:
    """The full IRI of an ``<iri>`` or prefixed-name token (``None`` for unknown prefixes)."""
    if kind == "iri":
        return text[1:-1]
    prefix, _, local = text.partition(":")
    base = WIKIDATA_NAMESPACES.get(prefix) or OTHER_NAMESPACES.get(prefix)
    return base + local if base else None


def label_key(iri: str) -> str:
    """The node that carries the labels of ``iri``: ``wdt:P36``/``p:P36``/… -> ``wd:P36``."""
    for base in WIKIDATA_NAMESPACES.values():
        if iri.startswith(base):
            match = _ID_TAIL.search(iri[len(base):])
            if match and match.group(1) == iri[len(base):]:
                return WD + match.group(1)
    return iri


def iris_in(parsed: Parsed) -> list[str]:
    """Label nodes of every IRI in the WHERE group."""
    found = (iri_of(kind, text) for kind, text in parsed.where if kind in ("iri", "pname"))
    return [label_key(i) for i in found if i]


def alive_in(text: str, lang: str) -> str | None:
    """A "still alive" reading (``ask X alive``) said once more with the first alive words of
    ``lang`` (:attr:`lang.base.ShapeWords.alive`: « sigue vivo », "still alive"), as a property is
    read once more by the lexicon's name for it: « ¿Leo Tolstoy sigue con vida? » reads « ask
    Leo Tolstoy alive » at 0.27, « ask Leo Tolstoy sigue vivo » at 0.995, and "Is Elvis Presley
    dead?" « ask Elvis Presley still alive » at 0.003."""
    words = ALIVE_WORDS.get(lang, ())
    if not words or not text.endswith(" alive") or words[0] == "alive":
        return None
    return f"{text.removesuffix(' alive')} {words[0]}"


def dead_in(text: str, lang: str) -> str | None:
    """A "dead" reading (``ask X dead``) said once more with the first dead words of ``lang``
    (:attr:`lang.base.ShapeWords.dead`: « muerto », « tot »), as :func:`alive_in` says "alive"."""
    words = DEAD_WORDS.get(lang, ())
    if not words or not text.endswith(" dead") or words[0] == "dead":
        return None
    return f"{text.removesuffix(' dead')} {words[0]}"


def render(parsed: Parsed, labels: dict[str, Labels], lang: str, named: Mapping[str, str] | None = None) -> str:
    """The verbalization of a parsed query, given labels of its IRIs (``named``: the name
    to say for some nodes instead of their chosen label, see :func:`linked_name`)."""
    if parsed.alive is not None:
        person = _render_token("iri", f"<{parsed.alive}>", labels, lang, named or {})
        return f"ask {person} alive"
    if parsed.dead is not None:
        person = _render_token("iri", f"<{parsed.dead}>", labels, lang, named or {})
        return f"ask {person} dead"
    parts: list[str] = []
    if parsed.form in ("count", "ask"):
        parts.append(parsed.form)
    if parsed.order:
        parts.append(parsed.order)
    for kind, text in parsed.where:
        word = _render_token(kind, text, labels, lang, named or {})
        if word:
            parts.append(word)
    out = " ".join(parts)
    out = re.sub(r"\s+([.;,])", r"\1", out)
    out = re.sub(r"([.;,])(\s*[.;,])+", r"\1", out)
    return out.strip(" .;,")


def _render_token(kind: str, text: str, labels: dict[str, Labels], lang: str, named: Mapping[str, str]) -> str | None:
    if kind == "var":
        return "?" + text[1:]
    if kind == "lit":
        return _literal_text(text)
    if kind in ("num", "op"):
        return text
    if kind == "sep":
        return text if text != "," else None
    if kind == "word" and text.upper() in _NEGATIONS:
        return "not"
    if kind in ("iri", "pname"):
        iri = iri_of(kind, text)
        if iri is None:
            return None
        node = label_key(iri)
        label = named.get(node) or choose_label(labels.get(node, {}), lang)
        if label:
            return _clean(label)
        match = _ID_TAIL.search(node)
        return match.group(1) if match and node.startswith(WD) else None
    return None


def _literal_text(token: str) -> str:
    quote = token[0]
    body = token[1:token.rfind(quote)]
    return _clean(body.replace("\\" + quote, quote))


def _clean(text: str) -> str:
    text = unicodedata.normalize("NFC", text)
    return re.sub(r"\s+", " ", text).strip()


class Verbalizer:
    """Verbalizes candidates against a KG, caching labels per node.

    Call it as ``verbalizer(sparql, lang)`` (the pipeline's :data:`Verbalizer`), or use
    :meth:`many` to fetch the labels of a whole candidate list in one query.
    """

    def __init__(self, kg: KG, *, names: PropertyNames | None = None, timeout_s: float = 5.0,
                 cache_size: int = 200_000) -> None:
        self.kg = kg
        self.names = names  # property names where the KG has no label in the question's language
        self.timeout_s = timeout_s
        self.cache_size = cache_size
        self._labels: dict[str, dict[str, Labels]] = {}  # lang -> node -> labels
        self._every: dict[str, Labels] = {}  # node -> every language's labels (linked entities)

    def __call__(self, sparql: str, lang: str) -> str:
        """The verbalization of one query in ``lang``."""
        return self.many([sparql], lang)[0]

    def many(self, sparqls: Sequence[str], lang: str, links: Sequence[Sequence[Link]] = ()) -> list[str]:
        """Verbalizations of several queries (labels fetched once for all).

        ``links[i]`` is the linking evidence of query ``i``: an entity without a label of its
        own in ``lang``, linked by one of its names as written (a label or alias, exactly or
        folded), is said by that name rather than by a fallback label in another language
        (« Le Parrain », not « Der Pate »).  Entities with a label in ``lang`` keep it, so a
        namesake matched through an alias still shows its own name, unless the alias is
        that label written out (:func:`fuller_name`: « Marcel Proust » for « Proust »)."""
        return [texts[0] for texts in self._read(sparqls, lang, links, second=False)]

    def readings(self, sparqls: Sequence[str], lang: str, links: Sequence[Sequence[Link]] = (),
                 worded: Sequence[Mapping[str, str]] = ()) -> list[tuple[str, ...]]:
        """Each query's readings: its verbalization (:meth:`many`), then, when it differs,
        the same with the properties the KG has no name for in ``lang`` said by
        :attr:`names`, the same with a property said by the question's own words for it
        (``worded[i]``: ``{pid: words}`` of query ``i``), and the same with an entity linked by
        a name it alone bears said as typed (:func:`typed_names`), with and without those words
        (the validator's score of a candidate is its best reading's)."""
        return self._read(sparqls, lang, links, second=True, worded=worded)

    def _read(self, sparqls: Sequence[str], lang: str, links: Sequence[Sequence[Link]], *, second: bool,
              worded: Sequence[Mapping[str, str]] = ()) -> list[tuple[str, ...]]:
        parsed = [parse(s) for s in sparqls]
        nodes = {i for p in parsed for i in iris_in(p)}
        table = self.prefetch(nodes, lang)
        said = self.property_names(table, nodes, lang) if second else {}
        out: list[tuple[str, ...]] = []
        for i, query in enumerate(parsed):
            linked = self.linked_names(table, links[i] if i < len(links) else (), lang)
            text = render(query, table, lang, linked)
            named = render(query, table, lang, {**said, **linked}) if said else text
            words = {WD + pid: w for pid, w in (worded[i] if i < len(worded) else {}).items()}
            phrased = render(query, table, lang, {**linked, **words}) if words else None
            typed = typed_names(table, links[i] if i < len(links) else (), lang) if second else {}
            written = render(query, table, lang, {**linked, **typed}) if typed else None
            written_phrased = render(query, table, lang, {**linked, **typed, **words}) if typed and words else None
            said_alive = alive_in(text, lang) if second and query.alive is not None else None
            said_dead = dead_in(text, lang) if second and query.dead is not None else None
            read = (text, named, phrased, written, written_phrased, said_alive, said_dead)
            out.append(tuple(dict.fromkeys(r for r in read if r)))
        return out

    def property_names(self, table: dict[str, Labels], nodes: Iterable[str], lang: str) -> dict[str, str]:
        """``{node: name}`` for the properties among ``nodes`` with neither a label nor an
        alias in ``lang``, named by :attr:`names`."""
        if self.names is None:
            return {}
        out = {}
        for node in nodes:
            pid = _property_id(node)
            if pid and not has_own_name(table.get(node, {}), lang) and (name := self.names.name(pid, lang)):
                out[node] = name
        return out

    def linked_names(self, table: dict[str, Labels], links: Sequence[Link], lang: str) -> dict[str, str]:
        """``{node: name}`` for the linked entities that :meth:`many` says by the name they
        were linked by: the KG's name with that key, else CLDR's (the label index also holds
        CLDR's names of countries, languages and currencies); an entity with a label of its
        own in ``lang`` only when the name is that label written out (:func:`fuller_name`)."""
        found = {WD + link.qid: link.name for link in links if link.kind in LINKED_KINDS and link.name}
        out = {}
        for node, key in found.items():  # a label of its own: only its names in ``lang`` and English
            own = own_label(table.get(node, {}), lang)
            if own is not None and (name := linked_name(table.get(node, {}), key, lang)) and fuller_name(name, own):
                out[node] = name
        heard = {WD + link.qid: spoken for link in links if (spoken := heard_name(link))}
        out.update({WD + link.qid: typed for link in links if (typed := surname_as_typed(link))})
        out.update({node: spoken for node, spoken in heard.items()
                    if node not in found and not has_own_label(table.get(node, {}), lang)})
        wanted = {node: key for node, key in found.items() if not has_own_label(table.get(node, {}), lang)}
        if not wanted:
            return out
        every = self.all_labels(wanted)
        return {**out, **{node: name for node, key in wanted.items()
                          if (name := linked_name(every.get(node, {}), key, lang) or written_name(key, lang))
                          is not None}}

    def all_labels(self, nodes: Iterable[str]) -> dict[str, Labels]:
        """Every language's labels and aliases of ``nodes`` (cached)."""
        missing = sorted({n for n in nodes if n not in self._every})
        if missing:
            if len(self._every) + len(missing) > self.cache_size:
                self._every.clear()
            self._every.update(self._fetch(missing, None))
        return self._every

    def prefetch(self, nodes: Iterable[str], lang: str) -> dict[str, Labels]:
        """Load the labels in ``lang`` and English of ``nodes`` not cached yet (every
        language for nodes that have neither); returns the cache for ``lang``.

        A property's labels may sit on ``wd:P…`` (Wikidata dumps) or on ``wdt:P…``
        (some extracts): both are read and merged under ``wd:P…``.
        """
        base = lang.split("-")[0].lower()
        cache = self._labels.setdefault(base, {})
        missing = sorted({n for n in nodes if n not in cache})
        if not missing:
            return cache
        if sum(len(c) for c in self._labels.values()) + len(missing) > self.cache_size:
            for other in self._labels.values():
                other.clear()
        holders = {n: _label_holders(n) for n in missing}
        found = self._fetch(sorted({h for hs in holders.values() for h in hs}), (base, "en"))
        bare = sorted({h for n, hs in holders.items() if not any(found.get(h) for h in hs) for h in hs})
        found.update(self._fetch(bare, None))
        for node, hs in holders.items():
            cache[node] = _merge([found.get(h, {}) for h in hs])
        return cache

    def _fetch(self, wanted: Sequence[str], langs: tuple[str, ...] | None) -> dict[str, Labels]:
        table: dict[str, Labels] = {}
        for start in range(0, len(wanted), 200):
            table.update(fetch_label_table(self.kg, wanted[start:start + 200], langs=langs,
                                           timeout_s=self.timeout_s))
        return table


def linked_name(labels: Labels, key: str, lang: str) -> str | None:
    """The KG name (label or alias, any language; the question's language first) whose
    normalized or folded form is ``key``, the name the entity was linked by."""
    for code in _chain(lang, labels):
        primary, aliases = labels.get(code, ([], []))
        for name in (*primary, *aliases):
            if key in name_keys(name):
                return name
    return None


KNOWN_BY_LAST_NAME = 10
"""The KG degree from which a person linked by a last name alone is said by that name
(:func:`surname_as_typed`): one that people call by their last name is well connected (the
examples above: 36 to 82 statements; « donde nacio la garbo »: Greta Garbo, 16, « Garbo
lugar de nacimiento ?answer » 0.997 against 0.002 for her label's reading; « che strumento
suonava morricone »: Ennio Morricone, 11, 0.997 against 0.047)."""


BEST_KNOWN_BY = 5
"""How many times more statements than any namesake a person linked by a last name several
bear must have to be said by that name (:func:`surname_as_typed`)."""


def heard_name(link: Link) -> str | None:
    """The name a person's name linked by sound is said by, when the entity has no label in
    the question's language: the user's own words, capitalized as they wrote them (« Клинт
    Иствуд » for Clint Eastwood, whom the validator reads in a Russian question as another
    person: 0.002 against 0.998; Italian « Repubblica Ceca », heard as the Czech Republic's
    Spanish alias, is read against "Czech Republic" as another country).  Only a name of two or
    more capitalized words that sounds closely alike (:data:`SAID_AS_HEARD`); a single word, a
    looser sound-alike or words in lower case keep the KG's name, so the validator still sees
    a namesake's or a chance match's own name.  In a script without case (:func:`caseless`),
    where no word is written as a name, a close sound-alike is said as typed, one word or more.
    """
    words = link.mention.split()
    if link.kind != "phonetic" or link.sound < SAID_AS_HEARD:
        return None
    if caseless(link.mention) or (len(words) >= 2 and link.name_words == len(words)):
        return as_typed(link)
    return None


def caseless(text: str) -> bool:
    """Whether ``text`` is written in a script without case (Devanagari, Arabic, CJK): its
    words are names as much as they are anything, and a name in another script than the
    question's is read by the validator as another entity (« اين ولد اينشتاين » against
    « Albert Einstein ولد ?answer » 0.007, against « اينشتاين ولد ?answer » 0.997)."""
    letters = [ch for ch in text if ch.isalpha()]
    return bool(letters) and not any(ch.isupper() or ch.islower() for ch in letters)


def surname_as_typed(link: Link) -> str | None:
    """The name a person linked by their last name alone is said by: that name as the user
    typed it, capitalized (« Пушкин », not the label « А. С. Пушкин »; « アインシュタイン »,
    not « アルベルト・アインシュタイン »).  The validator judges the relation, and read a name
    that is not the question's as another person: « Где родился Пушкин? » against the
    label's reading 0.81, against « Пушкин место рождения ?answer » 0.99, against « Пушкин
    место смерти ?answer » 0.001.  Only a last name that names one entity in the KG: where
    it names several, the full name is what lets the validator see a namesake ("Where was
    Bach born?" against "Johann Aegidius Bach place of birth ?answer": 0.05; against "Bach
    place of birth ?answer": 0.99).  And only a person the KG knows well
    (:data:`KNOWN_BY_LAST_NAME` statements): « набоков » names one entity in Russian, Dmitri
    Nabokov (1 statement), where Vladimir, whom the KG names in English only, is meant.  A
    last name several bear is said as typed for the one the KG knows :data:`BEST_KNOWN_BY`
    times better than any other bearer (« где умер эйлер »: Leonhard Euler, 44 statements,
    against 3 for Ulf von Euler and Albert Ayler; his label's reading 0.002, « Эйлер место
    смерти ?answer » 0.99); the others keep their full names, so the validator still reads
    them as other people.  That name must be typed as it is written, not in another form:
    « formaban » (they formed) is no Miloš Forman, and said as typed the validator could not
    tell."""
    if link.kind != "partial" or link.namesakes < 1 or link.degree < KNOWN_BY_LAST_NAME or not link.mention.strip():
        return None
    if link.namesakes > 1 and (link.degree < BEST_KNOWN_BY * max(link.rival_degree, 1)
                               or fold(normalize(link.mention)) != fold(normalize(link.name))):
        return None
    return as_typed(link)


def as_typed(link: Link) -> str:
    """A link's mention written as a name: each word capitalized, CJK characters side by side."""
    return join_tokens([w[:1].upper() + w[1:] for w in link.mention.split()])


TYPED_NAMESAKES = 1
"""How many entities a name may name in the KG for an entity linked by it as written to be
read, once more, by that name (:func:`typed_names`)."""


def typed_names(table: dict[str, Labels], links: Sequence[Link], lang: str) -> dict[str, str]:
    """``{node: name}``: the entities linked by a name written in the question (a label or
    alias, :data:`LINKED_KINDS`) that names no other entity in the KG, said as the user wrote
    it where their label in ``lang`` is another name.  The validator reads a name that is not
    the question's as another entity ("Which school did Shostakovich attend?" against « Dmitri
    Shostakovich educated at ?answer » 0.43, against « Shostakovich educated at ?answer »
    0.998), so this one more reading lets it judge the relation.  A name several entities
    bear keeps their own names: said as typed, every namesake's reading would read alike,
    and the validator would no longer see that « laura bush » is not George W. Bush, whom
    "bush" names too, nor which Illinois is asked about.  A name not written in the question
    (a fuzzy spelling, a sound-alike) is never said as typed here; a last name alone is, when no
    other entity bears it (:data:`TYPED_KINDS`)."""
    out = {}
    for link in links:
        if link.kind not in TYPED_KINDS or not 0 < link.namesakes <= TYPED_NAMESAKES or not link.mention.strip():
            continue
        labels = table.get(WD + link.qid, {})
        own = own_label(labels, lang) if link.kind != "partial" else choose_label(labels, lang)
        if own is not None and fold(normalize(own)) != fold(normalize(link.mention)):
            out[WD + link.qid] = as_typed(link)
    return out


def own_label(labels: Labels, lang: str) -> str | None:
    """The node's first ``rdfs:label`` in ``lang`` (or one of its variants), if any."""
    return next((primary[0] for primary, _ in _in_language(labels, lang) if primary), None)


def fuller_name(name: str, label: str) -> bool:
    """Whether ``name`` (an alias the entity was linked by) is its ``label`` with more words:
    « Marcel Proust » for the label « Proust ».  Such an alias is the same name written
    out, never a namesake's, so the entity is said as the user wrote it (the validator
    reads "Proust" against "Marcel Proust" as another person)."""
    words, own = fold(normalize(name)).split(), fold(normalize(label)).split()
    n = len(own)
    return 0 < n < len(words) and any(words[i:i + n] == own for i in range(len(words) - n + 1))


def has_own_label(labels: Labels, lang: str) -> bool:
    """Whether the node has an ``rdfs:label`` in ``lang`` (or one of its variants)."""
    return any(primary for primary, _ in _in_language(labels, lang))


def has_own_name(labels: Labels, lang: str) -> bool:
    """Whether the node has a label or an alias in ``lang`` (or one of its variants)."""
    return any(primary or aliases for primary, aliases in _in_language(labels, lang))


def _in_language(labels: Labels, lang: str) -> list[tuple[list[str], list[str]]]:
    """The (labels, aliases) of ``lang`` and its variants (``zh`` and ``zh-hans``)."""
    base = lang.split("-")[0].lower()
    return [names for code, names in labels.items() if code.split("-")[0].lower() == base]


def _property_id(node: str) -> str | None:
    """``P36`` for the label node ``wd:P36``; ``None`` for any other node."""
    match = _ID_TAIL.search(node)
    return match.group(1) if node.startswith(WD) and match and match.group(1).startswith("P") else None


def _label_holders(node: str) -> list[str]:
    pid = _property_id(node)
    return [node, WIKIDATA_NAMESPACES["wdt"] + pid] if pid else [node]


def _merge(tables: Sequence[Labels]) -> Labels:
    out: Labels = {}
    for table in tables:
        for lang, (primary, aliases) in table.items():
            into = out.setdefault(lang, ([], []))
            into[0].extend(x for x in primary if x not in into[0])
            into[1].extend(x for x in aliases if x not in into[1])
    return out


def fetch_label_table(kg: KG, nodes: Sequence[str], *, langs: Sequence[str] | None = None,
                      timeout_s: float | None = None) -> dict[str, Labels]:
    """``{node: {lang: ([rdfs:label…], [skos:altLabel…])}}`` in one query; ``langs``
    keeps only labels whose tag matches one of them (``zh`` matches ``zh-hans``)."""
    table: dict[str, Labels] = {n: {} for n in nodes}
    usable = [n for n in nodes if _safe(n)]
    if not usable:
        return table
    values = " ".join(iri_ref(n) for n in usable)
    keep = ""
    if langs:
        tags = [t for t in dict.fromkeys(langs) if re.fullmatch(r"[A-Za-z]{1,8}", t)]
        keep = "FILTER(" + " || ".join(f'langMatches(lang(?l), "{t}")' for t in tags) + ")" if tags else ""
    sparql = (f"SELECT ?s ?p ?l WHERE {{ VALUES ?s {{ {values} }} "
              f"{{ ?s {iri_ref(RDFS_LABEL)} ?l BIND({iri_ref(RDFS_LABEL)} AS ?p) }} UNION "
              f"{{ ?s {iri_ref(SKOS_ALT)} ?l BIND({iri_ref(SKOS_ALT)} AS ?p) }} {keep} }}")
    for row in kg.query(sparql, timeout_s=timeout_s).rows:
        label = row.get("l")
        if label is None or "s" not in row or "p" not in row or row["s"].value not in table:
            continue  # an endpoint's row may lack what was asked, or name what was not
        primary, aliases = table[row["s"].value].setdefault(label.lang or "", ([], []))
        bucket = primary if row["p"].value == RDFS_LABEL else aliases
        if label.value not in bucket:
            bucket.append(label.value)
    return table


def _safe(iri: str) -> bool:
    try:
        iri_ref(iri)
    except ValueError:
        return False
    return True
