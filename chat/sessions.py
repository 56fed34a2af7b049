"""Server-side chat sessions and the bound on questions waiting to be answered.

Why a registry: Gradio keeps a ``gr.State`` per browser session, but an event's state
is whatever the event was dispatched with.  The page-load event used to create the
session's state; a question asked before that event finished created another one,
which the load event then replaced: the question was shown and never answered, nor
logged.  Every handler now looks its session up here by Gradio's ``session_hash``, so
all events of a tab share one state whatever order they run in.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

S = TypeVar("S")

MAX_SESSIONS = 10_000
MAX_WAITING = 32
"""Questions accepted and not yet answered, all sessions and ``/ask`` together; beyond it a
question gets the localized "busy" answer at once (and is logged) instead of waiting."""


class Sessions(Generic[S]):
    """``session_hash -> state``, created on first use; the least recently used are dropped
    beyond ``max_sessions`` (and a tab's state when the tab goes away)."""

    def __init__(self, factory: Callable[[], S], max_sessions: int = MAX_SESSIONS) -> None:
        self._factory = factory
        self._max = max_sessions
        self._lock = threading.Lock()
        self._states: OrderedDict[str, S] = OrderedDict()

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
            while len(self._states) > self._max:
                self._states.popitem(last=False)
            return state

    def drop(self, key: str | None) -> None:
        """Forget a session (its tab was closed)."""
        with self._lock:
            self._states.pop(key or "", None)

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
