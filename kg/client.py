"""The :class:`KG` protocol and its two clients: the embedded pyoxigraph store and a
remote SPARQL endpoint over HTTP (Wikidata, QALD-10, ``oxigraph serve-read-only``)."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

import pyoxigraph

from core.errors import KGError, KGQueryError, KGTimeout, KGUnavailable
from core.resilience import DEFAULT_MAX_BYTES, Backoff, CircuitBreaker, ErrorTable, Fault, HttpCaller
from kg.sparql import RDFS_LABEL, SKOS_ALT, XSD, iri_ref, with_prefixes

log = logging.getLogger(__name__)

TermKind = Literal["uri", "literal", "bnode"]


@dataclass(frozen=True)
class Term:
    """One RDF term of a result row, in SPARQL-JSON terms."""

    kind: TermKind
    value: str
    datatype: str | None = None
    lang: str | None = None

    def to_json(self) -> dict[str, str]:
        """The SPARQL 1.1 JSON results binding for this term."""
        out = {"type": self.kind, "value": self.value}
        if self.lang:
            out["xml:lang"] = self.lang
        elif self.datatype:
            out["datatype"] = self.datatype
        return out

    @classmethod
    def from_json(cls, binding: dict[str, str]) -> Term:
        """Parse a SPARQL-JSON binding (``typed-literal`` is folded into ``literal``)."""
        kind = binding.get("type", "literal")
        kind = "literal" if kind == "typed-literal" else kind
        return cls(kind, binding["value"], binding.get("datatype"), binding.get("xml:lang"))  # type: ignore[arg-type]


@dataclass
class QueryResult:
    """A SELECT result (``vars`` + ``rows``) or an ASK result (``boolean``)."""

    vars: list[str] = field(default_factory=list)
    rows: list[dict[str, Term]] = field(default_factory=list)
    boolean: bool | None = None

    def column(self, var: str | None = None) -> list[Term]:
        """All bound values of ``var`` (default: the first projected variable)."""
        if not self.vars:
            return []
        name = var or self.vars[0]
        return [row[name] for row in self.rows if name in row]

    def is_empty(self) -> bool:
        """True for a SELECT with no bound values (ASK results are never empty)."""
        return self.boolean is None and not any(self.rows)


_DATE_TYPES = frozenset({"dateTime", "date", "gYear", "gYearMonth"})
_NUMBER_TYPES = frozenset({"decimal", "integer", "double", "float", "int", "long", "nonNegativeInteger"})


def value_kind(term: Term | None) -> str:
    """What a query value is: ``uri`` (also for ``None``), or a literal's ``date``,
    ``number`` or ``string`` by its XSD datatype."""
    if term is None or term.kind == "uri":
        return "uri"
    dt = (term.datatype or "").removeprefix(XSD)
    if dt in _DATE_TYPES:
        return "date"
    return "number" if dt in _NUMBER_TYPES else "string"


class KG(Protocol):
    """A SPARQL-queryable knowledge graph."""

    name: str

    def query(self, sparql: str, *, timeout_s: float | None = None, max_rows: int | None = None) -> QueryResult:
        """Run a SELECT or ASK query.  Standard prefixes are declared if missing.

        Raises :class:`KGQueryError`, :class:`KGTimeout` or :class:`KGUnavailable`.
        """
        ...


def _ensure_prefixes(sparql: str) -> str:
    return sparql if "PREFIX wd:" in sparql else with_prefixes(sparql)


def _term(node: object) -> Term:
    if isinstance(node, pyoxigraph.NamedNode):
        return Term("uri", node.value)
    if isinstance(node, pyoxigraph.Literal):
        lang = node.language
        return Term("literal", node.value, None if lang else node.datatype.value, lang)
    if isinstance(node, pyoxigraph.BlankNode):
        return Term("bnode", node.value)
    return Term("literal", str(node))


class Runner(Protocol):
    """Runs queries elsewhere, bounded (:class:`kg.bounded.BoundedStore`)."""

    def query(self, sparql: str, *, timeout_s: float, max_rows: int | None = None) -> QueryResult:
        """Run ``sparql`` under ``timeout_s``; raises :class:`KGError` subclasses."""
        ...


class EmbeddedKG:
    """A pyoxigraph store.  With a ``runner`` (:func:`kg.bounded.open_bounded`: what the
    CLI, ``kgqa evaluate``, ``kgqa serve`` and the chat use), every query runs in a worker
    process bounded in time and memory and without network.  Without one (an in-memory
    store in tests, a store being built) it runs here: pyoxigraph has no query timeout,
    so results are streamed and the deadline is checked per row only."""

    name = "embedded"

    def __init__(self, store: pyoxigraph.Store, default_timeout_s: float = 5.0, *,
                 runner: Runner | None = None) -> None:
        self.store = store
        self.default_timeout_s = default_timeout_s
        self.runner = runner

    def query(self, sparql: str, *, timeout_s: float | None = None, max_rows: int | None = None) -> QueryResult:
        """Run ``sparql`` on the store (in the runner when there is one) under a deadline."""
        if self.runner is not None:
            return self.runner.query(_ensure_prefixes(sparql), timeout_s=timeout_s or self.default_timeout_s,
                                     max_rows=max_rows)
        deadline = time.monotonic() + (timeout_s or self.default_timeout_s)
        try:
            result = self.store.query(_ensure_prefixes(sparql))
        except SyntaxError as exc:
            raise KGQueryError(f"bad SPARQL: {exc}") from exc
        except OSError as exc:
            raise KGQueryError(f"query failed: {exc}") from exc
        if isinstance(result, pyoxigraph.QueryBoolean):
            return QueryResult(boolean=bool(result))
        names = [v.value for v in result.variables]
        rows: list[dict[str, Term]] = []
        try:
            for solution in result:
                rows.append({n: _term(solution[n]) for n in names if solution[n] is not None})
                if max_rows is not None and len(rows) >= max_rows:
                    break
                if time.monotonic() > deadline:
                    raise KGTimeout(f"query exceeded {timeout_s or self.default_timeout_s}s")
        except OSError as exc:
            raise KGQueryError(f"query failed: {exc}") from exc
        return QueryResult(vars=names, rows=rows)


KG_ERRORS: ErrorTable = {
    Fault.TIMEOUT: KGTimeout,
    Fault.UNREACHABLE: KGUnavailable,
    Fault.RATE_LIMITED: KGUnavailable,
    Fault.SERVER_ERROR: KGUnavailable,
    Fault.BREAKER_OPEN: KGUnavailable,
    Fault.TOO_LARGE: KGUnavailable,
    Fault.REJECTED: KGQueryError,
    Fault.BAD_STATUS: KGUnavailable,
}
"""What each HTTP fault is to a user of the KG."""

SPARQL_JSON = "application/sparql-results+json"


class RemoteKG:
    """A remote SPARQL 1.1 endpoint (Wikidata, QALD-10, ``oxigraph serve-read-only``):
    form-encoded POST (the SPARQL 1.1 protocol), SPARQL-JSON results by content negotiation.

    ``timeout_s`` is the deadline of one :meth:`query`, retries, backoff and every socket
    read included; the reply is cut past ``max_bytes``.  Refused connections, 5xx and 429
    are retried at most ``retries`` times with exponential backoff (a 429's ``Retry-After``
    is honoured when it fits in the time left); a circuit breaker fails fast with
    :class:`KGUnavailable` after repeated failures.  The loop is
    :class:`core.resilience.HttpCaller`, shared with the QAnswer client; its faults become
    :class:`KGQueryError` (400), :class:`KGTimeout` (client deadline, 504 or a server
    timeout) or :class:`KGUnavailable` (refused, 5xx, 429, other statuses, too large,
    malformed replies).
    """

    name = "remote"

    def __init__(
        self,
        endpoint: str,
        *,
        timeout_s: float = 10.0,
        user_agent: str = "kgqa/0.1",
        retries: int = 2,
        backoff: Backoff | None = None,
        breaker: CircuitBreaker | None = None,
        max_bytes: int = DEFAULT_MAX_BYTES,
    ) -> None:
        self.endpoint = endpoint
        self.timeout_s = timeout_s
        self.user_agent = user_agent
        self._http = HttpCaller(KG_ERRORS, timeout_s=timeout_s, retries=retries, backoff=backoff, breaker=breaker,
                                max_bytes=max_bytes, headers={"User-Agent": user_agent, "Accept": SPARQL_JSON})
        self.retries = self._http.retries
        self.breaker = self._http.breaker

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self._http.close()

    def query(self, sparql: str, *, timeout_s: float | None = None, max_rows: int | None = None) -> QueryResult:
        """POST ``sparql`` to the endpoint and parse the SPARQL-JSON reply."""
        try:
            return self._http.call("POST", self.endpoint,
                                   lambda reply: _parse_sparql_json(reply.body, self.endpoint, max_rows),
                                   data={"query": _ensure_prefixes(sparql)}, timeout_s=timeout_s)
        except KGQueryError:
            raise
        except KGError as exc:
            log.warning("SPARQL endpoint failed: %s", exc)
            raise


def _parse_sparql_json(raw: bytes, source: str, max_rows: int | None) -> QueryResult:
    try:
        data = json.loads(raw)
        if "boolean" in data:
            return QueryResult(boolean=bool(data["boolean"]))
        names = list(data["head"]["vars"])
        bindings = data["results"]["bindings"]
        rows = [{k: Term.from_json(v) for k, v in b.items()} for b in bindings[:max_rows]]
    except (ValueError, KeyError, TypeError) as exc:
        raise KGUnavailable(f"{source}: malformed SPARQL-JSON reply: {exc}") from exc
    return QueryResult(vars=names, rows=rows)


LabelTable = dict[str, dict[str, list[str]]]


def fetch_labels(kg: KG, iris: Iterable[str], *, timeout_s: float | None = None,
                 properties: Sequence[str] = (RDFS_LABEL, SKOS_ALT)) -> LabelTable:
    """``{iri: {lang: [label, …]}}`` from ``properties`` in order (by default ``rdfs:label``
    first, then ``skos:altLabel``)."""
    wanted = sorted({i for i in iris if i})
    table: LabelTable = {i: {} for i in wanted}
    for chunk_start in range(0, len(wanted), 200):
        chunk = wanted[chunk_start:chunk_start + 200]
        values = " ".join(iri_ref(i) for i in chunk)
        for prop in properties:
            sparql = f"SELECT ?s ?l WHERE {{ VALUES ?s {{ {values} }} ?s {iri_ref(prop)} ?l }}"
            for row in kg.query(sparql, timeout_s=timeout_s).rows:
                label = row.get("l")
                if label is None:
                    continue
                langs = table[row["s"].value]
                langs.setdefault(label.lang or "", [])
                if label.value not in langs[label.lang or ""]:
                    langs[label.lang or ""].append(label.value)
    return table
