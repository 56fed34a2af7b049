"""One HTTP call, one deadline: :class:`HttpCaller`, the retry and circuit-breaker loop of
every HTTP client (the QAnswer backend, a remote SPARQL endpoint, Wikidata's entity
search), over httpx.  One deadline per call (retries, sleeps and every socket read
included, :class:`DeadlineTransport`), a cap on the decoded reply (:class:`CappedDecoder`),
and one table translating httpx's exceptions (:data:`HTTPX_FAULTS`) into
:class:`core.resilience.Fault`, which each client maps to its own :mod:`core.errors`
classes.  The transport-agnostic parts (backoff, breaker, the question's budget) are
:mod:`core.resilience`; only the clients that speak HTTP import this module (and httpx)."""

from __future__ import annotations

import contextvars
import logging
import ssl
import time
import urllib.parse
import zlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import httpcore
import httpx

from core.resilience import (
    DEFAULT_MAX_BYTES,
    RETRIED,
    AttemptFailed,
    Backoff,
    Budget,
    CircuitBreaker,
    ErrorTable,
    Fault,
    budget_left,
    charge_sent,
    parse_retry_after,
)

log = logging.getLogger(__name__)

T = TypeVar("T")

HTTPX_FAULTS: tuple[tuple[type[Exception], Fault], ...] = (
    (httpx.TimeoutException, Fault.TIMEOUT),
    (httpx.TransportError, Fault.UNREACHABLE),  # connect errors, resets, protocol errors
    (httpx.StreamError, Fault.UNREACHABLE),
)
"""The one translation table of httpx's exceptions (first match wins), as httpx maps httpcore's."""

ACCEPT_ENCODING = "gzip, deflate"
"""The only content codings a client asks for (httpx would also offer ``br`` and ``zstd``)."""
_READ_CHUNK = 64 * 1024  # decoded bytes produced per step: the bound on one step's memory
_DEADLINE: contextvars.ContextVar[float | None] = contextvars.ContextVar("kgqa_http_deadline", default=None)


@dataclass(frozen=True)
class HttpReply:
    """A whole (capped) HTTP reply."""

    status: int
    headers: httpx.Headers
    body: bytes
    url: str


def _remaining(timeout: float | None) -> float | None:
    """``timeout`` shortened to what is left before this thread's call deadline."""
    deadline = _DEADLINE.get()
    if deadline is None:
        return timeout
    left = deadline - time.monotonic()
    if left <= 0:
        raise httpcore.ReadTimeout("the call's deadline has passed")
    return left if timeout is None else min(timeout, left)


class _DeadlineStream(httpcore.NetworkStream):
    """A socket stream whose every read and write ends by the call's deadline, so that a
    server dripping one byte at a time is cut at the deadline (httpx's timeouts apply per
    read)."""

    def __init__(self, stream: httpcore.NetworkStream) -> None:
        self._stream = stream

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._stream.read(max_bytes, _remaining(timeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._stream.write(buffer, _remaining(timeout))

    def close(self) -> None:
        self._stream.close()

    def start_tls(self, ssl_context: ssl.SSLContext, server_hostname: str | None = None,
                  timeout: float | None = None) -> httpcore.NetworkStream:
        return _DeadlineStream(self._stream.start_tls(ssl_context, server_hostname, _remaining(timeout)))

    def get_extra_info(self, info: str) -> object:
        return self._stream.get_extra_info(info)


class _DeadlineBackend(httpcore.NetworkBackend):
    """httpcore's socket backend with :class:`_DeadlineStream` streams."""

    def __init__(self) -> None:
        self._backend = httpcore.SyncBackend()

    def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                    socket_options: Iterable[Any] | None = None) -> httpcore.NetworkStream:
        return _DeadlineStream(self._backend.connect_tcp(host, port, _remaining(timeout), local_address,
                                                         socket_options))

    def connect_unix_socket(self, path: str, timeout: float | None = None,
                            socket_options: Iterable[Any] | None = None) -> httpcore.NetworkStream:
        return _DeadlineStream(self._backend.connect_unix_socket(path, _remaining(timeout), socket_options))

    def sleep(self, seconds: float) -> None:
        self._backend.sleep(seconds)


class DeadlineTransport(httpx.HTTPTransport):
    """httpx's own transport over :class:`_DeadlineBackend` (httpx offers no per-call
    deadline; its connection pool is given the deadline-aware socket backend instead)."""

    def __init__(self) -> None:
        super().__init__()
        self._pool = httpcore.ConnectionPool(network_backend=_DeadlineBackend(), max_connections=20,
                                             max_keepalive_connections=10, keepalive_expiry=5.0)


class HttpCaller:
    """The retry and circuit-breaker loop of both HTTP clients (QAnswer, remote SPARQL).

    One :meth:`call` has ONE deadline, ``timeout_s``, for everything: connecting, every
    read, every retry and every backoff sleep.  The reply is streamed and cut past
    ``max_bytes``.  Refused connections, 5xx and 429 are retried at most ``retries`` times
    (a 429's ``Retry-After`` is honoured when it fits in the time left); the breaker fails
    fast after repeated failed calls.  Every fault becomes ``errors[fault]`` (a
    :class:`KGQAError`), raised ``from`` the foreign exception when there is one.
    """

    def __init__(self, errors: ErrorTable, *, timeout_s: float = 10.0, retries: int = 2,
                 backoff: Backoff | None = None, breaker: CircuitBreaker | None = None,
                 max_bytes: int = DEFAULT_MAX_BYTES, headers: Mapping[str, str] | None = None,
                 transport: httpx.BaseTransport | None = None, auth: tuple[str, str] | None = None) -> None:
        if timeout_s <= 0:
            raise ValueError("timeout_s must be positive")
        self.errors = errors
        self.timeout_s = float(timeout_s)
        self.retries = max(0, int(retries))
        self.backoff = backoff or Backoff()
        self.breaker = breaker or CircuitBreaker(failure_threshold=5, reset_timeout_s=30.0)
        self.max_bytes = max_bytes
        self._client = httpx.Client(headers={"Accept-Encoding": ACCEPT_ENCODING, **dict(headers or {})},
                                    transport=transport or DeadlineTransport(), follow_redirects=False,
                                    auth=httpx.BasicAuth(*auth) if auth else None)

    def close(self) -> None:
        """Close the connection pool."""
        self._client.close()

    def call(self, method: str, url: str, parse: Callable[[HttpReply], T], *,
             params: Mapping[str, str] | None = None, data: Mapping[str, str] | None = None,
             timeout_s: float | None = None) -> T:
        """``parse(reply)`` of the first good reply; raises ``errors[fault]`` otherwise.

        ``parse`` runs inside the breaker's accounting: a malformed reply counts as a
        failed call, a :attr:`Fault.REJECTED` one (the request was bad) as a live server."""
        if not self.breaker.allow():
            raise self.errors[Fault.BREAKER_OPEN](
                f"{url}: circuit breaker open after repeated failures; next try in {self.breaker.retry_in():.1f}s")
        seconds = timeout_s or self.timeout_s
        left = budget_left()
        if left is not None:
            if left <= 0.05:
                raise self.errors[Fault.TIMEOUT](f"{url}: the question's time budget is spent")
            seconds = min(seconds, left)
        budget = Budget(seconds)
        token = _DEADLINE.set(time.monotonic() + budget.seconds)
        try:
            result = parse(self._with_retries(method, url, budget, params, data))
        except AttemptFailed as failure:
            if failure.fault is Fault.REJECTED:
                self.breaker.record_success()  # the server is alive; the request was bad
            elif failure.fault is not Fault.RATE_LIMITED:  # a 429 is one client's limit, not an outage
                self.breaker.record_failure()
            raise self.errors[failure.fault](f"{url}: {failure.detail}") from (failure.__cause__ or failure)
        except self.errors[Fault.REJECTED]:
            self.breaker.record_success()  # the server is alive; the request was bad
            raise
        except BaseException:
            self.breaker.record_failure()
            raise
        finally:
            _DEADLINE.reset(token)
        self.breaker.record_success()
        return result

    def _with_retries(self, method: str, url: str, budget: Budget, params: Mapping[str, str] | None,
                      data: Mapping[str, str] | None) -> HttpReply:
        """The first good reply; the last :class:`AttemptFailed` when no retry is left (or no time)."""
        attempt = 0
        while True:
            try:
                return self._attempt(method, url, budget, params, data)
            except AttemptFailed as failure:
                if failure.fault not in RETRIED or attempt >= self.retries:
                    raise
                wait = failure.wait_s if failure.wait_s is not None else self.backoff.delay(attempt)
                if not budget.sleep(wait):
                    detail = (f"{failure.detail} (no time left in the {budget.seconds:g}s budget "
                              f"to retry after {wait:.1f}s)")
                    raise AttemptFailed(failure.fault, detail) from (failure.__cause__ or failure)
                log.info("%s: attempt %d failed (%s); retrying", url, attempt + 1, failure.detail)
                attempt += 1

    def _attempt(self, method: str, url: str, budget: Budget, params: Mapping[str, str] | None,
                 data: Mapping[str, str] | None) -> HttpReply:
        remaining = budget.remaining()
        if remaining <= 0:
            raise AttemptFailed(Fault.TIMEOUT, f"no answer within {budget.seconds:g}s")
        charge_sent(_request_size(url, params, data), url)
        try:
            with self._client.stream(method, url, params=params, data=data,
                                     timeout=httpx.Timeout(remaining)) as response:
                body = self._read_capped(response, budget)
        except httpx.HTTPError as exc:
            fault = _translate(exc)
            detail = f"no answer within {budget.seconds:g}s" if fault is Fault.TIMEOUT else f"cannot connect: {exc!r}"
            raise AttemptFailed(fault, detail) from exc
        reply = HttpReply(response.status_code, response.headers, body, url)
        _check_status(reply)
        return reply

    def _read_capped(self, response: httpx.Response, budget: Budget) -> bytes:
        """The reply's body, decoded, cut past :attr:`max_bytes` *decoded* bytes while it is
        decoded (:class:`CappedDecoder`), and by the call's deadline."""
        declared = response.headers.get("Content-Length", "")
        if declared.isdigit() and int(declared) > self.max_bytes:
            raise AttemptFailed(Fault.TOO_LARGE, f"reply of {declared} bytes exceeds the {self.max_bytes}-byte cap")
        decoder = CappedDecoder(response.headers.get("Content-Encoding"), self.max_bytes)
        for raw in response.iter_raw(_READ_CHUNK):  # raw bytes: httpx's own decoder has no output limit
            decoder.feed(raw)
            if budget.expired():
                raise AttemptFailed(Fault.TIMEOUT, f"no whole answer within {budget.seconds:g}s")
        return decoder.finish()


class CappedDecoder:
    """A reply body's content coding undone with a cap on the *decoded* size, as it arrives.

    Only what :data:`ACCEPT_ENCODING` asks for is accepted: no coding (``identity``), or
    ONE ``gzip`` or ``deflate``.  A stacked coding (``gzip, gzip``), ``br``, ``zstd`` or
    any other is refused (:attr:`Fault.BAD_REPLY`) before a byte is decoded: a 405-byte
    brotli reply or 1,827 bytes of gzip in gzip used to expand to gigabytes.  zlib is
    asked for at most what the cap still allows per step (``max_length``), so the memory
    held is the cap plus one step, whatever the ratio."""

    def __init__(self, content_encoding: str | None, max_bytes: int) -> None:
        codings = [c.strip().lower() for c in (content_encoding or "").split(",") if c.strip()]
        codings = [c for c in codings if c != "identity"]
        if len(codings) > 1:
            raise AttemptFailed(Fault.BAD_REPLY, f"stacked content codings refused: {content_encoding!r}")
        self.coding = codings[0] if codings else None
        if self.coding in ("gzip", "x-gzip"):
            self._zlib: zlib._Decompress | None = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif self.coding == "deflate":
            self._zlib = None  # zlib-wrapped (RFC 9110) or raw deflate: told by the first bytes
        elif self.coding is None:
            self._zlib = None
        else:
            raise AttemptFailed(Fault.BAD_REPLY,
                                f"content coding {self.coding!r} refused (asked for {ACCEPT_ENCODING})")
        self.max_bytes = max_bytes
        self.size = 0
        self._parts: list[bytes] = []

    def _keep(self, data: bytes) -> None:
        self.size += len(data)
        if self.size > self.max_bytes:
            raise AttemptFailed(Fault.TOO_LARGE, f"reply exceeds the {self.max_bytes}-byte cap")
        if data:
            self._parts.append(data)

    def feed(self, raw: bytes) -> None:
        """Decode (and keep) one chunk of the raw body."""
        if self.coding is None:
            self._keep(raw)
            return
        if self._zlib is None:  # deflate: zlib header or raw stream
            self._zlib = zlib.decompressobj(zlib.MAX_WBITS if raw[:1] and (raw[0] & 0x0F) == 8
                                            and len(raw) > 1 and (raw[0] << 8 | raw[1]) % 31 == 0
                                            else -zlib.MAX_WBITS)
        data = raw
        try:
            while data:
                if self._zlib.eof:
                    break  # trailing bytes after the stream's end are ignored
                out = self._zlib.decompress(data, min(_READ_CHUNK, self.max_bytes - self.size + 1))
                self._keep(out)
                data = self._zlib.unconsumed_tail
        except zlib.error as exc:
            raise AttemptFailed(Fault.BAD_REPLY, f"undecodable {self.coding} body: {exc}") from exc

    def finish(self) -> bytes:
        """The whole decoded body."""
        if self._zlib is not None and not self._zlib.eof and self.coding is not None:
            try:
                self._keep(self._zlib.flush(self.max_bytes - self.size + 1))
            except zlib.error as exc:
                raise AttemptFailed(Fault.BAD_REPLY, f"undecodable {self.coding} body: {exc}") from exc
        return b"".join(self._parts)


def _request_size(url: str, params: Mapping[str, str] | None, data: Mapping[str, str] | None) -> int:
    """What a request sends besides its headers: its URL and its encoded parameters and form body."""
    return len(url) + sum(len(urllib.parse.urlencode(part)) for part in (params, data) if part)


def _translate(exc: httpx.HTTPError) -> Fault:
    for kind, fault in HTTPX_FAULTS:
        if isinstance(exc, kind):
            return fault
    return Fault.UNREACHABLE


def _check_status(reply: HttpReply) -> None:
    status = reply.status
    if 200 <= status < 300:
        return
    snippet = reply.body[:200].decode("utf-8", errors="replace")
    if status == 429:
        wait = parse_retry_after(reply.headers.get("Retry-After"))
        raise AttemptFailed(Fault.RATE_LIMITED, f"rate limited (429, Retry-After={wait})", wait)
    if status == 504 or (status >= 500 and "timeout" in snippet.lower()):
        raise AttemptFailed(Fault.TIMEOUT, f"query timed out on the server ({status})")
    if status >= 500:
        raise AttemptFailed(Fault.SERVER_ERROR, f"server error {status}: {snippet}")
    if status == 400:
        raise AttemptFailed(Fault.REJECTED, f"the server rejected the request (400): {snippet}")
    raise AttemptFailed(Fault.BAD_STATUS, f"unexpected HTTP status {status}: {snippet}")
