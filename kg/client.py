"""The :class:`KG` protocol and its two clients: the embedded pyoxigraph store and a
remote SPARQL endpoint over HTTP through SPARQLWrapper (Wikidata, QALD-10,
``oxigraph serve-read-only``)."""

from __future__ import annotations

import http.client
import json
import logging
import time
import urllib.error
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

import pyoxigraph
from SPARQLWrapper import JSON, POST, URLENCODED, SPARQLWrapper
from SPARQLWrapper.SPARQLExceptions import EndPointInternalError, QueryBadFormed, SPARQLWrapperException

from core.errors import KGError, KGQueryError, KGTimeout, KGUnavailable
from core.resilience import Backoff, Budget, CircuitBreaker, parse_retry_after
from kg.sparql import RDFS_LABEL, SKOS_ALT, iri_ref, with_prefixes

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


class EmbeddedKG:
    """A pyoxigraph store.  pyoxigraph has no query timeout, so results are streamed
    and the deadline is checked per row; generators only build entity-anchored queries
    whose cost is bounded by node degree."""

    name = "embedded"

    def __init__(self, store: pyoxigraph.Store, default_timeout_s: float = 5.0) -> None:
        self.store = store
        self.default_timeout_s = default_timeout_s

    def query(self, sparql: str, *, timeout_s: float | None = None, max_rows: int | None = None) -> QueryResult:
        """Run ``sparql`` on the store, streaming rows under a deadline."""
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


class _Wrapper(SPARQLWrapper):
    """SPARQLWrapper keeping fractional timeouts (its ``setTimeout`` truncates to whole
    seconds, which would turn a 0.5 s budget into "no timeout")."""

    def setTimeout(self, timeout: float) -> None:  # SPARQLWrapper's method name
        """Seconds for connecting and for each read (as ``urlopen`` applies them)."""
        self.timeout = timeout  # type: ignore[assignment]


class RemoteKG:
    """A remote SPARQL 1.1 endpoint (Wikidata, QALD-10, ``oxigraph serve-read-only``)
    through SPARQLWrapper: form-encoded POST, SPARQL-JSON results by content negotiation.

    ``timeout_s`` bounds one :meth:`query`, retries included.  Refused connections,
    5xx and 429 are retried at most ``retries`` times with exponential backoff (a
    429's ``Retry-After`` is honoured when it fits in the time left); a circuit
    breaker fails fast with :class:`KGUnavailable` after repeated failures.
    SPARQLWrapper's and urllib's exceptions never leave this class: they become
    :class:`KGQueryError` (400), :class:`KGTimeout` (client or server timeout) or
    :class:`KGUnavailable` (refused, 5xx, 429, other statuses, malformed replies).
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
    ) -> None:
        self.endpoint = endpoint
        self.timeout_s = timeout_s
        self.user_agent = user_agent
        self.retries = max(0, int(retries))
        self.backoff = backoff or Backoff()
        self.breaker = breaker or CircuitBreaker(failure_threshold=5, reset_timeout_s=30.0)

    def close(self) -> None:
        """Nothing to release (urllib opens one connection per request)."""

    def query(self, sparql: str, *, timeout_s: float | None = None, max_rows: int | None = None) -> QueryResult:
        """POST ``sparql`` to the endpoint and parse the SPARQL-JSON reply."""
        if not self.breaker.allow():
            raise KGUnavailable(f"{self.endpoint}: circuit breaker open after repeated failures; "
                                f"next try in {self.breaker.retry_in():.1f}s")
        budget = Budget(timeout_s or self.timeout_s)
        try:
            raw = self._post_with_retries(_ensure_prefixes(sparql), budget)
            result = _parse_sparql_json(raw, self.endpoint, max_rows)
        except KGQueryError:
            self.breaker.record_success()  # the endpoint is alive; the query was bad
            raise
        except KGError as exc:
            self.breaker.record_failure()
            log.warning("SPARQL endpoint failed: %s", exc)
            raise
        except BaseException:
            self.breaker.record_failure()
            raise
        self.breaker.record_success()
        return result

    def _post_with_retries(self, sparql: str, budget: Budget) -> bytes:
        attempt = 0
        while True:
            try:
                return self._post(sparql, budget)
            except _RetryableKG as failure:
                if attempt >= self.retries:
                    raise failure.error from failure.cause
                wait = failure.wait_s if failure.wait_s is not None else self.backoff.delay(attempt)
                if not budget.sleep(wait):
                    raise KGUnavailable(f"{failure.error} (no time left to retry after {wait:.1f}s)") from failure.cause
                attempt += 1

    def _wrapper(self, sparql: str, timeout_s: float) -> SPARQLWrapper:
        """A fresh SPARQLWrapper for one request (the wrapper is stateful, not thread-safe)."""
        wrapper = _Wrapper(self.endpoint, agent=self.user_agent)
        wrapper.setMethod(POST)
        wrapper.setRequestMethod(URLENCODED)  # body "query=...", the SPARQL 1.1 protocol's form POST
        wrapper.setReturnFormat(JSON)
        wrapper.setOnlyConneg(True)  # ask for JSON by Accept header only (no format=/output= parameters)
        wrapper.setTimeout(timeout_s)
        wrapper.setQuery(sparql)
        return wrapper

    def _post(self, sparql: str, budget: Budget) -> bytes:
        remaining = budget.remaining()
        timed_out = KGTimeout(f"{self.endpoint} did not answer within {budget.seconds:g}s")
        if remaining <= 0:
            raise timed_out
        try:
            # the raw body, not QueryResult.convert(): it would only warn on a wrong content
            # type, and our parser turns every malformed reply into KGUnavailable
            with self._wrapper(sparql, remaining).query().response as response:
                return response.read()
        except QueryBadFormed as exc:
            raise KGQueryError(f"{self.endpoint} rejected the query: {_snippet(exc)}") from exc
        except EndPointInternalError as exc:  # HTTP 500
            raise self._server_error(500, _snippet(exc)) from exc
        except urllib.error.HTTPError as exc:  # every status SPARQLWrapper does not map itself
            raise self._http_error(exc) from exc
        except SPARQLWrapperException as exc:  # 401 Unauthorized, 404 EndPointNotFound, 414 URITooLong
            raise KGUnavailable(f"{self.endpoint}: {type(exc).__name__}: {_snippet(exc)}") from exc
        except TimeoutError as exc:  # socket timeout while connecting or reading
            raise timed_out from exc
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, TimeoutError):
                raise timed_out from exc
            raise _RetryableKG(KGUnavailable(f"{self.endpoint}: cannot connect: {exc.reason}"), cause=exc) from exc
        except (OSError, http.client.HTTPException) as exc:  # reset, closed early, garbled status line
            raise _RetryableKG(KGUnavailable(f"{self.endpoint}: cannot connect: {exc!r}"), cause=exc) from exc

    def _http_error(self, exc: urllib.error.HTTPError) -> KGError | _RetryableKG:
        """A non-200 status that SPARQLWrapper re-raised as urllib's ``HTTPError``."""
        status = exc.code
        try:
            snippet = exc.read()[:200].decode("utf-8", errors="replace")
        except OSError:
            snippet = ""
        if status == 429:
            # SPARQLWrapper has no retry policy of its own; the header is read from urllib's error
            wait = parse_retry_after(exc.headers.get("Retry-After") if exc.headers else None)
            return _RetryableKG(KGUnavailable(f"{self.endpoint}: rate limited (429, Retry-After={wait})"), wait)
        if status >= 500:
            return self._server_error(status, snippet)
        return KGUnavailable(f"{self.endpoint}: unexpected HTTP status {status}: {snippet}")

    def _server_error(self, status: int, snippet: str) -> KGError | _RetryableKG:
        if status == 504 or "timeout" in snippet.lower():
            return KGTimeout(f"{self.endpoint}: query timed out on the server ({status})")
        return _RetryableKG(KGUnavailable(f"{self.endpoint}: server error {status}: {snippet}"))


def _snippet(exc: SPARQLWrapperException) -> str:
    """The start of the endpoint's reply carried by a SPARQLWrapper exception."""
    text = str(exc)
    marker = "Response:"
    if marker in text:
        text = text.split(marker, 1)[1]
    text = text.strip()
    if text.startswith(("b'", 'b"')):  # SPARQLWrapper formats the body's bytes with repr()
        text = text[2:-1]
    return text[:200]


class _RetryableKG(Exception):
    """Internal: an endpoint call failed in a way worth retrying."""

    def __init__(self, error: KGError, wait_s: float | None = None, cause: BaseException | None = None) -> None:
        super().__init__(str(error))
        self.error = error
        self.wait_s = wait_s
        self.cause = cause


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
