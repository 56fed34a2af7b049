"""The conversation the browser keeps (issue 36): the chat's messages and what the last
answer was about (:class:`qa.context.Context`) survive a reload in the browser's own storage
(Gradio's ``BrowserState``, encrypted with the server's key), until "New conversation".

What comes back from the browser is checked like any input: only user and assistant
messages with text content, at most :data:`MAX_MESSAGES` of them, and a context whose ids
are ids (the Chatbot sanitizes the HTML it shows in any case)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from qa.context import Context

STORAGE_KEY = "kgqa-conversation-v1"
MAX_MESSAGES = 200
MAX_CONTENT_CHARS = 200_000
ROLES = frozenset({"user", "assistant"})
_SESSION_ID = re.compile(r"^[0-9a-f]{32}$")


@dataclass(frozen=True)
class Kept:
    """A conversation restored from the browser."""

    history: list[dict[str, Any]] = field(default_factory=list)
    context: Context | None = None
    session_id: str | None = None  # the session log's id of the conversation (its turns stay one session)


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
    """The conversation in ``stored`` (what :func:`stored_value` wrote), checked; an empty
    one for anything else."""
    if not isinstance(stored, dict):
        return Kept()
    messages = stored.get("history")
    history = [{"role": m["role"], "content": m["content"]} for m in (messages if isinstance(messages, list) else [])
               if isinstance(m, dict) and m.get("role") in ROLES and isinstance(m.get("content"), str)
               and len(m["content"]) <= MAX_CONTENT_CHARS][-MAX_MESSAGES:]
    session_id = stored.get("session_id")
    return Kept(history, Context.from_json(stored.get("context")) if history else None,
                session_id if history and isinstance(session_id, str) and _SESSION_ID.match(session_id) else None)
