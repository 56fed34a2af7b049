"""Resilience helpers shared by the HTTP clients (QAnswer backend, remote SPARQL
endpoint): a time budget, exponential backoff, ``Retry-After`` parsing and a circuit
breaker.  Nothing here knows about a particular error class: callers translate."""

from __future__ import annotations

import email.utils
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

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
