"""The label index's name keys as RDF, for an own endpoint to hold beside its KG.

The label index links a name by more than its exact spelling: its normalized and folded
keys, a person's surname alone, a sound-alike key across scripts (« Потомак » for
"Potomac"), and close vocabulary words (« county » for "country").  Those keys are made
from every name of the KG, so an endpoint cannot make them per question without reading
every label (a scan).  An own endpoint can hold them instead, as Wikidata holds its
search index beside WDQS: :func:`write_name_keys` writes them as N-Quads in one named
graph (:data:`GRAPH`), to load beside the KG (``oxigraph load``, QLever's index builder,
Virtuoso's bulk loader), and :class:`kg.endpoint.EndpointIndex` reads them with exact
lookups through ``VALUES`` when the graph is there.  Normal queries read the default graph
and never see them.

One triple per index row.  Its subject is an IRI that carries the row (entity, kind bits,
languages, popularity, Latin form), its object the key looked up::

    <urn:kgqa:n:64:1:de,en>                  <urn:kgqa:key>    "berlin" .  # name key of Q64
    <urn:kgqa:p:179444:17:532:potomacriver>  <urn:kgqa:sound>  "btmkrbr" . # sound-alike key
    <urn:kgqa:t:12:berlin>                   <urn:kgqa:token>  "berlin" .  # word, in 12 names
    <urn:kgqa:t:12:berlin>                   <urn:kgqa:prefix> "ber" .     # its 3-5 letter starts
    <urn:kgqa:c:P19:o:515:40210>             <urn:kgqa:classes> "P19" .  # 40210 of P19's objects are cities

The last kind are the class statistics of every property's ends (the label index's, which
an endpoint otherwise computes with an aggregate over its whole KG: a minute of both cores
for the union KG, at every client's start).

:func:`served_store` makes a copy of a built store with the graph loaded
(``kgqa kg-serve`` serves it).
"""

from __future__ import annotations

import gzip
import hashlib
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import quote, unquote

import pyoxigraph

from core.errors import KGSourceError
from kg.labels import DB_NAME, LITERAL_NAMES, SCHEMA_VERSION, NameHit, similar_token_reads, similar_tokens_of
from kg.sparql import iri_ref, literal
from kg.store import KGPaths

if TYPE_CHECKING:
    from kg.client import QueryResult

GRAPH = "urn:kgqa:names"
KEY = "urn:kgqa:key"
SOUND = "urn:kgqa:sound"
TOKEN = "urn:kgqa:token"
PREFIX = "urn:kgqa:prefix"
CLASSES = "urn:kgqa:classes"
FORMAT = 2
"""The version of the graph's rows (2: the class statistics added); a served store built
with another is built again."""
PREFIX_LENGTHS = (3, 4, 5)
"""The starts of a word kept as prefix keys; a longer prefix is looked up by its first
five letters and the rest compared on the client."""
SERVED = "served"  # the directories, beside a built store, of its copy with the keys loaded


@dataclass(frozen=True)
class NameRow:
    """A name key's entity (``Q…``), its kind bits and the languages of its names."""

    qid: str
    kind: int
    langs: tuple[str, ...]


@dataclass(frozen=True)
class SoundRow:
    """A sound-alike key's entity, kind bits, popularity (degree) and the name's Latin form."""

    qid: str
    kind: int
    degree: int
    latin: str


@dataclass(frozen=True)
class TokenRow:
    """A vocabulary word and how many names hold it."""

    token: str
    df: int


# --------------------------------------------------------------------------- row IRIs


def name_iri(ent: int, kind: int, langs: str) -> str:
    return f"urn:kgqa:n:{ent}:{kind}:{quote(langs, safe=',-')}"


def sound_iri(ent: int, kind: int, degree: int, latin: str) -> str:
    return f"urn:kgqa:p:{ent}:{kind}:{degree}:{quote(latin, safe='')}"


def token_iri(token: str, df: int) -> str:
    return f"urn:kgqa:t:{df}:{quote(token, safe='')}"


def _number(text: str) -> bool:
    """ASCII digits only, and few of them (an endpoint's IRI is untrusted: ``²`` is a digit to
    ``str.isdigit`` and not to ``int``)."""
    return text.isascii() and text.isdigit() and len(text) <= 18


def parse_name(iri: str) -> NameRow | None:
    """The row an ``urn:kgqa:n:`` IRI carries (``None`` for anything else)."""
    parts = iri.split(":")
    if len(parts) != 6 or parts[:3] != ["urn", "kgqa", "n"] or not (_number(parts[3]) and _number(parts[4])):
        return None
    langs = unquote(parts[5])
    return NameRow(f"Q{parts[3]}", int(parts[4]), tuple(langs.split(",")) if langs else ())


def parse_sound(iri: str) -> SoundRow | None:
    """The row an ``urn:kgqa:p:`` IRI carries (``None`` for anything else)."""
    parts = iri.split(":")
    if len(parts) != 7 or parts[:3] != ["urn", "kgqa", "p"] or not all(_number(p) for p in parts[3:6]):
        return None
    return SoundRow(f"Q{parts[3]}", int(parts[4]), int(parts[5]), unquote(parts[6]))


def parse_token(iri: str) -> TokenRow | None:
    """The row an ``urn:kgqa:t:`` IRI carries (``None`` for anything else)."""
    parts = iri.split(":", 4)
    if len(parts) != 5 or parts[:3] != ["urn", "kgqa", "t"] or not _number(parts[3]):
        return None
    return TokenRow(unquote(parts[4]), int(parts[3]))


# --------------------------------------------------------------------------- writing


def class_iri(pid: str, side: str, cls: int, n: int) -> str:
    return f"urn:kgqa:c:{quote(pid, safe='')}:{side}:{cls}:{n}"


@dataclass(frozen=True)
class ClassRow:
    """How many of a property's subjects (``side`` ``s``) or objects (``o``) have a class:
    ``code`` is the class's number (``Q…``), or minus a literal kind's (:data:`LITERAL_NAMES`)."""

    pid: str
    side: str
    code: int
    n: int

    @property
    def cls(self) -> str:
        """The class (``Q…``), or the literal kind (``date``, ``number``, ``string``)."""
        return f"Q{self.code}" if self.code > 0 else LITERAL_NAMES.get(-self.code, "string")


def parse_class(iri: str) -> ClassRow | None:
    parts = iri.split(":")
    if len(parts) != 7 or parts[:3] != ["urn", "kgqa", "c"] or parts[4] not in ("s", "o"):
        return None
    cls, n = parts[5], parts[6]
    if not (_number(cls.removeprefix("-")) and _number(n)):
        return None
    return ClassRow(unquote(parts[3]), parts[4], int(cls), int(n))


def _quad(subject: str, predicate: str, key: str) -> str:
    return f"<{subject}> <{predicate}> {literal(key)} <{GRAPH}> .\n"  # SPARQL's string escapes are N-Quads' too


def name_key_quads(index_db: Path) -> Iterator[str]:
    """The N-Quads lines of a label index's name keys, sound-alike keys, vocabulary and
    property class statistics."""
    conn = sqlite3.connect(f"file:{index_db}?mode=ro", uri=True)
    try:
        for key, ent, kind, langs in conn.execute("SELECT key, ent, kind, langs FROM name"):
            yield _quad(name_iri(ent, kind, langs), KEY, key)
        for key, ent, kind, latin, degree in conn.execute(
                "SELECT p.key, p.ent, p.kind, p.latin, COALESCE(e.degree, 0) FROM phon p "
                "LEFT JOIN entity e ON e.ent = p.ent"):
            yield _quad(sound_iri(ent, kind, degree, latin), SOUND, key)
        for tok, df in conn.execute("SELECT tok, df FROM token"):
            subject = token_iri(tok, df)
            yield _quad(subject, TOKEN, tok)
            for n in PREFIX_LENGTHS:
                if len(tok) >= n:
                    yield _quad(subject, PREFIX, tok[:n])
        for pid, side, cls, n in conn.execute("SELECT pid, side, cls, n FROM prop_class"):
            yield _quad(class_iri(pid, side, cls, n), CLASSES, pid)
    finally:
        conn.close()


def write_name_keys(labels_dir: Path, out: Path) -> int:
    """Write the name keys of the label index in ``labels_dir`` to ``out`` (N-Quads,
    gzipped when it ends in ``.gz``); returns the number of quads."""
    db = labels_dir / DB_NAME
    if not db.is_file():
        raise KGSourceError(db, "label index is not built; run `kgqa build-kg`")
    n = 0
    opener = gzip.open if out.name.endswith(".gz") else open
    with opener(out, "wt", encoding="utf-8") as fh:  # type: ignore[operator]
        for line in name_key_quads(db):
            fh.write(line)
            n += 1
    return n


# --------------------------------------------------------------------------- reading


class Cache(Protocol):
    """A cache of what the endpoint told (:class:`kg.endpoint.TTLCache`)."""

    def get_many(self, keys: Iterable[Hashable]) -> tuple[dict[Any, Any], list[Any]]: ...

    def put_many(self, values: Mapping[Any, Any]) -> None: ...


Queries = Callable[[Sequence[str]], list["QueryResult"]]
"""Runs SPARQL queries (concurrently) and returns their results in order."""

CHUNK = 4000  # keys per request


def keys_query(wanted: Sequence[tuple[str, str]]) -> str:
    """The rows holding each ``(predicate, key)`` in the name-key graph: one request (the
    keys are the question's words: escaped literals)."""
    values = " ".join(f"({iri_ref(predicate)} {literal(key)})" for predicate, key in wanted)
    return f"SELECT ?r ?p ?k WHERE {{ GRAPH {iri_ref(GRAPH)} {{ VALUES (?p ?k) {{ {values} }} ?r ?p ?k }} }}"


HAS_KEYS = f"ASK {{ GRAPH <{GRAPH}> {{ ?r <{KEY}> ?k }} }}"
"""Whether an endpoint holds the name-key graph."""
CLASS_ROWS = f"SELECT ?r WHERE {{ GRAPH <{GRAPH}> {{ ?r <{CLASSES}> ?p }} }}"
"""Every class-statistics row of the graph (about ten thousand for the union KG)."""


class NameKeys:
    """The label index's reads (names, sound-alikes, vocabulary) answered from the name-key
    graph an endpoint holds, with the label index's semantics row for row; what the
    endpoint told is cached (``cache``, per predicate and key)."""

    def __init__(self, queries: Queries, cache: Cache) -> None:
        self._queries = queries
        self._cache = cache

    def _read(self, wanted: Iterable[tuple[str, str]]) -> dict[tuple[str, str], list[str]]:
        """The row IRIs of every ``(predicate, key)``: cached ones from the cache, the others
        in one request per :data:`CHUNK` keys (concurrently)."""
        found, missing = self._cache.get_many(sorted(set(wanted)))
        if missing:
            fresh: dict[tuple[str, str], list[str]] = {pk: [] for pk in missing}
            queries = [keys_query(missing[i:i + CHUNK]) for i in range(0, len(missing), CHUNK)]
            for result in self._queries(queries):
                for row in result.rows:
                    r, p, k = row.get("r"), row.get("p"), row.get("k")
                    if r is not None and p is not None and k is not None and (p.value, k.value) in fresh:
                        fresh[(p.value, k.value)].append(r.value)
            self._cache.put_many(fresh)
            found.update(fresh)
            # a word found by its prefix is a word known: its own row is the same IRI
            words = {(TOKEN, row.token): [iri] for (p, _k), iris in fresh.items() if p == PREFIX
                     for iri in iris if (row := parse_token(iri))}
            self._cache.put_many({pk: iris for pk, iris in words.items() if pk not in found})
        return found

    def _rows(self, predicate: str, keys: Iterable[str]) -> dict[str, list[str]]:
        return {k: iris for (_p, k), iris in self._read((predicate, k) for k in keys).items()}

    def prefetch(self, *, similar: Iterable[str] = (), prefixes: Iterable[str] = (), sounds: Iterable[str] = ()
                 ) -> None:
        """Read, in one request, what :meth:`similar_tokens` of ``similar``,
        :meth:`tokens_with_prefix` of ``prefixes`` and :meth:`lookup_phonetic` of ``sounds``
        will read."""
        wanted = [(SOUND, k) for k in sounds if k]
        for token in similar:
            variants, prefix = similar_token_reads(token)
            wanted += [(TOKEN, v) for v in variants]
            if prefix is not None:
                wanted.append((PREFIX, prefix[:PREFIX_LENGTHS[-1]]))
        wanted += [(PREFIX, p[:PREFIX_LENGTHS[-1]]) for p in prefixes if len(p) >= PREFIX_LENGTHS[0]]
        if wanted:
            self._read(wanted)

    def lookup(self, keys: Iterable[str]) -> dict[str, list[NameHit]]:
        """:meth:`kg.labels.LabelIndex.lookup`: the entities of each name key (keys with hits)."""
        out: dict[str, list[NameHit]] = {}
        for key, iris in self._rows(KEY, (k for k in keys if k)).items():
            rows = sorted((row for iri in iris if (row := parse_name(iri))), key=lambda r: int(r.qid[1:]))
            if rows:
                out[key] = [NameHit(r.qid, r.kind, r.langs) for r in rows]
        return out

    def lookup_phonetic(self, keys: Iterable[str], *, per_key: int = 100) -> dict[str, list[tuple[NameHit, str]]]:
        """:meth:`kg.labels.LabelIndex.lookup_phonetic`: the names sounding like each key,
        those of the best connected entities first."""
        out = {}
        for key, iris in self._rows(SOUND, (k for k in keys if k)).items():
            rows = sorted((row for iri in iris if (row := parse_sound(iri))),
                          key=lambda r: (-r.degree, int(r.qid[1:]), r.kind, r.latin))
            if rows:
                out[key] = [(NameHit(r.qid, r.kind, ()), r.latin) for r in rows[:per_key]]
        return out

    def token_df(self, tokens: Iterable[str]) -> dict[str, int]:
        """:meth:`kg.labels.LabelIndex.token_df`: how many names hold each word (absent ones left out)."""
        out = {}
        for tok, iris in self._rows(TOKEN, tokens).items():
            rows = [row for iri in iris if (row := parse_token(iri)) and row.token == tok]
            if rows:
                out[tok] = rows[0].df
        return out

    def tokens_with_prefix(self, prefix: str, limit: int = 5000, *, max_len: int | None = None
                           ) -> list[tuple[str, int]]:
        """:meth:`kg.labels.LabelIndex.tokens_with_prefix` for a prefix of three letters or
        more (the graph keys words by their first 3-5 letters; shorter ones find none)."""
        if len(prefix) < PREFIX_LENGTHS[0]:
            return []
        key = prefix[:PREFIX_LENGTHS[-1]]
        rows = (row for iri in self._rows(PREFIX, [key]).get(key, ()) if (row := parse_token(iri)))
        longest = max_len if max_len is not None else 10_000
        found = sorted((r.token, r.df) for r in rows if r.token.startswith(prefix) and len(r.token) <= longest)
        return found[:limit]

    def similar_tokens(self, token: str, *, limit: int = 4) -> list[tuple[str, float]]:
        """:meth:`kg.labels.LabelIndex.similar_tokens` (one batch of requests, then cached)."""
        self.prefetch(similar=[token])
        return similar_tokens_of(self, token, limit)

    def property_classes(self) -> dict[tuple[str, str], list[tuple[str, int]]]:
        """:meth:`kg.labels.LabelIndex.property_classes`, read in one request (not cached: the
        caller keeps it); empty when the graph holds none (written before they were added)."""
        rows = sorted((found for result in self._queries([CLASS_ROWS]) for row in result.rows
                       if (r := row.get("r")) is not None and (found := parse_class(r.value)) is not None),
                      key=lambda c: (c.pid, c.side, -c.n, c.code))  # the label index's order
        table: dict[tuple[str, str], list[tuple[str, int]]] = {}
        for row in rows:
            table.setdefault((row.pid, row.side), []).append((row.cls, row.n))
        return table


# --------------------------------------------------------------------------- serving


def served_store(paths: KGPaths) -> Path:
    """The store ``kgqa kg-serve`` serves: a copy of the built store with its name keys
    loaded, built once per label index beside it (``<root>/served-<the index's identity>``;
    about 50 s and 0.7 GB for the union KG).  The label index must be built.  Raises
    :class:`KGSourceError` naming what failed."""
    db = paths.labels / DB_NAME
    if not db.is_file():
        raise KGSourceError(db, "label index is not built; run `kgqa build-kg`")
    target = paths.root / f"{SERVED}-{_index_identity(db)}"  # a rebuilt label index gets a new copy
    if target.is_dir():
        return target
    for stale in paths.root.glob(f"{SERVED}-*"):
        shutil.rmtree(stale, ignore_errors=True)
    work = Path(tempfile.mkdtemp(prefix=f".{SERVED}-", dir=paths.root))
    try:
        shutil.copytree(paths.store, work / "store", ignore=shutil.ignore_patterns("LOCK"))
        store = pyoxigraph.Store(str(work / "store"))
        try:
            add_name_keys(store, paths.labels, work)
        finally:
            del store
        try:
            os.rename(work / "store", target)
        except OSError:
            if not target.is_dir():  # else another process finished first: its copy is the same
                raise
    except OSError as exc:
        raise KGSourceError(target, f"cannot build the served store: {exc}") from exc
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return target


def _index_identity(db: Path) -> str:
    st = db.stat()
    return hashlib.sha256(f"{SCHEMA_VERSION}|{FORMAT}|{st.st_size}|{st.st_mtime_ns}".encode()).hexdigest()[:12]


def add_name_keys(store: pyoxigraph.Store, labels_dir: Path, work: Path) -> int:
    """Load the name keys of the label index in ``labels_dir`` into ``store`` (through a
    file in ``work``, removed after); returns the number of quads."""
    quads = work / "name-keys.nq"
    n = write_name_keys(labels_dir, quads)
    try:
        store.bulk_load(path=str(quads), format=pyoxigraph.RdfFormat.N_QUADS)
        store.flush()
    except (SyntaxError, ValueError, OSError) as exc:
        raise KGSourceError(quads, f"cannot load the name keys: {exc}") from exc
    finally:
        quads.unlink(missing_ok=True)
    return n
