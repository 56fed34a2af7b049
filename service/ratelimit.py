"""One token-bucket rate limit for every door: the chat UI, the chat's ``/ask``,
``/api/qa/full`` and ``/gerbil`` all take their tokens from one :class:`ClientLimiter`
per process, keyed by the client's address (a page reload cannot reset it), hashed in
memory and never stored.  ``X-Forwarded-For`` is believed only when the connection
comes from one of the configured ``trusted_proxies`` (``Settings.trusted_proxies``).

Keys are opaque strings (:func:`client_key` of an address).
Buckets live in memory only and the least recently used ones are dropped beyond
``max_keys``, so memory stays bounded; nothing is written anywhere.

::

    limiter = RateLimiter(per_minute=settings.rate_limit_per_minute)
    wait = limiter.acquire(session_id)
    if wait > 0:
        ...  # tell the user to slow down; retry in `wait` seconds
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping

from starlette.datastructures import Headers

_PROCESS_SECRET = secrets.token_bytes(32)


class RateLimiter:
    """``per_minute`` requests per key on average, bursts of up to ``burst`` (default: a
    sixth of a minute's worth, at least 3).  ``per_minute <= 0`` disables limiting."""

    def __init__(
        self,
        per_minute: float,
        burst: int | None = None,
        *,
        max_keys: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_minute = float(per_minute)
        self.rate_per_s = self.per_minute / 60.0
        self.burst = float(burst if burst is not None else max(3, round(self.per_minute / 6)))
        self.max_keys = max_keys
        self._clock = clock
        self._lock = threading.Lock()
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key -> (tokens, last refill)

    @property
    def enabled(self) -> bool:
        """False when limiting is switched off."""
        return self.per_minute > 0

    def acquire(self, key: str) -> float:
        """Take one token for ``key``: 0.0 when allowed, else the seconds until a token is free."""
        if not self.enabled:
            return 0.0
        now = self._clock()
        with self._lock:
            tokens, last = self._buckets.pop(key, (self.burst, now))
            tokens = min(self.burst, tokens + (now - last) * self.rate_per_s)
            if tokens >= 1.0:
                self._buckets[key] = (tokens - 1.0, now)
                wait = 0.0
            else:
                self._buckets[key] = (tokens, now)
                wait = (1.0 - tokens) / self.rate_per_s
            while len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)
        return wait

    def allow(self, key: str) -> bool:
        """True when ``key`` may make a request now (takes a token)."""
        return self.acquire(key) == 0.0

    def tracked_keys(self) -> int:
        """How many keys have a bucket in memory (bounded by ``max_keys``)."""
        with self._lock:
            return len(self._buckets)


def client_key(address: str | None, secret: bytes = _PROCESS_SECRET) -> str:
    """An opaque, per-process key for a client address, so that no IP is kept even in
    memory (HMAC with a random secret drawn at start-up)."""
    return hmac.new(secret, (address or "?").encode(), hashlib.sha256).hexdigest()[:16]


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_proxies(spec: str | Iterable[str] | None) -> tuple[Network, ...]:
    """Trusted proxies from ``"10.0.0.1, 192.168.0.0/24"`` (addresses or networks).

    Raises :class:`ValueError` for an entry that is neither."""
    items = spec.split(",") if isinstance(spec, str) else list(spec or ())
    return tuple(ipaddress.ip_network(item.strip(), strict=False) for item in items if item.strip())


IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


def parse_address(text: str | None) -> IPAddress | None:
    """An address as a peer or an ``X-Forwarded-For`` hop writes it, normalized: surrounding
    space, ``[...]`` brackets, a ``:port`` and an IPv6 zone are dropped, and an IPv4-mapped
    IPv6 address (``::ffff:1.2.3.4``) is its IPv4 address; ``None`` when it is no address."""
    value = (text or "").strip()
    if value.startswith("["):  # [v6] or [v6]:port
        value = value[1:].split("]", 1)[0]
    elif value.count(":") == 1:  # v4:port
        value = value.split(":", 1)[0]
    value = value.split("%", 1)[0]
    try:
        ip = ipaddress.ip_address(value)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def normalize_address(text: str | None) -> str:
    """:func:`parse_address` as text (``::FFFF:1.2.3.4`` and ``1.2.3.4`` are one client);
    what is no address stays as given (``?`` when empty)."""
    ip = parse_address(text)
    return str(ip) if ip is not None else ((text or "").strip() or "?")


def forwarded_hops(headers: Headers | Mapping[str, str] | None) -> list[str]:
    """Every ``X-Forwarded-For`` hop, left to right, over *all* the header's lines (a
    client may send its own line before the proxy's: only the right end is the proxy's)."""
    if headers is None:
        return []
    lines = headers.getlist("x-forwarded-for") if isinstance(headers, Headers) else [
        value for key, value in headers.items() if key.lower() == "x-forwarded-for"]
    return [hop.strip() for line in lines for hop in line.split(",") if hop.strip()]


class ClientLimiter:
    """The one rate limit of a process, keyed by client address.

    The address is the connection's peer, unless the peer is a trusted proxy: then it is
    the right-most ``X-Forwarded-For`` hop that is not itself a trusted proxy (hops left of
    it were written by the client and prove nothing).  Addresses are normalized
    (:func:`normalize_address`)."""

    def __init__(self, limiter: RateLimiter, trusted_proxies: str | Iterable[str] | None = None) -> None:
        self.limiter = limiter
        self.trusted = parse_proxies(trusted_proxies)

    @classmethod
    def per_minute(cls, per_minute: float, trusted_proxies: str | Iterable[str] | None = None) -> ClientLimiter:
        """A limiter of ``per_minute`` questions per client (0: off)."""
        return cls(RateLimiter(per_minute), trusted_proxies)

    def _is_trusted(self, address: str | None) -> bool:
        ip = parse_address(address)
        return ip is not None and any(ip in net for net in self.trusted)

    def client_address(self, peer: str | None, headers: Headers | Mapping[str, str] | None = None) -> str:
        """The address the limit applies to (see the class docstring), normalized."""
        address = normalize_address(peer)
        if not self._is_trusted(peer):
            return address
        for hop in reversed(forwarded_hops(headers)):
            if parse_address(hop) is None:
                break  # garbage: stop believing the header here
            address = normalize_address(hop)
            if not self._is_trusted(hop):
                break
        return address

    def key(self, peer: str | None, headers: Headers | Mapping[str, str] | None = None) -> str:
        """The client's opaque key (:func:`client_key` of :meth:`client_address`)."""
        return client_key(self.client_address(peer, headers))

    def acquire(self, peer: str | None, headers: Headers | Mapping[str, str] | None = None) -> float:
        """Take one token for this client: 0.0 when allowed, else the seconds to wait."""
        return self.limiter.acquire(self.key(peer, headers))


class InFlight:
    """Requests of each client being answered or waiting for a slot, at most ``per_client``
    (a fair share of the shared queue: one client cannot fill it); keys are opaque."""

    def __init__(self, per_client: int) -> None:
        self.per_client = max(1, per_client)
        self._lock = threading.Lock()
        self._counts: dict[str, int] = {}

    def try_enter(self, key: str) -> bool:
        """Count one more request of ``key``; False (not counted) when it has its share already."""
        with self._lock:
            count = self._counts.get(key, 0)
            if count >= self.per_client:
                return False
            self._counts[key] = count + 1
            return True

    def leave(self, key: str) -> None:
        """One request of ``key`` is done."""
        with self._lock:
            count = self._counts.get(key, 0) - 1
            if count > 0:
                self._counts[key] = count
            else:
                self._counts.pop(key, None)

    def __len__(self) -> int:
        with self._lock:
            return sum(self._counts.values())


class RefusedCounter:
    """Refused requests counted by reason (``rate_limited``, ``busy``, ``bad_host`` ...):
    counted, never logged as turns, shown by ``/health``."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: dict[str, int] = {}

    def add(self, reason: str) -> None:
        """Count one refused request."""
        with self._lock:
            self._counts[reason] = self._counts.get(reason, 0) + 1

    def counts(self) -> dict[str, int]:
        """Refusals so far, by reason."""
        with self._lock:
            return dict(sorted(self._counts.items()))
