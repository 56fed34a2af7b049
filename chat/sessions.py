"""Server-side chat sessions and the bound on questions waiting to be answered.

Why a registry: Gradio keeps a ``gr.State`` per browser session, but an event's state
is whatever the event was dispatched with.  The page-load event used to create the
session's state; a question asked before that event finished created another one,
which the load event then replaced: the question was shown and never answered, nor
logged.  Every handler now looks its session up here by Gradio's ``session_hash``, so
all events of a tab share one state whatever order they run in.

The registry is bounded twice: at most ``max_sessions`` states, and at most ``max_chars``
characters of restored conversations (:meth:`Sessions.charge`).  Past either bound the
least recently used *passive* session goes first: one that has had a single event (a
page load: what a flood of forged loads makes).  A session that has had more (a tab in
use: a question, a like, a language change) goes only when no passive one is left, so a
flood of loads never evicts an active conversation.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

S = TypeVar("S")

MAX_SESSIONS = 10_000
MAX_RESTORED_CHARS = 64_000_000
"""Characters of restored conversations kept, all sessions together (about 64 MiB of ASCII
text; 250 conversations at :data:`chat.conversation.MAX_CONVERSATION_CHARS`)."""
MAX_WAITING = 32
"""Questions accepted and not yet answered, all sessions and ``/ask`` together; beyond it a
question gets the localized "busy" answer at once (and is logged) instead of waiting."""


class Sessions(Generic[S]):
    """``session_hash -> state``, created on first use; past ``max_sessions`` states, or
    ``max_chars`` characters charged, the least recently used passive sessions are dropped
    first (see the module docstring); a tab's state goes when the tab goes away."""

    def __init__(self, factory: Callable[[], S], max_sessions: int = MAX_SESSIONS,
                 max_chars: int = MAX_RESTORED_CHARS) -> None:
        self._factory = factory
        self._max = max_sessions
        self.max_chars = max_chars
        self._lock = threading.Lock()
        self._states: OrderedDict[str, S] = OrderedDict()
        self._events: dict[str, int] = {}  # events seen per session (1: loaded only)
        self._chars: dict[str, int] = {}  # restored characters charged per session
        self.chars = 0
        self.evicted = 0

    def get(self, key: str | None, factory: Callable[[], S] | None = None) -> S:
        """The session's state, made by ``factory`` (default: the registry's) on first use;
        a fresh, unregistered one when there is no session hash."""
        make = factory or self._factory
        if not key:
            return make()
        with self._lock:
            state = self._states.pop(key, None)
            if state is None:
                state = make()
            self._states[key] = state
            self._events[key] = self._events.get(key, 0) + 1
            while len(self._states) > self._max:
                self._evict(keep=key)
            return state

    def charge(self, key: str | None, chars: int) -> bool:
        """Count ``chars`` restored characters to the session; room is made by dropping
        other sessions (passive ones first).  False (nothing charged) when the session
        cannot have them: then restore nothing."""
        if not key or chars <= 0:
            return not key or chars <= 0
        with self._lock:
            if key not in self._states or chars > self.max_chars:
                return False
            while self.chars + chars > self.max_chars and len(self._states) > 1:
                if not self._evict(keep=key, active_too=False):
                    return False  # only active conversations left: they stay, this one restores nothing
            self._chars[key] = self._chars.get(key, 0) + chars
            self.chars += chars
            return True

    def drop(self, key: str | None) -> None:
        """Forget a session (its tab was closed)."""
        with self._lock:
            self._forget(key or "")

    def _forget(self, key: str) -> None:
        self._states.pop(key, None)
        self._events.pop(key, None)
        self.chars -= self._chars.pop(key, 0)

    def _evict(self, *, keep: str, active_too: bool = True) -> bool:
        """Drop the least recently used passive session (else, with ``active_too``, the least
        recently used one) other than ``keep``; False when none could go."""
        victim = next((k for k in self._states if k != keep and self._events.get(k, 0) <= 1), None)
        if victim is None and active_too:
            victim = next((k for k in self._states if k != keep), None)
        if victim is None:
            return False
        self._forget(victim)
        self.evicted += 1
        return True

    def __len__(self) -> int:
        with self._lock:
            return len(self._states)


class Backlog:
    """A counter of questions waiting to be answered, bounded by ``limit``."""

    def __init__(self, limit: int = MAX_WAITING) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        self._waiting = 0

    def try_add(self) -> bool:
        """Count one more waiting question; False (not counted) when the backlog is full."""
        with self._lock:
            if self._waiting >= self.limit:
                return False
            self._waiting += 1
            return True

    def done(self) -> None:
        """One waiting question was answered."""
        with self._lock:
            self._waiting = max(0, self._waiting - 1)

    @property
    def waiting(self) -> int:
        """Questions waiting now."""
        with self._lock:
            return self._waiting
