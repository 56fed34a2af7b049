"""The conversations ``/api/ask`` holds for its clients: the context a follow-up question
refers to (:class:`qa.context.Context`), by the turn that left it and by conversation.

A client of the API asks a follow-up as a person asks the chat: it sends the previous
reply's ``turn_id`` as ``previous`` (or the ``conversation_id`` it was given, or one of its
own, as ``conversation``) and the question is read as the chat reads it.  Contexts are ids
only (no question text, no answer labels), kept in memory, at most :data:`MAX_KEPT` of each
kind, for :data:`KEPT_S` seconds after their last use: a conversation idle longer starts anew.
"""

from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict

from qa.context import Context

MAX_KEPT = 10_000
"""Contexts kept per kind (turns, conversations); the oldest go first."""
KEPT_S = 3600.0
"""How long a context is kept after its last use."""
CONVERSATION_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
"""What a conversation id may be (a server-given one is 32 hex digits)."""
TURN_ID = re.compile(r"^[0-9a-f]{8,64}$")


class UnknownTurn(LookupError):
    """``previous`` names a turn this service does not hold (never seen, or expired)."""


class Conversations:
    """Thread-safe, bounded: ``{turn id: (conversation id, context after it)}`` and
    ``{conversation id: context after its last turn}``."""

    def __init__(self, max_kept: int = MAX_KEPT, kept_s: float = KEPT_S) -> None:
        self.max_kept = max_kept
        self.kept_s = kept_s
        self._turns: OrderedDict[str, tuple[float, str, Context | None]] = OrderedDict()
        self._conversations: OrderedDict[str, tuple[float, Context | None]] = OrderedDict()
        self._lock = threading.Lock()

    def after_turn(self, turn_id: str) -> tuple[str, Context | None]:
        """(conversation id, context) left by turn ``turn_id``; raises :class:`UnknownTurn`."""
        with self._lock:
            self._expire()
            held = self._turns.get(turn_id)
            if held is None:
                raise UnknownTurn(turn_id)
            return held[1], held[2]

    def latest(self, conversation_id: str) -> Context | None:
        """The context after the last turn of ``conversation_id`` (``None``: new, or idle too long)."""
        with self._lock:
            self._expire()
            held = self._conversations.get(conversation_id)
            return held[1] if held else None

    def record(self, conversation_id: str, turn_id: str | None, context: Context | None) -> None:
        """Keep the context after a turn, by the turn and as its conversation's latest."""
        now = time.monotonic()
        with self._lock:
            if turn_id:
                self._turns[turn_id] = (now, conversation_id, context)
                self._turns.move_to_end(turn_id)
            self._conversations[conversation_id] = (now, context)
            self._conversations.move_to_end(conversation_id)
            for table in (self._turns, self._conversations):
                while len(table) > self.max_kept:
                    table.popitem(last=False)

    def _expire(self) -> None:
        cutoff = time.monotonic() - self.kept_s
        for table in (self._turns, self._conversations):
            while table and next(iter(table.values()))[0] < cutoff:
                table.popitem(last=False)
