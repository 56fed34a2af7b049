"""An HTTP client for a QAnswer-compatible API (``GET {base}/api/qa/full``).

The reply shape is ``{"question": ..., "queries": [{"query", "confidence", "kb"}, ...]}``;
``kgqa serve`` speaks it too, so this client can also talk to another instance of
this product.

Fault handling (every fault becomes a :class:`core.errors.BackendError`):

* ``timeout_s`` is the budget of one :meth:`QAnswerBackend.ask`, retries included;
  each attempt may use what is left of it, so ``ask`` never takes much longer.
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

from core.errors import BackendError, BackendResponseError, BackendTimeout, BackendUnavailable
from core.resilience import Backoff, Budget, CircuitBreaker, parse_retry_after
from qa.candidate import Candidate
from qa.generate import MAX_CANDIDATES

log = logging.getLogger(__name__)

QA_PATH = "/api/qa/full"


class _Retryable(Exception):
    """Internal: an attempt failed in a way worth retrying."""

    def __init__(self, error: BackendError, wait_s: float | None = None, cause: BaseException | None = None) -> None:
        super().__init__(str(error))
        self.error = error
        self.wait_s = wait_s
        self.cause = cause


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
        user_agent: str = "kgqa/0.1",
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        if timeout_s <= 0:
            raise ValueError("timeout_s must be positive")
        self.base_url = base_url.rstrip("/")
        self.kb = kb
        self.timeout_s = float(timeout_s)
        self.retries = max(0, int(retries))
        self.backoff = backoff or Backoff()
        self.breaker = breaker or CircuitBreaker(failure_threshold, reset_timeout_s)
        self._client = httpx.Client(headers={"User-Agent": user_agent, "Accept": "application/json"},
                                    transport=transport, follow_redirects=False)

    @property
    def url(self) -> str:
        """The full ``/api/qa/full`` URL."""
        return self.base_url + QA_PATH

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self._client.close()

    def warm_up(self, langs: Iterable[str]) -> None:
        """Nothing to warm here: the remote service keeps its own models loaded."""

    def ask(self, question: str, lang: str) -> list[Candidate]:
        """Up to :data:`MAX_CANDIDATES` candidates in the API's order.

        Raises :class:`BackendTimeout`, :class:`BackendUnavailable` or
        :class:`BackendResponseError`.
        """
        if not self.breaker.allow():
            raise BackendUnavailable(
                f"{self.url}: circuit breaker open after repeated failures; "
                f"next try in {self.breaker.retry_in():.1f}s")
        try:
            candidates = self._ask_with_retries(question, lang)
        except BackendError as exc:
            self.breaker.record_failure()
            log.warning("qanswer backend failed: %s", exc)
            raise
        except BaseException:
            self.breaker.record_failure()
            raise
        self.breaker.record_success()
        return candidates

    def _ask_with_retries(self, question: str, lang: str) -> list[Candidate]:
        budget = Budget(self.timeout_s)
        params = {"question": question, "lang": lang, "kb": self.kb}
        attempt = 0
        while True:
            try:
                return self._attempt(params, budget)
            except _Retryable as failure:
                if attempt >= self.retries:
                    raise failure.error from failure.cause
                wait = failure.wait_s if failure.wait_s is not None else self.backoff.delay(attempt)
                if not budget.sleep(wait):
                    raise BackendUnavailable(
                        f"{failure.error} (no time left in the {self.timeout_s:g}s budget to retry "
                        f"after {wait:.1f}s)") from failure.cause
                log.info("qanswer attempt %d failed (%s); retrying", attempt + 1, failure.error)
                attempt += 1

    def _attempt(self, params: dict[str, str], budget: Budget) -> list[Candidate]:
        remaining = budget.remaining()
        if remaining <= 0:
            raise BackendTimeout(f"{self.url}: no answer within {self.timeout_s:g}s")
        try:
            response = self._client.get(self.url, params=params, timeout=httpx.Timeout(remaining))
        except httpx.TimeoutException as exc:
            raise BackendTimeout(f"{self.url}: no answer within {self.timeout_s:g}s") from exc
        except httpx.TransportError as exc:
            raise _Retryable(BackendUnavailable(f"{self.url}: cannot connect: {exc}"), cause=exc) from exc
        return self._handle(response)

    def _handle(self, response: httpx.Response) -> list[Candidate]:
        status = response.status_code
        if status == 429:
            wait = parse_retry_after(response.headers.get("Retry-After"))
            raise _Retryable(BackendUnavailable(f"{self.url}: rate limited (429, Retry-After={wait})"), wait)
        if status >= 500:
            raise _Retryable(BackendUnavailable(f"{self.url}: server error {status}"))
        if status != 200:
            raise BackendResponseError(f"{self.url}: unexpected HTTP status {status}")
        try:
            data = response.json()
        except ValueError as exc:
            raise BackendResponseError(f"{self.url}: malformed JSON reply: {exc}") from exc
        return parse_candidates(data, source=self.url)


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
