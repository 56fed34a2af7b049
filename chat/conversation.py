"""The conversation the browser keeps (issue 36): the chat's messages and what the last
answer was about (:class:`qa.context.Context`) survive a reload in the browser's own storage
(Gradio's ``BrowserState``, encrypted with the server's key), until "New conversation".

What comes back from the browser is checked like any input: only user and assistant
messages with text content, at most :data:`MAX_MESSAGES` of them and
:data:`MAX_CONVERSATION_CHARS` characters in all (the most recent kept; a longer one is
cut, and the cut logged), and a context whose ids are ids (the Chatbot sanitizes the HTML
it shows in any case).  The stored value can be forged (``POST /gradio_api/run/predict``
sends any value to the page-load event), so what one page load may keep in memory is
bounded here, what all of them keep together by :class:`chat.sessions.Sessions`."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import Any

from qa.context import Context

STORAGE_KEY = "kgqa-conversation-v1"
log = logging.getLogger(__name__)

MAX_MESSAGES = 200
MAX_CONTENT_CHARS = 20_000
"""The longest message restored (an answer's HTML is a few KiB; a list of 100 answers about 20 KiB)."""
MAX_CONVERSATION_CHARS = 256_000
"""The characters of all the messages of one restored conversation (the most recent are kept)."""
ROLES = frozenset({"user", "assistant"})
_SESSION_ID = re.compile(r"^[0-9a-f]{32}$")


@dataclass(frozen=True)
class Kept:
    """A conversation restored from the browser."""

    history: list[dict[str, Any]] = field(default_factory=list)
    context: Context | None = None
    session_id: str | None = None  # the session log's id of the conversation (its turns stay one session)
    cut: int = 0  # messages left out: too many, too long, or past the conversation's budget

    @property
    def size(self) -> int:
        """The characters of the restored messages (what :class:`chat.sessions.Sessions` charges)."""
        return sum(len(m["content"]) for m in self.history)


def ignored_input(question: str | None) -> bool:
    """Empty or spaces-only input: the chat ignores it (no bot message, nothing logged)."""
    return not (question or "").strip()


def stored_value(history: list[dict[str, Any]], context: Context | None,
                 session_id: str | None = None) -> dict[str, Any]:
    """What the browser keeps: the last :data:`MAX_MESSAGES` messages, the context and the
    session id (after a reload the conversation stays one session in the log, and its
    answers can still be rated)."""
    return {"history": [{"role": m["role"], "content": m["content"]} for m in history[-MAX_MESSAGES:]],
            "context": context.to_json() if context else None, "session_id": session_id if history else None}


def restore(stored: object) -> Kept:
    """The conversation in ``stored`` (what :func:`stored_value` wrote), checked and cut to
    :data:`MAX_MESSAGES` messages and :data:`MAX_CONVERSATION_CHARS` characters (the most
    recent kept); an empty one for anything else."""
    if not isinstance(stored, dict):
        return Kept()
    messages = stored.get("history")
    given = messages if isinstance(messages, list) else []
    history: list[dict[str, Any]] = []
    chars = 0
    for m in reversed(given[-MAX_MESSAGES * 4:]):  # newest first; never more than a few budgets read
        if len(history) >= MAX_MESSAGES:
            break
        if not (isinstance(m, dict) and m.get("role") in ROLES and isinstance(m.get("content"), str)
                and len(m["content"]) <= MAX_CONTENT_CHARS):
            continue
        if chars + len(m["content"]) > MAX_CONVERSATION_CHARS:
            break
        chars += len(m["content"])
        history.append({"role": m["role"], "content": m["content"]})
    history.reverse()
    cut = len(given) - len(history)
    if cut:
        log.info("a restored conversation was cut: %d of %d messages kept (%d characters)", len(history),
                 len(given), chars)
    session_id = stored.get("session_id")
    return Kept(history, Context.from_json(stored.get("context")) if history else None,
                session_id if history and isinstance(session_id, str) and _SESSION_ID.match(session_id) else None,
                cut)
