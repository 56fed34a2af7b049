"""The entity-linking label index, built beside the store from every ``rdfs:label`` and
``skos:altLabel`` in every language.

Names are normalized (NFKC, casefold, punctuation to spaces, CJK characters as single
tokens) and stored twice when diacritics matter (as written and diacritic-folded), so a
lookup is language-agnostic: "Berlin" in a German question finds the English label.
Each entity carries a popularity prior (its degree in the KG, labels excluded) and its
``P31`` in-degree (how many instances a class has).  A token table supports the fuzzy
fallback for inflected forms and typos ("Berlins", "Эйнштейна", "Einstien").

Everything lives in one read-only SQLite file (``labels.sqlite``), so opening is
instant and a lookup costs a few B-tree probes.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import sqlite3
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import pyoxigraph
from rapidfuzz.distance import DamerauLevenshtein

from core.errors import KGSourceError, LabelIndexOutdated
from core.text import NAME_PARTS, fold, is_cjk, name_keys, normalize, sounds_of
from kg.cldr import NAME_LANGUAGES, cldr_code, code_name, kind_of
from kg.sparql import RDFS_LABEL, SKOS_ALT, WD, WDT
from lang.others import NAME_ENDINGS

if TYPE_CHECKING:
    pass

DB_NAME = "labels.sqlite"
SCHEMA_VERSION = 4  # 3: phonetic (cross-script) name keys; 4: CLDR names of countries, languages, currencies
TOP_CLASSES = 40  # classes kept per (property, side) in the class statistics
MAX_KEY_TOKENS = 24

KIND_LABEL = 1
KIND_ALT = 2
KIND_FOLDED = 4
KIND_PARTIAL = 8  # the last word of a person's name ("Einstein" for "Albert Einstein")
KIND_PHONETIC = 16  # a cross-script sound-alike key (``phonetic_keys``), never exact
KIND_CLDR = 32  # CLDR's name of a country, language or currency (:mod:`kg.cldr`): a name in its languages only
_KG_NAME = KIND_LABEL | KIND_ALT
HUMAN_CLASS = "Q5"  # Wikidata's class of people: their surnames are indexed as partial names

# --------------------------------------------------------------------------- index records


@dataclass(frozen=True)
class NameHit:
    """One entity a lookup key names."""

    qid: str
    kind: int  # KIND_* bits
    langs: tuple[str, ...]

    @property
    def is_label(self) -> bool:
        """True when the key comes from an ``rdfs:label`` (not only an alias)."""
        return bool(self.kind & KIND_LABEL)

    @property
    def exact(self) -> bool:
        """True when the key matches a full name as written (not folded, partial or phonetic)."""
        return bool(self.kind & (_KG_NAME | KIND_CLDR)) and not self.kind & KIND_PHONETIC

    @property
    def partial(self) -> bool:
        """True when the key only matches the last word of a person's name."""
        return bool(self.kind & KIND_PARTIAL) or not self.kind & (_KG_NAME | KIND_CLDR | KIND_FOLDED | KIND_PHONETIC)

    def names_in(self, lang: str) -> bool:
        """Whether the key is a name in a question in ``lang``: a KG name is one in every
        language (names are language-agnostic); a name only CLDR gives (such as German
        « Island » for Iceland) only in the languages CLDR gives it in."""
        return not (self.kind & KIND_CLDR and not self.kind & _KG_NAME) or lang in self.langs

    @property
    def phonetic(self) -> bool:
        """True when only the sound-alike skeleton matched (a cross-script name)."""
        return bool(self.kind & KIND_PHONETIC)


@dataclass(frozen=True)
class EntityStats:
    """Popularity prior of an entity."""

    degree: int
    instances: int  # how many subjects have ``P31`` this entity (classes)
    names: int  # how many distinct names it has


# --------------------------------------------------------------------------- build


LITERAL_NAMES = {1: "date", 2: "number", 3: "string"}
_DATE_TYPES = ("dateTime", "date", "gYear", "gYearMonth")
_NUMBER_TYPES = ("decimal", "integer", "double", "float", "int", "long", "nonNegativeInteger", "positiveInteger")


def _literal_kind(lit: pyoxigraph.Literal) -> int:
    dt = lit.datatype.value.rsplit("#", 1)[-1] if lit.datatype is not None else ""
    if dt in _DATE_TYPES:
        return 1
    if dt in _NUMBER_TYPES:
        return 2
    return 3


def _qid(iri: str) -> int | None:
    if iri.startswith(WD) and len(iri) > len(WD) + 1 and iri[len(WD)] == "Q":
        tail = iri[len(WD) + 1:]
        return int(tail) if tail.isdigit() else None
    return None


class _Collector:
    """Accumulates names, degrees and property labels in one pass over the store."""

    def __init__(self) -> None:
        self.names: dict[tuple[str, int], list] = {}
        self.degree: Counter[int] = Counter()
        self.instances: Counter[int] = Counter()
        self.name_count: Counter[int] = Counter()
        self.prop_labels: list[tuple[str, str, str, int]] = []
        self.humans: set[int] = set()
        self.surnames: dict[int, set[tuple[str, str]]] = defaultdict(set)
        self.isa: dict[int, list[int]] = defaultdict(list)
        self.facts: list[tuple[int, str, int]] = []  # (subject, property, object or -literal kind)
        self.phonetic: dict[tuple[str, int, str], int] = {}  # (key, entity, Latin form) -> kind
        self.english: dict[int, list[str]] = defaultdict(list)  # English labels, then aliases (for CLDR names)
        self._entity = -1  # the entity whose names' keys are remembered (a store lists each one's names together)
        self._keys_of: dict[str, tuple[str, str, set[str], str, str | None]] = {}

    def _forms_of(self, qid: int, text: str) -> tuple[str, str, set[str], str, str | None]:
        """``(normalized, folded, sound keys, Latin form, surname or None)`` of a name, made once
        per entity and text (an entity's aliases repeat one text in many languages)."""
        if qid != self._entity:
            self._entity = qid
            self._keys_of.clear()
        made = self._keys_of.get(text)
        if made is None:
            norm, folded = name_keys(text)
            keys, latin = sounds_of(folded)
            parts = NAME_PARTS.split(text.strip())
            last = normalize(parts[-1]) if 2 <= len(parts) <= 4 else None
            if last is not None and not (len(last) >= 3 or (last and is_cjk(last[0]) and len(last.split()) >= 2)):
                last = None
            made = self._keys_of[text] = (norm, folded, keys, latin, last)
        return made

    def add_name(self, qid: int, text: str, lang: str, kind: int) -> None:
        norm, folded, keys, latin, last = self._forms_of(qid, text)
        if not norm or len(norm.split()) > MAX_KEY_TOKENS:
            return
        if kind & KIND_CLDR:  # no sound-alike or surname keys, and the KG's statistics stay its own
            self._add_keys(qid, norm, folded, lang, kind)
            return
        if lang == "en" and kind == KIND_LABEL:
            self.english[qid].insert(0, text)  # labels before aliases
        elif lang == "en":
            self.english[qid].append(text)
        self.name_count[qid] += 1
        for key in keys:
            self.phonetic[(key, qid, latin)] = self.phonetic.get((key, qid, latin), 0) | kind
        if last is not None:
            self.surnames[qid].add((last, lang))
        self._add_keys(qid, norm, folded, lang, kind)

    def _add_keys(self, qid: int, norm: str, folded: str, lang: str, kind: int) -> None:
        for key, extra in ((norm, 0), (folded, KIND_FOLDED)):
            slot = self.names.get((key, qid))
            if slot is None:
                slot = self.names[(key, qid)] = [0, set()]
            slot[0] |= kind if extra == 0 else KIND_FOLDED | (kind & KIND_CLDR)
            slot[1].add(lang)

    def add_cldr_names(self) -> None:
        """Add CLDR's names, in each of :data:`kg.cldr.NAME_LANGUAGES`, of every country,
        language and currency (by its ``P31`` classes) one of whose English names CLDR knows
        (labels first: Poland's English label is "Polish" here, "Poland" an alias).  When
        several entities carry the same English name (France, and a historical state
        labelled "France"), only the one with the highest degree gets them."""
        best: dict[tuple[str, str], int] = {}
        for qid, english in self.english.items():
            kind = kind_of(f"Q{c}" for c in self.isa.get(qid, ()))
            code = next((c for name in english if (c := cldr_code(name, kind))), None) if kind else None
            if kind and code:
                held = best.get((kind, code))
                if held is None or (self.degree[qid], -qid) > (self.degree[held], -held):
                    best[(kind, code)] = qid
        for (kind, code), qid in sorted(best.items()):
            for lang in NAME_LANGUAGES:
                name = code_name(code, kind, lang)
                if name:
                    self.add_name(qid, name, lang, KIND_CLDR)

    def add_quad(self, quad: pyoxigraph.Quad) -> None:
        pred = quad.predicate.value
        subj, obj = quad.subject, quad.object
        if pred in (RDFS_LABEL, SKOS_ALT):
            if not isinstance(obj, pyoxigraph.Literal):
                return
            kind = KIND_LABEL if pred == RDFS_LABEL else KIND_ALT
            qid = _qid(subj.value)
            if qid is not None:
                self.add_name(qid, obj.value, obj.language or "", kind)
            elif subj.value.startswith(WD + "P") or subj.value.startswith(WDT + "P"):
                pid = subj.value.rsplit("/", 1)[-1]
                self.prop_labels.append((pid, obj.language or "", obj.value, kind))
            return
        if not pred.startswith(WDT):
            return
        s = _qid(subj.value)
        if s is not None:
            self.degree[s] += 1
        pid = pred[len(WDT):]
        if isinstance(obj, pyoxigraph.NamedNode):
            o = _qid(obj.value)
            if o is not None:
                self.degree[o] += 1
                if pid == "P31":
                    self.instances[o] += 1
                    if s is not None:
                        self.isa[s].append(o)
                    if obj.value == WD + HUMAN_CLASS and s is not None:
                        self.humans.add(s)
                elif s is not None:
                    self.facts.append((s, pid, o))
        elif isinstance(obj, pyoxigraph.Literal) and s is not None:
            self.facts.append((s, pid, -_literal_kind(obj)))

    def property_classes(self) -> list[tuple[str, str, int, int]]:
        """``(pid, side, class, count)``: the most frequent classes of each property's subjects
        (side ``s``) and objects (side ``o``); literal objects count as negative classes."""
        stats: dict[tuple[str, str], Counter[int]] = defaultdict(Counter)
        for s, pid, o in self.facts:
            stats[(pid, "s")].update(self.isa.get(s, ()))
            if o < 0:
                stats[(pid, "o")][o] += 1
            else:
                stats[(pid, "o")].update(self.isa.get(o, ()))
        return [(pid, side, cls, n) for (pid, side), counter in sorted(stats.items())
                for cls, n in counter.most_common(TOP_CLASSES)]

    def add_partial_names(self) -> None:
        """Index the last word of every multi-word person name (surnames)."""
        partial: dict[tuple[str, int], list] = {}
        for ent, names in self.surnames.items():
            if ent not in self.humans:
                continue
            for last, lang in names:
                if last.isdigit():
                    continue
                for key in {last, fold(last)}:
                    if (key, ent) not in self.names:
                        partial.setdefault((key, ent), [KIND_PARTIAL, set()])[1].add(lang)
                keys, latin = sounds_of(fold(normalize(last)))
                for key in keys:
                    self.phonetic.setdefault((key, ent, latin), KIND_PARTIAL)
        self.names.update(partial)
        self.surnames.clear()


_SCHEMA = """
CREATE TABLE meta(k TEXT PRIMARY KEY, v TEXT) WITHOUT ROWID;
CREATE TABLE name(key TEXT NOT NULL, ent INTEGER NOT NULL, kind INTEGER NOT NULL, langs TEXT NOT NULL,
                  PRIMARY KEY(key, ent)) WITHOUT ROWID;
CREATE TABLE entity(ent INTEGER PRIMARY KEY, degree INTEGER NOT NULL, instances INTEGER NOT NULL,
                    names INTEGER NOT NULL);
CREATE TABLE token(tok TEXT PRIMARY KEY, df INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE prop_label(pid TEXT NOT NULL, lang TEXT NOT NULL, label TEXT NOT NULL, kind INTEGER NOT NULL);
CREATE TABLE isa(ent INTEGER NOT NULL, cls INTEGER NOT NULL, PRIMARY KEY(ent, cls)) WITHOUT ROWID;
CREATE TABLE prop_class(pid TEXT NOT NULL, side TEXT NOT NULL, cls INTEGER NOT NULL, n INTEGER NOT NULL);
CREATE TABLE phon(key TEXT NOT NULL, ent INTEGER NOT NULL, latin TEXT NOT NULL, kind INTEGER NOT NULL,
                  PRIMARY KEY(key, ent, latin)) WITHOUT ROWID;
"""


def _write_db(col: _Collector, db_path: Path) -> dict[str, int]:
    conn = sqlite3.connect(str(db_path))
    try:
        conn.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA page_size=4096;")
        conn.executescript(_SCHEMA)
        rows = sorted((key, ent, slot[0], ",".join(sorted(slot[1]))) for (key, ent), slot in col.names.items())
        conn.executemany("INSERT INTO name VALUES (?,?,?,?)", rows)
        df: Counter[str] = Counter()
        for key in {r[0] for r in rows}:
            df.update(set(key.split()))
        conn.executemany("INSERT INTO token VALUES (?,?)", sorted(df.items()))
        ents = set(col.degree) | set(col.name_count)
        conn.executemany(
            "INSERT INTO entity VALUES (?,?,?,?)",
            sorted((e, col.degree.get(e, 0), col.instances.get(e, 0), col.name_count.get(e, 0)) for e in ents),
        )
        conn.executemany("INSERT INTO prop_label VALUES (?,?,?,?)", sorted(set(col.prop_labels)))
        conn.executemany("INSERT INTO isa VALUES (?,?)", sorted({(e, c) for e, cs in col.isa.items() for c in cs}))
        conn.executemany("INSERT INTO prop_class VALUES (?,?,?,?)", col.property_classes())
        conn.executemany("INSERT INTO phon VALUES (?,?,?,?)", sorted(
            (key, ent, latin, kind | KIND_PHONETIC) for (key, ent, latin), kind in col.phonetic.items()))
        counts = {"names": len(rows), "tokens": len(df), "entities": len(ents), "prop_labels": len(col.prop_labels),
                  "phonetic": len(col.phonetic)}
        meta = {"schema": str(SCHEMA_VERSION), **{k: str(v) for k, v in counts.items()}}
        conn.executemany("INSERT INTO meta VALUES (?,?)", sorted(meta.items()))
        conn.commit()
        conn.execute("VACUUM")
    finally:
        conn.close()
    return counts


def build_label_index(store: pyoxigraph.Store, out_dir: Path) -> dict[str, int]:
    """Build the label index of ``store`` into ``out_dir`` (replaced atomically).

    Returns counts of what was indexed (names, tokens, entities, property labels).
    """
    out_dir = Path(out_dir)
    started = time.monotonic()
    col = _Collector()
    for quad in store.quads_for_pattern(None, None, None):
        col.add_quad(quad)
    col.add_partial_names()
    col.add_cldr_names()
    tmp = out_dir.with_name(f"{out_dir.name}.tmp-{os.getpid()}-{threading.get_ident()}")
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    try:
        counts = _write_db(col, tmp / DB_NAME)
        (tmp / "build.json").write_text(json.dumps({**counts, "seconds": round(time.monotonic() - started, 1)}))
        if out_dir.exists():
            shutil.rmtree(out_dir)
        tmp.rename(out_dir)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    normalize.cache_clear()
    fold.cache_clear()
    return counts


# --------------------------------------------------------------------------- lookup


class LabelIndex:
    """Read-only access to a built label index (thread-safe: one connection per thread)."""

    def __init__(self, db_path: Path) -> None:
        self.path = Path(db_path)
        self._local = threading.local()
        self._prop_labels: dict[str, dict[str, list[str]]] | None = None
        self._prop_classes: dict[tuple[str, str], list[tuple[str, int]]] | None = None
        meta = dict(self._conn().execute("SELECT k, v FROM meta").fetchall())
        if meta.get("schema") != str(SCHEMA_VERSION):
            raise LabelIndexOutdated(self.path, meta.get("schema"), SCHEMA_VERSION)

    @classmethod
    def open(cls, directory: Path) -> LabelIndex:
        """Open the index in ``directory``; raises :class:`KGSourceError` naming the file."""
        db = Path(directory) / DB_NAME
        if not db.is_file():
            raise KGSourceError(db, "label index is not built; run `kgqa build-kg`")
        try:
            return cls(db)
        except sqlite3.DatabaseError as exc:
            raise KGSourceError(db, f"corrupt label index: {exc}") from exc

    def verify(self) -> None:
        """Check the whole file (``PRAGMA quick_check``, about a second for the full KG's
        index); raises :class:`KGSourceError` when SQLite finds it damaged."""
        try:
            problems = [row[0] for row in self._conn().execute("PRAGMA quick_check").fetchall()]
        except sqlite3.DatabaseError as exc:
            raise KGSourceError(self.path, f"corrupt label index: {exc}") from exc
        if problems != ["ok"]:
            raise KGSourceError(self.path, f"corrupt label index: {'; '.join(map(str, problems[:3]))}")

    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            uri = f"file:{self.path.resolve()}?mode=ro&immutable=1"
            conn = sqlite3.connect(uri, uri=True, check_same_thread=False)
            conn.execute("PRAGMA cache_size=-32000")
            self._local.conn = conn
        return conn

    def _query(self, sql: str, params: Sequence[object]) -> list[tuple]:
        try:
            return self._conn().execute(sql, params).fetchall()
        except sqlite3.DatabaseError as exc:
            raise KGSourceError(self.path, f"label index query failed: {exc}") from exc

    def lookup(self, keys: Iterable[str], *, lang: str = "",
               written: Mapping[str, str] | None = None) -> dict[str, list[NameHit]]:
        """Entities named by each normalized key (only keys with hits are returned); names
        are keyed normalized and language-agnostic here, so ``lang`` and ``written`` (what an
        endpoint needs, :class:`kg.index.KGIndex`) are not read."""
        wanted = sorted({k for k in keys if k})
        out: dict[str, list[NameHit]] = defaultdict(list)
        for start in range(0, len(wanted), 900):
            chunk = wanted[start:start + 900]
            marks = ",".join("?" * len(chunk))
            for key, ent, kind, langs in self._query(
                    f"SELECT key, ent, kind, langs FROM name WHERE key IN ({marks})", chunk):
                out[key].append(NameHit(f"Q{ent}", kind, tuple(langs.split(",")) if langs else ()))
        return dict(out)

    def prefetch(self, *, similar: Iterable[str] = (), prefixes: Iterable[str] = (), sounds: Iterable[str] = ()
                 ) -> None:
        """Nothing to read ahead: SQLite answers each read in microseconds."""
        del similar, prefixes, sounds

    def lookup_phonetic(self, keys: Iterable[str], *, per_key: int = 100) -> dict[str, list[tuple[NameHit, str]]]:
        """Entities whose name sounds like each phonetic key (:func:`phonetic_key`), each with
        the :func:`latin_form` of that name: ``{key: [(hit, Latin form), …]}``, at most
        ``per_key`` names per key (those of the best connected entities)."""
        wanted = sorted({k for k in keys if k})
        rows: dict[str, list[tuple[int, int, int, str]]] = defaultdict(list)
        for start in range(0, len(wanted), 900):
            chunk = wanted[start:start + 900]
            marks = ",".join("?" * len(chunk))
            for key, ent, kind, latin, degree in self._query(
                    f"SELECT p.key, p.ent, p.kind, p.latin, COALESCE(e.degree, 0) FROM phon p "
                    f"LEFT JOIN entity e ON e.ent = p.ent WHERE p.key IN ({marks})", chunk):
                rows[key].append((-degree, ent, kind, latin))
        out = {}
        for key, found in rows.items():
            found.sort()
            out[key] = [(NameHit(f"Q{ent}", kind, ()), latin) for _d, ent, kind, latin in found[:per_key]]
        return out

    def token_df(self, tokens: Iterable[str]) -> dict[str, int]:
        """How many names contain each token (absent tokens are left out)."""
        wanted = sorted(set(tokens))
        out: dict[str, int] = {}
        for start in range(0, len(wanted), 900):
            chunk = wanted[start:start + 900]
            marks = ",".join("?" * len(chunk))
            out.update(self._query(f"SELECT tok, df FROM token WHERE tok IN ({marks})", chunk))
        return out

    def tokens_with_prefix(self, prefix: str, limit: int = 5000, *, max_len: int | None = None
                           ) -> list[tuple[str, int]]:
        """Vocabulary tokens starting with ``prefix`` and at most ``max_len`` letters long
        (``(token, df)``, alphabetical)."""
        if not prefix:
            return []
        upper = prefix[:-1] + chr(ord(prefix[-1]) + 1)
        return [(t, d) for t, d in self._query(
            "SELECT tok, df FROM token WHERE tok >= ? AND tok < ? AND length(tok) <= ? LIMIT ?",
            (prefix, upper, max_len if max_len is not None else 10_000, limit))]

    def similar_tokens(self, token: str, *, limit: int = 4) -> list[tuple[str, float]]:
        """Vocabulary tokens close to ``token``: inflections (shared stem) and typos.

        Returns ``(token, similarity)`` best first, ``token`` itself excluded.
        """
        return similar_tokens_of(self, token, limit)

    def entity_stats(self, qids: Iterable[str]) -> dict[str, EntityStats]:
        """Degree prior, class size and name count of each known entity."""
        ids = sorted({int(q[1:]) for q in qids if q.startswith("Q") and q[1:].isdigit()})
        out: dict[str, EntityStats] = {}
        for start in range(0, len(ids), 900):
            chunk = ids[start:start + 900]
            marks = ",".join("?" * len(chunk))
            for ent, degree, inst, names in self._query(
                    f"SELECT ent, degree, instances, names FROM entity WHERE ent IN ({marks})", chunk):
                out[f"Q{ent}"] = EntityStats(degree, inst, names)
        return out

    def property_labels(self) -> dict[str, dict[str, list[str]]]:
        """``{pid: {lang: [label, alias, …]}}`` from the KG (labels before aliases)."""
        if self._prop_labels is None:
            table: dict[str, dict[str, list[str]]] = {}
            for pid, lang, label, _kind in self._query(
                    "SELECT pid, lang, label, kind FROM prop_label ORDER BY pid, lang, kind, label", ()):
                table.setdefault(pid, {}).setdefault(lang, []).append(label)
            self._prop_labels = table
        return self._prop_labels

    def classes_of(self, qids: Iterable[str]) -> dict[str, list[str]]:
        """The ``P31`` classes of each entity (entities without any are left out)."""
        ids = sorted({int(q[1:]) for q in qids if q.startswith("Q") and q[1:].isdigit()})
        out: dict[str, list[str]] = {}
        for start in range(0, len(ids), 900):
            chunk = ids[start:start + 900]
            marks = ",".join("?" * len(chunk))
            for ent, cls in self._query(f"SELECT ent, cls FROM isa WHERE ent IN ({marks}) ORDER BY ent, cls", chunk):
                out.setdefault(f"Q{ent}", []).append(f"Q{cls}")
        return out

    def property_classes(self) -> dict[tuple[str, str], list[tuple[str, int]]]:
        """``{(pid, "s"|"o"): [(class, count), …]}``: frequent classes of each property's subjects
        and objects, most frequent first; literal objects appear as ``date``, ``number``, ``string``."""
        if self._prop_classes is None:
            table: dict[tuple[str, str], list[tuple[str, int]]] = {}
            for pid, side, cls, n in self._query(
                    "SELECT pid, side, cls, n FROM prop_class ORDER BY pid, side, n DESC, cls", ()):
                name = f"Q{cls}" if cls > 0 else LITERAL_NAMES.get(-cls, "string")
                table.setdefault((pid, side), []).append((name, n))
            self._prop_classes = table
        return self._prop_classes

    def meta(self) -> dict[str, str]:
        """Build counts and schema version."""
        return dict(self._query("SELECT k, v FROM meta", ()))


class Vocabulary(Protocol):
    """The words of a KG's names and how many names hold each (the label index's token
    table, or the same rows held by an endpoint: :class:`kg.name_keys.NameKeys`)."""

    def token_df(self, tokens: Iterable[str]) -> dict[str, int]: ...

    def tokens_with_prefix(self, prefix: str, limit: int = 5000, *, max_len: int | None = None
                           ) -> list[tuple[str, int]]: ...


def similar_token_reads(token: str) -> tuple[dict[str, float], str | None]:
    """What :func:`similar_tokens_of` reads of the vocabulary for ``token``: the dictionary
    forms it looks up, with their similarity, and the prefix whose words it compares
    (``({}, None)`` for a word it leaves alone)."""
    if len(token) < 4 or is_cjk(token) or token.isdigit():
        return {}, None
    # inflection: the vocabulary holds a stem of the token ("berlins" -> "berlin"), or the
    # stem with another ending ("cities" -> "city", "германии" -> "германия")
    shortest = max(3 if len(token) >= 6 else 4, len(token) - 4)
    variants: dict[str, float] = {}
    for k in range(len(token) - 1, shortest - 1, -1):
        stem = token[:k]
        variants.setdefault(stem, 1.0 - 0.06 * (len(token) - k))
        for ending in _ENDINGS:
            variants.setdefault(stem + ending, 0.97 - 0.06 * (len(token) - k) - 0.02 * len(ending))
    variants.pop(token, None)
    return variants, token[:max(3, min(len(token) - 2, 5))]


def similar_tokens_of(index: Vocabulary, token: str, limit: int) -> list[tuple[str, float]]:
    """Vocabulary words close to ``token`` (:meth:`LabelIndex.similar_tokens`)."""
    variants, prefix = similar_token_reads(token)
    if prefix is None:
        return []
    scored: dict[str, float] = {}
    for cand, _df in index.token_df(variants).items():
        scored[cand] = max(scored.get(cand, 0.0), variants[cand])
    # shared stem, different ending ("москвы" -> "москва"), and typos ("einstien" -> "einstein")
    for cand, _df in index.tokens_with_prefix(prefix, limit=4000):
        if cand == token or abs(len(cand) - len(token)) > 3:
            continue
        common = _common_prefix(cand, token)
        dist = DamerauLevenshtein.distance(cand, token, score_cutoff=2)
        if dist <= 1 and len(token) >= 5:
            sim = 0.88
        elif common >= max(4, len(token) - 3) and common >= max(4, len(cand) - 3):
            sim = 0.9 - 0.03 * (len(token) + len(cand) - 2 * common)
        elif dist <= 2 and len(token) >= 8:
            sim = 0.78
        else:
            continue
        scored[cand] = max(scored.get(cand, 0.0), sim)
    scored.pop(token, None)
    # frequent vocabulary words are likelier lemmas ("cities" -> "city", not "citi")
    df = index.token_df(scored)
    boosted = {t: min(0.95, sim + 0.05 * math.log10(1 + df.get(t, 0))) for t, sim in scored.items()}
    return sorted(boosted.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]


_ENDINGS = NAME_ENDINGS  # lang/others.py


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n
