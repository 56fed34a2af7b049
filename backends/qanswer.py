"""An HTTP client for a QAnswer-compatible API (``GET {base}/api/qa/full``).

The reply shape is ``{"question": ..., "queries": [{"query", "confidence", "kb"}, ...]}``;
``kgqa serve`` speaks it too, so this client can also talk to another instance of
this product.

The request carries ``question``, ``lang``, ``kb`` and ``user`` (default ``open``, as
Qanary's QAnswer component sends it); a ``token`` goes as ``Authorization: Bearer``.
QAnswer's confidences are not on the local ranker's scale: the gate's weight on them is
:data:`validator.gate.BACKEND_RANK_WEIGHTS` ``["qanswer"]`` (0, uncalibrated until measured).

Fault handling (every fault becomes a :class:`core.errors.BackendError`):

* ``timeout_s`` is the deadline of one :meth:`QAnswerBackend.ask`, retries, backoff and
  every socket read included (a server dripping a byte a second is cut at it); the
  reply is cut past ``max_bytes`` (:class:`BackendResponseError`).  The loop is
  :class:`core.http.HttpCaller`, shared with the remote SPARQL client.
* refused connections, 5xx and 429 are retried at most ``retries`` times with
  exponential backoff; a 429's ``Retry-After`` is honoured when it fits in the budget,
  otherwise the call fails at once with :class:`BackendUnavailable`.
* a timeout is not retried (the budget is spent) -> :class:`BackendTimeout`.
* malformed JSON or a wrong shape -> :class:`BackendResponseError` (not retried).
* a circuit breaker opens after ``failure_threshold`` consecutive failed calls; while
  it is open calls fail fast with :class:`BackendUnavailable`, and after
  ``reset_timeout_s`` one trial call is let through.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Iterable
from typing import Any

import httpx

from core.errors import BackendResponseError, BackendTimeout, BackendUnavailable
from core.http import HttpCaller, HttpReply
from core.resilience import DEFAULT_MAX_BYTES, Backoff, CircuitBreaker, ErrorTable, Fault
from qa.candidate import Candidate
from qa.generate import MAX_CANDIDATES

log = logging.getLogger(__name__)

QA_PATH = "/api/qa/full"

ERRORS: ErrorTable = {
    Fault.TIMEOUT: BackendTimeout,
    Fault.UNREACHABLE: BackendUnavailable,
    Fault.RATE_LIMITED: BackendUnavailable,
    Fault.SERVER_ERROR: BackendUnavailable,
    Fault.BREAKER_OPEN: BackendUnavailable,
    Fault.TOO_LARGE: BackendResponseError,
    Fault.BAD_REPLY: BackendResponseError,
    Fault.REJECTED: BackendResponseError,
    Fault.BAD_STATUS: BackendResponseError,
}
"""What each HTTP fault is to a user of this backend."""


class QAnswerBackend:
    """Candidates from a QAnswer-compatible HTTP API."""

    name = "qanswer"

    def __init__(
        self,
        base_url: str,
        kb: str = "wikidata",
        timeout_s: float = 10.0,
        retries: int = 2,
        *,
        backoff: Backoff | None = None,
        breaker: CircuitBreaker | None = None,
        failure_threshold: int = 5,
        reset_timeout_s: float = 30.0,
        user_agent: str = "kgqa/0.2",
        max_bytes: int = DEFAULT_MAX_BYTES,
        transport: httpx.BaseTransport | None = None,
        user: str = "open",
        token: str | None = None,
        auth: tuple[str, str] | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.kb = kb
        self.user = user  # QAnswer's user (Qanary's component sends ``user=open``)
        headers = {"User-Agent": user_agent, "Accept": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self.timeout_s = float(timeout_s)
        self._http = HttpCaller(ERRORS, timeout_s=timeout_s, retries=retries, backoff=backoff,
                                breaker=breaker or CircuitBreaker(failure_threshold, reset_timeout_s),
                                max_bytes=max_bytes, transport=transport, headers=headers, auth=auth)
        self.retries = self._http.retries
        self.breaker = self._http.breaker

    @property
    def url(self) -> str:
        """The full ``/api/qa/full`` URL."""
        return self.base_url + QA_PATH

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self._http.close()

    def warm_up(self, langs: Iterable[str]) -> None:
        """Nothing to warm here: the remote service keeps its own models loaded."""

    def ask(self, question: str, lang: str) -> list[Candidate]:
        """Up to :data:`MAX_CANDIDATES` candidates in the API's order.

        Raises :class:`BackendTimeout`, :class:`BackendUnavailable` or
        :class:`BackendResponseError`.
        """
        params = {"question": question, "lang": lang, "kb": self.kb, "user": self.user}
        try:
            return self._http.call("GET", self.url, self._parse, params=params)
        except (BackendTimeout, BackendUnavailable, BackendResponseError) as exc:
            log.warning("qanswer backend failed: %s", exc)
            raise

    def _parse(self, reply: HttpReply) -> list[Candidate]:
        """The reply checked by the one reply schema (:data:`core.replies.QANSWER_REPLY`: nesting,
        types, finite confidences), then read as candidates."""
        from core.replies import QANSWER_REPLY, MalformedReply, parse_reply  # pydantic: remote replies only

        try:
            return parse_reply(QANSWER_REPLY, reply.body, lambda data: parse_candidates(data, source=self.url))
        except MalformedReply as exc:
            raise BackendResponseError(f"{self.url}: malformed reply: {exc}") from exc


def parse_candidates(data: Any, *, source: str = "qanswer") -> list[Candidate]:
    """Candidates from a ``/api/qa/full`` JSON reply (up to :data:`MAX_CANDIDATES`, in order).

    Raises :class:`BackendResponseError` when the shape is wrong.
    """
    if not isinstance(data, dict) or not isinstance(data.get("queries", []), list):
        raise BackendResponseError(f"{source}: reply is not {{'queries': [...]}}")
    out: list[Candidate] = []
    for i, item in enumerate(data.get("queries", [])[:MAX_CANDIDATES]):
        if not isinstance(item, dict) or not isinstance(item.get("query"), str) or not item["query"].strip():
            raise BackendResponseError(f"{source}: queries[{i}] has no 'query' string")
        out.append(Candidate(item["query"], _confidence(item.get("confidence", 0.0), source, i),
                             shape=shape_of(item["query"])))
    return out


def shape_of(sparql: str) -> str:
    """The query shape (one of :data:`qa.candidate.SHAPES`) of SPARQL that came as text
    only (a QAnswer reply, a stored record), read once where it enters: ``ask``,
    ``count``, ``order`` (ORDER BY), ``filter`` or ``plain``."""
    text = sparql.upper()
    head = text.split("{", 1)[0]
    if "ASK" in head.split():
        return "ask"
    if "COUNT(" in text.replace(" ", ""):
        return "count"
    if "ORDER BY" in text:
        return "order"
    if "FILTER" in text:
        return "filter"
    return "plain"


def _confidence(value: Any, source: str, index: int) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise BackendResponseError(f"{source}: queries[{index}].confidence is not a number")
    try:
        score = float(value)
    except ValueError as exc:
        raise BackendResponseError(f"{source}: queries[{index}].confidence is not a number") from exc
    if not math.isfinite(score):
        raise BackendResponseError(f"{source}: queries[{index}].confidence is not finite")
    return score
