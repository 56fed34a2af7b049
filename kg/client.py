"""The :class:`KG` protocol and its two clients: the embedded pyoxigraph store and a
remote SPARQL endpoint over HTTP (Wikidata, QALD-10, ``oxigraph serve-read-only``).  The
HTTP loop (:mod:`core.http`, and httpx with it) loads only when a remote client is built."""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Protocol

import pyoxigraph

from core.errors import KGError, KGQueryError, KGTimeout, KGUnavailable
from core.resilience import DEFAULT_MAX_BYTES, Backoff, CircuitBreaker, ErrorTable, Fault, budget_left
from core.resilience import question_budget as question_budget  # where the pipeline takes it from
from kg.sparql import RDFS_LABEL, SKOS_ALT, XSD, iri_ref, with_prefixes

if TYPE_CHECKING:
    from core.replies import Binding, SparqlJson

log = logging.getLogger(__name__)

TermKind = Literal["uri", "literal", "bnode"]


@dataclass(frozen=True, slots=True)
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


def whole_number(term: Term, default: int = 0) -> int:
    """A count or index an engine sent, as a whole number; ``default`` for anything that is
    not a finite number (an endpoint may send ``NaN``, ``INF`` or words where a count goes)."""
    try:
        value = float(term.value)
    except (TypeError, ValueError):
        return default
    return int(value) if math.isfinite(value) and abs(value) < 1e18 else default


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


_SLOTS: dict[str, threading.BoundedSemaphore] = {}
_SLOTS_LOCK = threading.Lock()


def endpoint_slots(url: str, size: int) -> threading.BoundedSemaphore:
    """The one semaphore bounding the requests in flight to ``url`` from this process."""
    with _SLOTS_LOCK:
        slots = _SLOTS.get(url)
        if slots is None:
            slots = _SLOTS[url] = threading.BoundedSemaphore(max(1, size))
        return slots


KG_ERRORS: ErrorTable = {
    Fault.TIMEOUT: KGTimeout,
    Fault.UNREACHABLE: KGUnavailable,
    Fault.RATE_LIMITED: KGUnavailable,
    Fault.SERVER_ERROR: KGUnavailable,
    Fault.BREAKER_OPEN: KGUnavailable,
    Fault.TOO_LARGE: KGUnavailable,
    Fault.BAD_REPLY: KGUnavailable,
    Fault.REJECTED: KGQueryError,
    Fault.BAD_STATUS: KGUnavailable,
}
"""What each HTTP fault is to a user of the KG."""

SPARQL_JSON = "application/sparql-results+json"
DEFAULT_USER_AGENT = "kgqa/0.2 (multilingual KGQA chat; set KGQA_USER_AGENT to your contact: name, e-mail or URL)"
"""Wikimedia's User-Agent policy asks for a contact: deployments set theirs (``--user-agent``)."""


class RemoteKG:
    """A remote SPARQL 1.1 endpoint (Wikidata, QALD-10, ``oxigraph serve-read-only``):
    form-encoded POST (the SPARQL 1.1 protocol), SPARQL-JSON results by content negotiation.

    ``timeout_s`` is the deadline of one :meth:`query`, retries, backoff and every socket
    read included; the reply is cut past ``max_bytes``.  Refused connections, 5xx and 429
    are retried at most ``retries`` times with exponential backoff (a 429's ``Retry-After``
    is honoured when it fits in the time left); a circuit breaker fails fast with
    :class:`KGUnavailable` after repeated failures.  The loop is
    :class:`core.http.HttpCaller`, shared with the QAnswer client; its faults become
    :class:`KGQueryError` (400), :class:`KGTimeout` (client deadline, 504 or a server
    timeout) or :class:`KGUnavailable` (refused, 5xx, 429, other statuses, too large,
    malformed replies).  A 429 does not count towards the breaker (one client's limit is
    no outage).

    At most ``max_concurrent`` requests are in flight to one endpoint URL from this process
    (:func:`endpoint_slots`); inside :func:`question_budget` a request's deadline is also
    bounded by what is left of the question's budget, and none is sent once it is spent.
    """

    name = "remote"

    def __init__(
        self,
        endpoint: str,
        *,
        timeout_s: float = 10.0,
        user_agent: str = DEFAULT_USER_AGENT,
        retries: int = 2,
        backoff: Backoff | None = None,
        breaker: CircuitBreaker | None = None,
        max_bytes: int = DEFAULT_MAX_BYTES,
        max_concurrent: int = 4,
        auth: tuple[str, str] | None = None,
    ) -> None:
        self.endpoint = endpoint
        self.slots = endpoint_slots(endpoint, max_concurrent)
        self.requests = 0  # requests sent (benchmarks count round trips)
        self.timeout_s = timeout_s
        self.user_agent = user_agent
        from core.http import HttpCaller  # httpx: remote endpoints only (the embedded store never loads it)

        self._http = HttpCaller(KG_ERRORS, timeout_s=timeout_s, retries=retries, backoff=backoff, breaker=breaker,
                                max_bytes=max_bytes, headers={"User-Agent": user_agent, "Accept": SPARQL_JSON},
                                auth=auth)
        self.retries = self._http.retries
        self.breaker = self._http.breaker

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self._http.close()

    def query(self, sparql: str, *, timeout_s: float | None = None, max_rows: int | None = None) -> QueryResult:
        """POST ``sparql`` to the endpoint and parse the SPARQL-JSON reply."""
        timeout = timeout_s or self.timeout_s
        left = budget_left()
        if left is not None:
            if left <= 0.05:
                raise KGUnavailable(f"{self.endpoint}: the question's time budget for the KG is spent")
            timeout = min(timeout, left)
        if not self.slots.acquire(timeout=timeout):
            raise KGUnavailable(f"{self.endpoint}: no request slot free within {timeout:.1f}s")
        try:
            self.requests += 1
            return self._http.call("POST", self.endpoint,
                                   lambda reply: _parse_sparql_json(reply.body, self.endpoint, max_rows),
                                   data={"query": _ensure_prefixes(sparql)}, timeout_s=timeout)
        except KGQueryError:
            raise
        except KGError as exc:
            log.warning("SPARQL endpoint failed: %s", exc)
            raise
        finally:
            self.slots.release()


DEFAULT_MAX_ROWS = 250_000
"""Rows kept of one reply when the caller sets no bound (8 MiB holds about this many)."""


def _parse_sparql_json(raw: bytes, source: str, max_rows: int | None) -> QueryResult:
    """The reply checked as SPARQL-JSON (:mod:`core.replies`, one validation for every
    endpoint reply) and read into a :class:`QueryResult`, at most ``max_rows`` rows."""
    from core.replies import SPARQL_REPLY, MalformedReply, parse_reply, sparql_shape  # pydantic: remote replies only

    def convert(data: SparqlJson) -> QueryResult:
        shape = sparql_shape(data)
        if isinstance(shape, bool):
            return QueryResult(boolean=shape)
        names, bindings = shape
        limit = DEFAULT_MAX_ROWS if max_rows is None else min(max_rows, DEFAULT_MAX_ROWS)
        rows = [{k: _binding_term(v) for k, v in b.items()} for b in bindings[:limit]]
        return QueryResult(vars=names, rows=rows)

    try:
        return parse_reply(SPARQL_REPLY, raw, convert)
    except MalformedReply as exc:
        raise KGUnavailable(f"{source}: malformed SPARQL-JSON reply: {exc}") from exc


def _binding_term(binding: Binding) -> Term:
    kind = binding["type"]
    return Term("literal" if kind == "typed-literal" else kind, binding["value"], binding.get("datatype"),
                binding.get("xml:lang"))


LabelTable = dict[str, dict[str, list[str]]]


def fetch_labels(kg: KG, iris: Iterable[str], *, timeout_s: float | None = None,
                 properties: Sequence[str] = (RDFS_LABEL, SKOS_ALT)) -> LabelTable:
    """``{iri: {lang: [label, …]}}`` from ``properties`` in order (by default ``rdfs:label``
    first, then ``skos:altLabel``)."""
    by_property = fetch_values(kg, iris, properties, timeout_s=timeout_s)
    table: LabelTable = {}
    for prop in properties:
        for iri, langs in by_property[prop].items():
            merged = table.setdefault(iri, {})
            for code, values in langs.items():
                slot = merged.setdefault(code, [])
                slot.extend(v for v in values if v not in slot)
    return table


def fetch_values(kg: KG, iris: Iterable[str], properties: Sequence[str], *,
                 timeout_s: float | None = None) -> dict[str, LabelTable]:
    """``{property: {iri: {lang: [value, …]}}}``: every value of each of ``properties`` on
    each IRI (a literal's language, ``""`` for others), in one request per 200 IRIs, the
    engine's order kept per IRI and property."""
    wanted = sorted({i for i in iris if i})
    out: dict[str, LabelTable] = {prop: {i: {} for i in wanted} for prop in properties}
    for chunk_start in range(0, len(wanted), 200):
        values = " ".join(iri_ref(i) for i in wanted[chunk_start:chunk_start + 200])
        sparql = "SELECT ?s ?k ?l WHERE { " + " UNION ".join(  # fixed predicates: index lookups, no scan
            f"{{ VALUES ?s {{ {values} }} ?s {iri_ref(p)} ?l BIND({iri_ref(p)} AS ?k) }}" for p in properties) + " }"
        for row in kg.query(sparql, timeout_s=timeout_s).rows:
            label, prop, subject = row.get("l"), row.get("k"), row.get("s")
            if label is None or prop is None or subject is None or prop.value not in out:
                continue
            langs = out[prop.value].setdefault(subject.value, {})
            slot = langs.setdefault(label.lang or "", [])
            if label.value not in slot:
                slot.append(label.value)
    return out
