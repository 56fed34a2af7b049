"""Resilience shared by the outbound clients (the QAnswer backend, a remote SPARQL
endpoint, Wikidata's entity search), whatever carries their requests: a time budget,
exponential backoff, ``Retry-After`` parsing, a circuit breaker, the :class:`Fault` an
outbound call ends in (each client maps it to its own :mod:`core.errors` classes), and the
question's budget: one deadline and one cap on the bytes sent, shared by every request of
one question (:func:`question_budget`).

The HTTP loop itself, over httpx, is :mod:`core.http`; this module imports no HTTP library,
so a pipeline over the embedded store never loads one."""

from __future__ import annotations

import contextlib
import contextvars
import email.utils
import enum
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from core.errors import KGQAError

Clock = Callable[[], float]


@dataclass(frozen=True)
class Backoff:
    """Exponential backoff: ``base_s * 2**attempt``, capped at ``max_s``."""

    base_s: float = 0.1
    max_s: float = 2.0

    def delay(self, attempt: int) -> float:
        """Seconds to wait before retry number ``attempt + 1`` (``attempt`` counts from 0)."""
        return min(self.max_s, self.base_s * (2 ** max(0, attempt)))


class Budget:
    """A wall-clock deadline shared by every attempt of one call."""

    def __init__(self, seconds: float, clock: Clock = time.monotonic) -> None:
        self.seconds = seconds
        self._clock = clock
        self._deadline = clock() + seconds

    def remaining(self) -> float:
        """Seconds left (never negative)."""
        return max(0.0, self._deadline - self._clock())

    def expired(self) -> bool:
        """True once the deadline has passed."""
        return self.remaining() <= 0.0

    def sleep(self, seconds: float) -> bool:
        """Sleep ``seconds`` if the budget allows it; False (without sleeping) otherwise."""
        if seconds >= self.remaining():
            return False
        if seconds > 0:
            time.sleep(seconds)
        return True


def parse_retry_after(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds from a ``Retry-After`` header (delta-seconds or HTTP-date); ``None`` if absent/garbled."""
    if not value:
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    current = time.time() if now is None else now
    return max(0.0, when.timestamp() - current)


class CircuitBreaker:
    """Opens after ``failure_threshold`` consecutive failures; after ``reset_timeout_s``
    it lets one trial call through (half-open): success closes it, failure re-opens it.

    Thread-safe.  Usage: ``if not breaker.allow(): fail fast``; then report the outcome
    with :meth:`record_success` or :meth:`record_failure`.
    """

    CLOSED, OPEN, HALF_OPEN = "closed", "open", "half_open"

    def __init__(
        self, failure_threshold: int = 5, reset_timeout_s: float = 30.0, clock: Clock = time.monotonic
    ) -> None:
        if failure_threshold < 1:
            raise ValueError("failure_threshold must be >= 1")
        self.failure_threshold = failure_threshold
        self.reset_timeout_s = reset_timeout_s
        self._clock = clock
        self._lock = threading.Lock()
        self._failures = 0
        self._opened_at: float | None = None
        self._trial_in_flight = False

    @property
    def state(self) -> str:
        """``closed``, ``open`` or ``half_open`` (as of now)."""
        with self._lock:
            return self._state()

    def _state(self) -> str:
        if self._opened_at is None:
            return self.CLOSED
        if self._clock() - self._opened_at >= self.reset_timeout_s:
            return self.HALF_OPEN
        return self.OPEN

    def retry_in(self) -> float:
        """Seconds until the breaker goes half-open (0 when it is not open)."""
        with self._lock:
            if self._opened_at is None:
                return 0.0
            return max(0.0, self.reset_timeout_s - (self._clock() - self._opened_at))

    def allow(self) -> bool:
        """True when a call may go out now (closed, or the one half-open trial)."""
        with self._lock:
            state = self._state()
            if state == self.CLOSED:
                return True
            if state == self.HALF_OPEN and not self._trial_in_flight:
                self._trial_in_flight = True
                return True
            return False

    def record_success(self) -> None:
        """A call succeeded: close the breaker."""
        with self._lock:
            self._failures = 0
            self._opened_at = None
            self._trial_in_flight = False

    def record_failure(self) -> None:
        """A call failed: count it, opening (or re-opening) the breaker at the threshold."""
        with self._lock:
            self._failures += 1
            if self._trial_in_flight or self._failures >= self.failure_threshold:
                self._opened_at = self._clock()
            self._trial_in_flight = False


# ---------------------------------------------------------------- what an outbound call ends in


class Fault(enum.Enum):
    """What went wrong with an HTTP call, whatever the client (each client maps these to its
    own :mod:`core.errors` classes)."""

    TIMEOUT = "timeout"  # the call's deadline passed, or the server said it timed out (504)
    UNREACHABLE = "unreachable"  # refused, reset, closed early, garbled HTTP (retried)
    RATE_LIMITED = "rate_limited"  # 429 (retried; Retry-After honoured when it fits)
    SERVER_ERROR = "server_error"  # 5xx (retried)
    REJECTED = "rejected"  # 400: the request itself is bad (not retried; the server is alive)
    BAD_STATUS = "bad_status"  # any other non-2xx status (not retried)
    TOO_LARGE = "too_large"  # the reply is larger than the byte cap
    BAD_REPLY = "bad_reply"  # a content coding not asked for (stacked, br, ...) or one that does not decode
    BREAKER_OPEN = "breaker_open"  # the circuit breaker is open: nothing was sent


RETRIED = frozenset({Fault.UNREACHABLE, Fault.RATE_LIMITED, Fault.SERVER_ERROR})

ErrorTable = Mapping[Fault, type[KGQAError]]
"""A client's error class for each :class:`Fault`."""


class AttemptFailed(Exception):
    """One attempt of an outbound call failed with ``fault`` (the client's loop retries it, or
    raises its own error class for the fault)."""

    def __init__(self, fault: Fault, detail: str, wait_s: float | None = None) -> None:
        super().__init__(detail)
        self.fault = fault
        self.detail = detail
        self.wait_s = wait_s


DEFAULT_MAX_BYTES = 8 * 1024 * 1024
_QUESTION_DEADLINE: contextvars.ContextVar[float | None] = contextvars.ContextVar("kgqa_question_deadline",
                                                                                 default=None)
_QUESTION_SENT: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar("kgqa_question_sent", default=None)
_SENT_LOCK = threading.Lock()
MAX_SENT_PER_QUESTION = 4 * 1024 * 1024
"""Request bytes (URL parameters and form bodies) one question may send, all clients
together; past it nothing more is sent and the turn is "service unavailable"."""


@contextlib.contextmanager
def question_budget(seconds: float | None) -> Iterator[None]:
    """Every outbound request made inside (in this context: copy it into worker threads),
    by any client (:class:`core.http.HttpCaller`: the SPARQL endpoint, QAnswer, the entity search),
    shares one deadline, ``seconds`` from now: a request's own deadline is cut to what is
    left, and none is sent once it is spent.  ``None``: no budget."""
    outer = _QUESTION_DEADLINE.get()
    deadline = None if seconds is None else time.monotonic() + seconds
    if outer is not None:  # a budget inside another never extends it
        deadline = outer if deadline is None else min(outer, deadline)
    token = _QUESTION_DEADLINE.set(deadline)
    sent = _QUESTION_SENT.set(_QUESTION_SENT.get() or [0])  # one counter, shared by the copies of this context
    try:
        yield
    finally:
        _QUESTION_SENT.reset(sent)
        _QUESTION_DEADLINE.reset(token)


def charge_sent(size: int, url: str) -> None:
    """Count ``size`` request bytes to the current question; :class:`AttemptFailed` past
    :data:`MAX_SENT_PER_QUESTION` (nothing is sent then)."""
    counter = _QUESTION_SENT.get()
    if counter is None:
        return
    with _SENT_LOCK:
        if counter[0] + size > MAX_SENT_PER_QUESTION:
            raise AttemptFailed(Fault.TOO_LARGE, f"the question's requests would send over {MAX_SENT_PER_QUESTION} "
                                                 f"bytes ({counter[0]} sent, {size} more to {url})")
        counter[0] += size


def budget_left() -> float | None:
    """Seconds left of the current question's outbound budget (``None``: no budget)."""
    deadline = _QUESTION_DEADLINE.get()
    return None if deadline is None else deadline - time.monotonic()
