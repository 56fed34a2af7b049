"""The KG index over any SPARQL 1.1 endpoint (:class:`EndpointIndex`): names, popularity,
classes and property labels read from the engine itself, so nothing KG-derived is needed
locally (no KG file, no store, no label index).

Portable SPARQL only: an exact-name lookup sends every name form of every span of a
question, language-tagged, through one ``VALUES`` block matched against ``rdfs:label`` and
``skos:altLabel``.  The forms are made on the client: the span as written, lower case,
capitalized words, upper-case short names; stems and dictionary forms of inflected words
(:meth:`EndpointIndex.similar_tokens`); CLDR's English name of a country, language or
currency typed in another language.  Independent requests go out concurrently; names,
popularity and classes are cached per endpoint (LRU with a TTL, :class:`TTLCache`).

Optional accelerations sit behind the same interface: Wikidata's entity search
(:class:`EntitySearch`, ``wbsearchentities``) for names the exact lookup misses, and
popularity from ``wikibase:sitelinks`` where the endpoint has it.  Ready profiles
(:data:`PROFILES`): ``wikidata`` (WDQS plus entity search), ``qlever`` (QLever's public
Wikidata endpoint); any other URL gets the portable profile.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
import math
import queue
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Generic, TypeVar

from core.errors import KGError, KGQueryError, KGUnavailable
from core.text import cased_tokens, is_cjk
from kg.cldr import cldr_code, cldr_english, kind_of
from kg.client import DEFAULT_USER_AGENT, KG, KG_ERRORS, QueryResult, budget_left, question_budget
from kg.index import KGIndex
from kg.labels import KIND_ALT, KIND_CLDR, KIND_FOLDED, KIND_LABEL, EntityStats, NameHit
from kg.name_keys import HAS_KEYS, NameKeys
from kg.sparql import RDFS_LABEL, SKOS_ALT, WD, WDT, iri_ref, local_id
from lang import SUPPORTED
from lang import get as language
from lang.morphology import dictionary_candidates, written_script
from lang.others import OTHER_LABEL_LANGUAGES, WIKIDATA_VARIANTS
from lang.stopwords import is_stopword

if TYPE_CHECKING:
    from core.http import HttpReply
    from core.replies import SearchReply
    from core.settings import Settings

log = logging.getLogger(__name__)

K = TypeVar("K")
T = TypeVar("T")
V = TypeVar("V")

SITELINKS = "http://wikiba.se/ontology#sitelinks"
P31 = WDT + "P31"
LOOKUP_CHUNK = 8000  # literals per name-lookup request (the rest go out concurrently)
MAX_LOOKUP_LITERALS = 16_000
"""Literals one name lookup sends at most (two requests of about 0.5 MiB): a 980-character
question used to send 3.8-4.3 MiB; the longest spans are left out first."""
IDS_CHUNK = 200  # entities per stats / classes request
MAX_NAME_ROWS = 20_000
MAX_KEY_ROWS = 200_000  # rows of one name-key request (every word with a common three-letter start)
SITELINK_WEIGHT = 100  # a sitelink counts as this many facts (300 sitelinks: the prior of a hub)

_SCRIPT_LANGUAGES: dict[str, tuple[str, ...]] = {
    script: (*(code for code in SUPPORTED if language(code).script == script), *OTHER_LABEL_LANGUAGES.get(script, ()))
    for script in dict.fromkeys([*(language(code).script for code in SUPPORTED), *OTHER_LABEL_LANGUAGES])}
"""The label languages a name written in each script is tried in (besides the question's):
those of the chat written in it, and a few close ones.  The label index matches a name in
any language (« EUA », Spanish, in a Portuguese question); an exact lookup can only try
the languages it names, so it names every chat language of the span's script."""


# --------------------------------------------------------------------------- profiles


@dataclass(frozen=True)
class EndpointProfile:
    """How to read one endpoint: its URL, where popularity comes from (``degree``: facts
    counted, bounded by ``degree_cap`` per entity; ``sitelinks``: ``wikibase:sitelinks``),
    an optional entity-search API, the label languages kept for property labels (empty:
    all), whether the class statistics of properties are computed (one aggregate over the
    whole KG: own endpoints only), the bound of a reverse probe (``probe_limit``), and
    whether it holds the label index's name keys (:mod:`kg.name_keys`; ``None``: ask it once)."""

    name: str
    url: str
    popularity: str = "degree"
    search_url: str | None = None
    label_languages: tuple[str, ...] = ()
    class_statistics: bool = False
    degree_cap: int = 1_000_000
    probe_limit: int | None = 50_000
    max_pid: int = 13_000
    concurrency: int = 4
    name_keys: bool | None = None


_WIKIDATA_LANGUAGES = (*SUPPORTED, *WIKIDATA_VARIANTS)
PROFILES: dict[str, EndpointProfile] = {
    "wikidata": EndpointProfile("wikidata", "https://query.wikidata.org/sparql", popularity="sitelinks",
                                search_url="https://www.wikidata.org/w/api.php",
                                label_languages=_WIKIDATA_LANGUAGES, probe_limit=10_000, concurrency=2,
                                name_keys=False),
    "qlever": EndpointProfile("qlever", "https://qlever.cs.uni-freiburg.de/api/wikidata", popularity="sitelinks",
                              label_languages=_WIKIDATA_LANGUAGES, probe_limit=10_000, concurrency=2,
                              name_keys=False),
}
"""Ready profiles for ``--kg NAME``; ``--kg-endpoint URL`` overrides a profile's URL."""


def endpoint_profile(settings: Settings) -> EndpointProfile | None:
    """The endpoint the settings name (``kg_profile`` and/or ``kg_endpoint``), or ``None``
    for the embedded store.  Raises :class:`KGUnavailable` for an unknown profile."""
    name = settings.kg_profile
    if name and name != "embedded":
        profile = PROFILES.get(name)
        if profile is None:
            raise KGUnavailable(f"unknown KG profile {name!r}; known: {', '.join(sorted(PROFILES))}")
        profile = replace(profile, url=settings.kg_endpoint or profile.url)
    elif settings.kg_endpoint:
        profile = EndpointProfile("endpoint", settings.kg_endpoint, class_statistics=True,  # an own endpoint
                                  name_keys=None if settings.kg_name_keys else False)
    else:
        return None
    return replace(profile, concurrency=max(1, settings.kg_concurrency or profile.concurrency))


# --------------------------------------------------------------------------- cache


class TTLCache(Generic[K, V]):
    """A thread-safe LRU cache whose entries expire ``ttl_s`` after they were stored."""

    def __init__(self, max_items: int = 100_000, ttl_s: float = 3600.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.max_items = max_items
        self.ttl_s = ttl_s
        self._clock = clock
        self._items: OrderedDict[K, tuple[float, V]] = OrderedDict()
        self._lock = threading.Lock()

    def get_many(self, keys: Iterable[K]) -> tuple[dict[K, V], list[K]]:
        """``(found, missing)``: the live entries of ``keys`` and the keys without one."""
        now = self._clock()
        found: dict[K, V] = {}
        missing: list[K] = []
        with self._lock:
            for key in keys:
                slot = self._items.get(key)
                if slot is None or slot[0] <= now:
                    if slot is not None:
                        del self._items[key]
                    missing.append(key)
                    continue
                self._items.move_to_end(key)
                found[key] = slot[1]
        return found, missing

    def put_many(self, values: Mapping[K, V]) -> None:
        """Store ``values`` (the least recently used entries go past ``max_items``)."""
        expires = self._clock() + self.ttl_s
        with self._lock:
            for key, value in values.items():
                self._items[key] = (expires, value)
                self._items.move_to_end(key)
            while len(self._items) > self.max_items:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)


@dataclass
class EndpointCaches:
    """What one endpoint has told: names per (key, language), popularity, classes, property
    labels; whether it holds name keys, and the rows of those read (per read and key)."""

    names: TTLCache[tuple[str, str], list[NameHit]]
    stats: TTLCache[str, EntityStats]
    classes: TTLCache[str, list[str]]
    prop_labels: dict[str, dict[str, list[str]]] | None = None
    prop_classes: dict[tuple[str, str], list[tuple[str, int]]] | None = None
    keyed: TTLCache[tuple[str, str], list[str]] = field(default_factory=TTLCache)
    has_keys: bool | None = None


_CACHES: dict[str, EndpointCaches] = {}
_CACHES_LOCK = threading.Lock()


def caches_for(url: str, *, max_items: int = 200_000, ttl_s: float = 6 * 3600.0) -> EndpointCaches:
    """The one cache of the endpoint at ``url`` (shared by every index over it in this process)."""
    with _CACHES_LOCK:
        found = _CACHES.get(url)
        if found is None:
            found = _CACHES[url] = EndpointCaches(TTLCache(max_items, ttl_s), TTLCache(max_items, ttl_s),
                                                  TTLCache(max_items, ttl_s), keyed=TTLCache(max_items, ttl_s))
        return found


# --------------------------------------------------------------------------- name forms


def literal_forms(key: str, written: str | None) -> list[str]:
    """The ways a name whose normalized key is ``key`` may be written in a KG: as the user
    wrote it (with its punctuation, « États-Unis », and with punctuation as spaces), lower
    case, every word capitalized, names' words capitalized (function words kept lower:
    « Pirates of the Caribbean »), the first word capitalized, upper case for a short
    one-word name (« USA »); CJK characters joined again."""
    if not key:
        return []
    if any(is_cjk(ch) for ch in key):
        joined = "".join(key.split()) if all(is_cjk(t) or len(t) == 1 for t in key.split()) else key
        return list(dict.fromkeys([joined, key]))
    words = key.split()
    forms = [written or "", " ".join(cased_tokens(written)) if written else "", key,
             " ".join(w[:1].upper() + w[1:] for w in words),
             " ".join(w if i and is_stopword(w) else w[:1].upper() + w[1:] for i, w in enumerate(words)),
             key[:1].upper() + key[1:]]
    if len(words) == 1 and len(key) <= 5:
        forms.append(key.upper())
    if any(_PATRONYMIC.match(w) for w in words):  # « mclaren »: "McLaren", « o'neal »: "O'Neal"
        forms.append(" ".join(_PATRONYMIC.sub(lambda m: m[1].capitalize() + m[2].upper(), w) if _PATRONYMIC.match(w)
                              else w[:1].upper() + w[1:] for w in words))
    return [f for f in dict.fromkeys(forms) if f]


_PATRONYMIC = re.compile(r"^(mc|mac|o')(\w)(?=\w\w)")
"""Name prefixes after which English and Gaelic names capitalize again (McLaren, MacArthur, O'Neal)."""


def name_languages(lang: str, text: str) -> tuple[str, ...]:
    """The label languages a name span in a question in ``lang`` is tried in: the
    question's, then those of the span's script."""
    tried = [lang, *_SCRIPT_LANGUAGES.get(written_script(text), ("en", "mul"))]
    return tuple(code for code in dict.fromkeys(tried) if code)


def _sparql_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _literal(text: str, lang: str) -> str:
    return f"{_sparql_string(text)}@{lang}"


def _entity(qid: str) -> str:
    return iri_ref(WD + qid)


def _is_item(qid: str) -> bool:
    return qid.startswith("Q") and qid[1:].isdigit()


# --------------------------------------------------------------------------- entity search


class EntitySearch:
    """Wikidata's entity-search API (``action=wbsearchentities``): names the exact lookup
    misses (typos, prefixes), one request per name, sent concurrently by the index."""

    def __init__(self, url: str, *, timeout_s: float = 5.0, user_agent: str = DEFAULT_USER_AGENT,
                 retries: int = 1, limit: int = 7) -> None:
        self.url = url
        self.limit = limit
        from core.http import HttpCaller  # httpx: remote endpoints only (the embedded store never loads it)

        self._http = HttpCaller(KG_ERRORS, timeout_s=timeout_s, retries=retries,
                                headers={"User-Agent": user_agent, "Accept": "application/json"})

    def close(self) -> None:
        """Close the connection pool."""
        self._http.close()

    def search(self, text: str, lang: str, *, timeout_s: float | None = None) -> list[NameHit]:
        """The entities whose label or alias matches ``text`` in ``lang``, best first."""
        params = {"action": "wbsearchentities", "search": text, "language": lang, "uselang": lang,
                  "type": "item", "limit": str(self.limit), "format": "json", "strictlanguage": "false"}
        left = budget_left()
        if left is not None and left <= 0.05:
            raise KGUnavailable(f"{self.url}: the question's time budget for the KG is spent")
        timeout = min(timeout_s or self._http.timeout_s, left) if left is not None else timeout_s
        return self._http.call("GET", self.url, _parse_search, params=params, timeout_s=timeout)


def _parse_search(reply: HttpReply) -> list[NameHit]:
    from core.replies import SEARCH_REPLY, MalformedReply, parse_reply  # pydantic: remote replies only

    def convert(data: SearchReply) -> list[NameHit]:
        hits = []
        for item in data["search"]:
            qid = item["id"]
            match = item.get("match") or {}
            if _is_item(qid):  # a searched name is never taken for an exact one (kind: folded only)
                hits.append(NameHit(qid, KIND_FOLDED, (str(match.get("language") or ""),)))
        return hits

    try:
        return parse_reply(SEARCH_REPLY, reply.body, convert)
    except MalformedReply as exc:
        raise KGUnavailable(f"malformed entity-search reply: {exc}") from exc


# --------------------------------------------------------------------------- the index


class RequestThreads:
    """The index's request threads: daemon threads, so that a request still running when
    the process ends never holds its exit (``concurrent.futures`` joins its threads at
    exit; each request is bounded by its deadline in any case)."""

    def __init__(self, workers: int) -> None:
        self._jobs: queue.SimpleQueue[tuple[Callable[[], object], Future] | None] = queue.SimpleQueue()
        self._threads = [threading.Thread(target=self._run, name=f"kg-endpoint-{i}", daemon=True)
                         for i in range(workers)]
        for thread in self._threads:
            thread.start()

    def _run(self) -> None:
        while (job := self._jobs.get()) is not None:
            fn, future = job
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(fn())
            except BaseException as exc:  # noqa: BLE001 - handed to the caller through its future
                future.set_exception(exc)

    def submit(self, fn: Callable[..., V], *args: object) -> Future:
        """Run ``fn(*args)`` on a request thread."""
        future: Future = Future()
        self._jobs.put((lambda: fn(*args), future))
        return future

    def shutdown(self, wait: bool = False) -> None:
        """Let the threads end once the queued requests are done."""
        for _ in self._threads:
            self._jobs.put(None)
        if wait:
            for thread in self._threads:
                thread.join()



class EndpointIndex:
    """The :class:`kg.index.KGIndex` of a SPARQL endpoint reached through ``kg``."""

    def __init__(self, kg: KG, profile: EndpointProfile, *, timeout_s: float = 5.0,
                 search: EntitySearch | None = None, caches: EndpointCaches | None = None,
                 startup_timeout_s: float = 300.0) -> None:
        self.kg = kg
        self.startup_timeout_s = startup_timeout_s  # the once-per-process reads (property labels, statistics)
        self.profile = profile
        self.timeout_s = timeout_s
        self.search = search
        self.caches = caches or caches_for(profile.url)
        self._pool = RequestThreads(max(1, profile.concurrency))
        self._init_lock = threading.Lock()
        self._startup_until = time.monotonic() + startup_timeout_s

    def close(self) -> None:
        """Stop the request threads (and the entity search's connections)."""
        self._pool.shutdown(wait=False)
        if self.search is not None:
            self.search.close()

    # ------------------------------------------------------------------ requests

    def _startup(self) -> contextlib.AbstractContextManager[None]:
        """The budget of a once-per-process read (property labels, their classes, whether
        the endpoint holds name keys): the question's when one asks, else the start-up
        budget, ``startup_timeout_s`` from when the index was made, shared by every such
        read (past it they fail at once and are tried again within a question)."""
        if budget_left() is not None:
            return contextlib.nullcontext()
        return question_budget(max(0.0, self._startup_until - time.monotonic()))

    def _query(self, sparql: str, max_rows: int | None = None, timeout_s: float | None = None) -> QueryResult:
        """One of the index's own reads: an endpoint refusing it (a 400 to a query this
        code wrote) is an endpoint that cannot serve, "service unavailable"."""
        try:
            return self.kg.query(sparql, timeout_s=timeout_s or self.timeout_s, max_rows=max_rows)
        except KGQueryError as exc:
            raise KGUnavailable(f"{self.profile.url} refused the index's query: {exc}") from exc

    def _all(self, queries: Sequence[str], max_rows: int | None = None,
             timeout_s: float | None = None) -> list[QueryResult]:
        """Every query's result, sent concurrently; the first failure is raised."""
        if len(queries) <= 1:
            return [self._query(q, max_rows, timeout_s) for q in queries]
        return self._map(lambda q: self._query(q, max_rows, timeout_s), queries)

    def _each(self, queries: Sequence[str], timeout_s: float | None = None) -> Iterator[QueryResult]:
        """Every query's result in order, sent concurrently, each let go once the caller has
        read it (the start-up reads: thirteen replies of up to 8 MiB are never all held)."""
        futures = [self._pool.submit(contextvars.copy_context().run, self._query, q, None, timeout_s)
                   for q in queries]
        futures.reverse()
        while futures:
            yield futures.pop().result()

    def _map(self, fn: Callable[[T], V], items: Sequence[T]) -> list[V]:
        """``fn`` of every item on the request threads, each in a copy of this context (the
        question's KG budget travels with it)."""
        futures = [self._pool.submit(contextvars.copy_context().run, fn, item) for item in items]
        return [f.result() for f in futures]

    # ------------------------------------------------------------------ names

    def lookup(self, keys: Iterable[str], *, lang: str = "",
               written: Mapping[str, str] | None = None) -> dict[str, list[NameHit]]:
        """Every key's entities: cached ones from the cache, the others in one ``VALUES``
        request per :data:`LOOKUP_CHUNK` literals (concurrently).  An endpoint holding name
        keys answers as the label index does (``lang`` and ``written`` unread)."""
        keyed = self.name_keys()
        if keyed is not None:
            return keyed.lookup(keys)
        wanted = sorted({k for k in keys if k})
        found, missing = self.caches.names.get_many((k, lang) for k in wanted)
        out = {k: hits for (k, _l), hits in found.items() if hits}
        if not missing:
            return out
        written = written or {}
        literals: dict[str, set[tuple[str, int]]] = {}  # SPARQL literal -> (key, extra kind bits) it stands for
        # shortest spans first: past MAX_LOOKUP_LITERALS the longest spans (least often a name) are not sent
        for key, _lang in sorted(missing, key=lambda kl: (len(kl[0].split()), len(kl[0]), kl[0])):
            text = written.get(key) or key
            mine = [(_literal(form, code), 0) for form in literal_forms(key, written.get(key))
                    for code in name_languages(lang, text)]
            english = cldr_english(key, lang) if lang else None
            mine += [(_literal(english, "en"), KIND_CLDR)] if english else []
            if len(literals) + len(mine) > MAX_LOOKUP_LITERALS:
                log.info("name lookup bounded: %d literals sent, longer spans left out", len(literals))
                break
            for literal, extra in mine:
                literals.setdefault(literal, set()).add((key, extra))
        items = sorted(literals)
        queries = [_name_query(items[i:i + LOOKUP_CHUNK]) for i in range(0, len(items), LOOKUP_CHUNK)]
        sent = {key for keys in literals.values() for key, _extra in keys}
        fresh: dict[str, dict[str, list]] = {key: {} for key, _l in missing if key in sent}
        for result in self._all(queries, MAX_NAME_ROWS):
            for row in result.rows:
                s, name, k = row.get("s"), row.get("name"), row.get("k")
                qid = local_id(s.value) if s is not None else None
                if qid is None or name is None or k is None or not _is_item(qid):
                    continue
                kind = KIND_LABEL if k.value == RDFS_LABEL else KIND_ALT
                for key, extra in literals.get(_literal(name.value, name.lang or ""), ()):
                    slot = fresh[key].setdefault(qid, [0, set()])
                    slot[0] |= extra or kind
                    slot[1].add(lang if extra else name.lang or "")
        self._cldr_holders(fresh, lang)
        if self.search is not None:
            self._searched(fresh, lang, written)
        table = {key: [NameHit(qid, slot[0], tuple(sorted(slot[1]))) for qid, slot in sorted(ents.items())]
                 for key, ents in fresh.items()}
        self.caches.names.put_many({(key, lang): hits for key, hits in table.items()})
        out.update({key: hits for key, hits in table.items() if hits})
        return out

    def _cldr_holders(self, fresh: dict[str, dict[str, list]], lang: str) -> None:
        """Keep a CLDR name (« Stati Uniti » for "United States") only on the entity the label
        index gives it to: among the entities whose English name it is (the USA, and states
        that carry "United States" as an alias), those whose classes make them a country,
        language or currency, and of those the most popular per CLDR code.  Popularity and
        classes are read for every entity found (the linker reads them next: cached then)."""
        held = {key: [q for q, slot in ents.items() if slot[0] == KIND_CLDR] for key, ents in fresh.items()}
        if not any(held.values()):
            return
        stats = self.entity_stats({q for ents in fresh.values() for q in ents})
        classes = self.classes_of({q for qids in held.values() for q in qids})
        for key, qids in held.items():
            english = cldr_english(key, lang) if qids else None
            best: dict[tuple[str, str], str] = {}
            for qid in qids:
                kind = kind_of(classes.get(qid, ()))
                code = cldr_code(english, kind) if kind and english else None
                if kind is None or code is None:
                    continue
                other = best.get((kind, code))
                if other is None or _more_popular(qid, other, stats):
                    best[(kind, code)] = qid
            for qid in set(qids) - set(best.values()):
                del fresh[key][qid]

    def _searched(self, fresh: dict[str, dict[str, list]], lang: str, written: Mapping[str, str]) -> None:
        """The entity search's hits for the written spans of two words or more the exact
        lookup left without any (at most four searches, concurrently)."""
        search = self.search
        if search is None:
            return
        spans = sorted((k for k in fresh if not fresh[k] and k in written and len(k.split()) >= 2),
                       key=lambda k: (-len(k), k))[:4]
        if not spans:
            return
        try:
            results = self._map(lambda k: search.search(written[k], lang or "en", timeout_s=self.timeout_s), spans)
        except KGError as exc:
            log.info("entity search failed, exact names only: %s", exc)
            return
        for key, hits in zip(spans, results, strict=True):
            for hit in hits:
                slot = fresh[key].setdefault(hit.qid, [0, set()])
                slot[0] |= hit.kind
                slot[1].update(hit.langs)

    def prefetch(self, *, similar: Iterable[str] = (), prefixes: Iterable[str] = (), sounds: Iterable[str] = ()
                 ) -> None:
        """Read ahead, in one request, the name keys linking will read (an endpoint that holds
        them); without them, nothing to read (close words are made on the client)."""
        keyed = self.name_keys()
        if keyed is not None:
            keyed.prefetch(similar=similar, prefixes=prefixes, sounds=sounds)

    def lookup_phonetic(self, keys: Iterable[str], *, per_key: int = 100) -> dict[str, list[tuple[NameHit, str]]]:
        """Sound-alike names: from the name keys an endpoint holds, else none (they need an
        index of sound keys)."""
        keyed = self.name_keys()
        return keyed.lookup_phonetic(keys, per_key=per_key) if keyed is not None else {}

    def similar_tokens(self, token: str, *, limit: int = 4) -> list[tuple[str, float]]:
        """Dictionary forms of an inflected word, made on the client (no vocabulary to read):
        the word with its inflectional ending replaced by a dictionary form's ("berlins" ->
        "berlin", "cities" -> "city", "германии" -> "германия"), best first; from the
        vocabulary of the name keys when the endpoint holds them."""
        keyed = self.name_keys()
        if keyed is not None:
            return keyed.similar_tokens(token, limit=limit)
        return list(dictionary_candidates(token).items())[:limit]

    def tokens_with_prefix(self, prefix: str, limit: int = 5000, *, max_len: int | None = None
                           ) -> list[tuple[str, int]]:
        """Name words starting with ``prefix``, from the name keys an endpoint holds; none
        without them (no vocabulary to read)."""
        keyed = self.name_keys()
        return keyed.tokens_with_prefix(prefix, limit, max_len=max_len) if keyed is not None else []

    def name_keys(self) -> NameKeys | None:
        """The endpoint's name keys (:mod:`kg.name_keys`), or ``None`` when it holds none:
        as the profile says, else asked once per endpoint (none while it cannot be asked)."""
        has = self.profile.name_keys
        if has is None:
            with self._init_lock:
                if self.caches.has_keys is None:
                    try:
                        with self._startup():
                            self.caches.has_keys = bool(self._query(HAS_KEYS, timeout_s=self.startup_timeout_s)
                                                        .boolean)
                    except KGError as exc:  # asked again next time
                        log.warning("%s: could not ask for name keys, exact names only: %s", self.profile.url, exc)
                has = bool(self.caches.has_keys)
        if not has:
            return None
        return NameKeys(lambda queries: self._all(queries, MAX_KEY_ROWS), self.caches.keyed)

    # ------------------------------------------------------------------ popularity, classes

    def entity_stats(self, qids: Iterable[str]) -> dict[str, EntityStats]:
        """Popularity of each entity (its facts counted, or its sitelinks) and whether it
        has instances, with its classes read in the same request (cached for
        :meth:`classes_of`)."""
        wanted = sorted({q for q in qids if _is_item(q)})
        found, missing = self.caches.stats.get_many(wanted)
        if missing:
            chunks = [missing[i:i + IDS_CHUNK] for i in range(0, len(missing), IDS_CHUNK)]
            stats: dict[str, list[int]] = {q: [0, 0, 0] for q in missing}
            classes: dict[str, list[str]] = {q: [] for q in missing}
            for result in self._all([self._stats_query(c) for c in chunks]):
                for row in result.rows:
                    s = row.get("s")
                    qid = local_id(s.value) if s is not None else None
                    if qid not in stats:
                        continue
                    for i, var in enumerate(("out", "in", "inst")):
                        term = row.get(var)
                        if term is not None:
                            stats[qid][i] += _count(term.value)
                    c = row.get("c")
                    cid = local_id(c.value) if c is not None else None
                    if cid is not None and cid not in classes[qid]:
                        classes[qid].append(cid)
            fresh = {q: EntityStats(self._popularity(v), v[2], 0) for q, v in stats.items()}
            self.caches.stats.put_many(fresh)
            self.caches.classes.put_many({q: sorted(cs, key=lambda c: (len(c), c)) for q, cs in classes.items()})
            found.update(fresh)
        return {q: st for q, st in found.items() if st.degree or st.instances}

    def _popularity(self, counts: Sequence[int]) -> int:
        out, incoming, _inst = counts
        if self.profile.popularity == "sitelinks":
            return out * SITELINK_WEIGHT
        return out + incoming

    def _stats_query(self, qids: Sequence[str]) -> str:
        values = " ".join(_entity(q) for q in qids)
        wdt = _sparql_string(WDT)
        classes = f"{{ VALUES ?s {{ {values} }} ?s {iri_ref(P31)} ?c }}"
        if self.profile.popularity == "sitelinks":
            popularity = f"{{ VALUES ?s {{ {values} }} ?s {iri_ref(SITELINKS)} ?out }}"
            instances = f"{{ VALUES ?s {{ {values} }} FILTER EXISTS {{ ?i {iri_ref(P31)} ?s }} BIND(1 AS ?inst) }}"
            return f"SELECT ?s ?out ?inst ?c WHERE {{ {popularity} UNION {instances} UNION {classes} }}"
        out = (f"{{ SELECT ?s (COUNT(?o) AS ?out) WHERE {{ VALUES ?s {{ {values} }} ?s ?p ?o . "
               f"FILTER(STRSTARTS(STR(?p), {wdt})) }} GROUP BY ?s }}")
        incoming = " UNION ".join(
            f"{{ SELECT ({_entity(q)} AS ?s) (COUNT(?x) AS ?in) (SUM(IF(?p = {iri_ref(P31)}, 1, 0)) AS ?inst) "
            f"WHERE {{ {{ SELECT ?x ?p WHERE {{ ?x ?p {_entity(q)} . FILTER(STRSTARTS(STR(?p), {wdt})) }} "
            f"LIMIT {self.profile.degree_cap} }} }} }}" for q in qids)
        return f"SELECT ?s ?out ?in ?inst ?c WHERE {{ {out} UNION {incoming} UNION {classes} }}"

    def classes_of(self, qids: Iterable[str]) -> dict[str, list[str]]:
        """The ``P31`` classes of each entity (from the cache when its stats were read)."""
        wanted = sorted({q for q in qids if _is_item(q)})
        found, missing = self.caches.classes.get_many(wanted)
        if missing:
            fresh: dict[str, list[str]] = {q: [] for q in missing}
            queries = [f"SELECT ?s ?c WHERE {{ VALUES ?s {{ {' '.join(_entity(q) for q in missing[i:i + IDS_CHUNK])} }}"
                       f" ?s {iri_ref(P31)} ?c }}" for i in range(0, len(missing), IDS_CHUNK)]
            for result in self._all(queries):
                for row in result.rows:
                    if "s" not in row:
                        continue
                    qid, cid = local_id(row["s"].value), local_id(row["c"].value) if "c" in row else None
                    if qid in fresh and cid is not None and cid not in fresh[qid]:
                        fresh[qid].append(cid)
            fresh = {q: sorted(cs, key=lambda c: (len(c), c)) for q, cs in fresh.items()}
            self.caches.classes.put_many(fresh)
            found.update(fresh)
        return {q: sorted(cs, key=lambda c: int(c[1:]) if c[1:].isdigit() else 0) for q, cs in found.items() if cs}

    # ------------------------------------------------------------------ properties

    def property_labels(self) -> dict[str, dict[str, list[str]]]:
        """``{pid: {lang: [label, alias, …]}}`` of every property ``P1`` … ``P<max_pid>``
        (on ``wd:P…`` and ``wdt:P…``), read once (concurrently, in chunks) and kept."""
        with self._init_lock:
            if self.caches.prop_labels is None:  # a failure raises (and the next call tries again)
                with self._startup():
                    self.caches.prop_labels = self._read_property_labels()
            return self.caches.prop_labels

    def _read_property_labels(self) -> dict[str, dict[str, list[str]]]:
        pids = [f"P{i}" for i in range(1, self.profile.max_pid + 1)]
        langs = self.profile.label_languages
        where = f" FILTER(LANG(?l) IN ({', '.join(_sparql_string(x) for x in langs)}))" if langs else ""
        queries = []
        for i in range(0, len(pids), 1000):
            values = " ".join(f"{iri_ref(WD + p)} {iri_ref(WDT + p)}" for p in pids[i:i + 1000])
            queries.append("SELECT ?s ?k ?l WHERE { " + " UNION ".join(
                f"{{ VALUES ?s {{ {values} }} ?s {iri_ref(p)} ?l BIND({iri_ref(p)} AS ?k){where} }}"
                for p in (RDFS_LABEL, SKOS_ALT)) + " }")
        rows: set[tuple[str, str, int, str]] = set()
        asked = set(pids)
        for result in self._each(queries, timeout_s=self.startup_timeout_s):
            for row in result.rows:
                subject, label, prop = row.get("s"), row.get("l"), row.get("k")
                if subject is None or prop is None or label is None or label.kind != "literal":
                    continue
                pid = subject.value.rsplit("/", 1)[-1]
                if pid not in asked:  # only what was asked for is kept
                    continue
                kind = KIND_LABEL if prop.value == RDFS_LABEL else KIND_ALT
                rows.add((pid, label.lang or "", kind, label.value))
        table: dict[str, dict[str, list[str]]] = {}
        for pid, lang, _kind, label in sorted(rows):
            table.setdefault(pid, {}).setdefault(lang, []).append(label)
        return table

    def property_classes(self) -> dict[tuple[str, str], list[tuple[str, int]]]:
        """The class statistics of every property's ends when the profile asks for them (an
        own endpoint), else none (types unknown): read from the name keys the endpoint holds
        (``kgqa kg-serve``'s, one request), else from one aggregate over the whole KG."""
        wanted = self.profile.class_statistics and self.caches.prop_classes is None
        keyed = self.name_keys() if wanted else None  # (it takes the lock below itself)
        with self._init_lock:
            if self.caches.prop_classes is None:
                with self._startup():
                    self.caches.prop_classes = (self._read_property_classes(keyed) if self.profile.class_statistics
                                                else {})
            return self.caches.prop_classes

    def _read_property_classes(self, keyed: NameKeys | None) -> dict[tuple[str, str], list[tuple[str, int]]]:
        """The name keys' class statistics, else :meth:`_aggregate_property_classes`; none
        when the endpoint cannot give them in time (answer types are then unknown: a weaker
        ranker, never a wrong answer)."""
        try:
            held = keyed.property_classes() if keyed is not None else {}
            return held or self._aggregate_property_classes()
        except KGError as exc:
            log.warning("class statistics unavailable from %s, answer types unknown: %s", self.profile.url, exc)
            return {}

    def _aggregate_property_classes(self) -> dict[tuple[str, str], list[tuple[str, int]]]:
        wdt, item = _sparql_string(WDT), _sparql_string(WD + "Q")
        kinds = ("IF(isIRI(?o), ?c, IF(DATATYPE(?o) IN (xsd:dateTime, xsd:date, xsd:gYear, xsd:gYearMonth), "
                 "\"date\", IF(DATATYPE(?o) IN (xsd:decimal, xsd:integer, xsd:double, xsd:float, xsd:int, "
                 "xsd:long, xsd:nonNegativeInteger, xsd:positiveInteger), \"number\", \"string\")))")
        fact = (f"?s ?p ?o . FILTER(STRSTARTS(STR(?p), {wdt}) && ?p != {iri_ref(P31)} && STRSTARTS(STR(?s), {item}) "
                f"&& (isLiteral(?o) || STRSTARTS(STR(?o), {item})))")
        subjects = f"SELECT ?p ?c (COUNT(*) AS ?n) WHERE {{ {fact} ?s {iri_ref(P31)} ?c }} GROUP BY ?p ?c"
        objects = (f"SELECT ?p ?k (COUNT(*) AS ?n) WHERE {{ {fact} OPTIONAL {{ ?o {iri_ref(P31)} ?c }} "
                   f"BIND({kinds} AS ?k) FILTER(BOUND(?k)) }} GROUP BY ?p ?k")
        stats: dict[tuple[str, str], list[tuple[str, int]]] = {}
        results = self._all([subjects, objects], timeout_s=self.startup_timeout_s)
        for side, result in zip(("s", "o"), results, strict=True):
            for row in result.rows:
                prop, count = row.get("p"), row.get("n")
                cls = row.get("c") or row.get("k")
                if cls is None or prop is None or count is None:
                    continue
                pid = prop.value.rsplit("/", 1)[-1]
                name = local_id(cls.value) if cls.kind == "uri" else cls.value
                stats.setdefault((pid, side), []).append((name or cls.value, _count(count.value)))
        return {key: sorted(found, key=lambda cn: (-cn[1], cn[0]))[:40] for key, found in sorted(stats.items())}


def _count(text: str) -> int:
    """A count an endpoint sent, as a whole number (0 for anything else: ``NaN``, ``INF``,
    words, a negative number)."""
    try:
        value = float(text)
    except ValueError:
        return 0
    return int(value) if math.isfinite(value) and value > 0 else 0


def _more_popular(qid: str, other: str, stats: Mapping[str, EntityStats]) -> bool:
    """Whether ``qid`` is more popular than ``other`` (ties: the lower id, as the label index)."""
    def rank(q: str) -> tuple[int, int]:
        st = stats.get(q)
        return (st.degree if st else 0, -int(q[1:]))
    return rank(qid) > rank(other)


def _name_query(literals: Sequence[str]) -> str:
    """Every entity one of ``literals`` names, by label or alias."""
    values = " ".join(literals)
    return "SELECT ?name ?s ?k WHERE { " + " UNION ".join(  # fixed predicates: index lookups, no scan
        f"{{ VALUES ?name {{ {values} }} ?s {iri_ref(p)} ?name BIND({iri_ref(p)} AS ?k) }}"
        for p in (RDFS_LABEL, SKOS_ALT)) + " }"


def open_index(settings: Settings, kg: KG) -> KGIndex:
    """The index of the configured KG: an endpoint's when one is set, else the label index
    of the embedded store's source (built when missing)."""
    from kg.build import ensure_label_index

    profile = endpoint_profile(settings)
    if profile is None:
        return ensure_label_index(Path(settings.kg_source), Path(settings.cache_dir))
    read_s = min(settings.timeout_s, settings.kg_read_timeout_s)
    search = (EntitySearch(profile.search_url, timeout_s=read_s, user_agent=settings.user_agent)
              if profile.search_url else None)
    return EndpointIndex(kg, profile, timeout_s=read_s, search=search,
                         startup_timeout_s=settings.kg_budget_s)
