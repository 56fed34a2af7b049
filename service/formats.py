"""Wire formats of the web API: QAnswer's ``/api/qa/full`` reply, GERBIL's request body
and QALD-JSON replies.  Pure functions, no I/O."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote_plus

from qa.candidate import Candidate
from qa.pipeline import AnswerItem, Turn

ANSWER_VAR = "answer"
_ESCAPED = re.compile(r"%[0-9A-Fa-f]{2}")


def qa_full_reply(question: str, candidates: list[Candidate], kb: str) -> dict[str, Any]:
    """``{"question", "queries": [{"query", "confidence", "kb"}]}`` in rank order."""
    return {"question": question,
            "queries": [{"query": c.sparql, "confidence": float(c.score), "kb": kb} for c in candidates]}


def parse_gerbil_body(raw: bytes) -> tuple[str, str | None]:
    """``query=<text>&lang=<xx>`` -> ``(text, lang)``.

    GERBIL does not URL-encode the question, so the text may itself contain ``&`` or
    ``&lang=``: the body is split on the *last* ``&lang=`` only.  A body that is
    URL-encoded after all (no literal spaces, but ``%XX`` or ``+``) is decoded.
    Raises :class:`ValueError` when the body does not start with ``query=``.
    """
    body = raw.decode("utf-8", errors="replace").lstrip("\ufeff").strip()
    if not body.startswith("query="):
        raise ValueError("body must be query=<question>&lang=<code>")
    rest = body[len("query="):]
    text, sep, lang = rest.rpartition("&lang=")
    if not sep:
        text, lang = rest, ""
    if " " not in text and (_ESCAPED.search(text) or "+" in text):
        text = unquote_plus(text)
    lang = lang.strip().lower() or None
    return text, lang


def _binding(item: AnswerItem) -> dict[str, str]:
    if item.kind == "uri":
        return {"type": "uri", "value": item.value}
    out = {"type": "literal", "value": item.value}
    if item.label_lang:
        out["xml:lang"] = item.label_lang
    elif item.datatype:
        out["datatype"] = item.datatype
    return out


def qald_answers(turn: Turn) -> list[dict[str, Any]]:
    """The QALD ``answers`` array of a turn: SPARQL-JSON bindings, ``boolean`` for ASK,
    empty bindings when the system abstains."""
    if turn.answered and turn.boolean is not None:
        return [{"head": {}, "boolean": turn.boolean}]
    if not turn.answered:
        return [{"head": {"vars": [ANSWER_VAR]}, "results": {"bindings": []}}]
    bindings = [{ANSWER_VAR: _binding(a)} for a in turn.answers]
    bindings += [{ANSWER_VAR: {"type": "uri", "value": iri}} for iri in turn.unnamed]  # the chat shows none
    return [{"head": {"vars": [ANSWER_VAR]}, "results": {"bindings": bindings}}]


def qald_reply(turn: Turn, question: str, lang: str | None, qid: str = "1") -> dict[str, Any]:
    """A one-question QALD-JSON document with the gated answer (what GERBIL reads)."""
    entry: dict[str, Any] = {
        "id": qid,
        "question": [{"language": lang or turn.lang, "string": question}],
        "answers": qald_answers(turn),
    }
    if turn.answered and turn.sparql:
        entry["query"] = {"sparql": turn.sparql}
    return {"questions": [entry]}
