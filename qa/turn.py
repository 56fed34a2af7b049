"""What answering one question produced: a :class:`Turn`, its :class:`Status`, and the
one place where a status chooses what the user is told (:func:`message_key`; the UI
layer words the key, :func:`chat.messages.turn_message`)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any


class Status(StrEnum):
    """How a turn ended.  A ``StrEnum``: JSON, the session log and comparisons with the
    plain strings see the same values as before."""

    OK = "ok"
    ABSTAINED = "abstained"  # the gate kept nothing, or the kept query found nothing
    NO_CANDIDATES = "no_candidates"  # the backend offered no query
    BAD_INPUT = "bad_input"  # empty, too long, not text
    SERVICE_ERROR = "service_error"  # backend or KG unavailable or too slow: try again
    ERROR = "error"  # a bug
    RATE_LIMITED = "rate_limited"  # not answered: asked too fast
    BUSY = "busy"  # not answered: too many questions already waiting


ABSTAIN_STATUSES = frozenset({Status.ABSTAINED, Status.NO_CANDIDATES})
"""Statuses where the system honestly said "I don't know"."""

_MESSAGE_KEYS: dict[Status, str] = {
    Status.OK: "answer_intro",
    Status.BAD_INPUT: "empty_question",
    Status.SERVICE_ERROR: "service_unavailable",
    Status.ERROR: "internal_error",
    Status.RATE_LIMITED: "rate_limited",
    Status.BUSY: "busy",
}


def message_key(status: Status) -> str:
    """The message a turn ending in ``status`` shows unless a stage chose a more specific
    one (``too_long``, ``comparison_unknown``, ``comparison_equal``)."""
    return _MESSAGE_KEYS.get(status, "dont_know")


@dataclass
class AnswerItem:
    """One shown answer value with its label in (or near) the user's language."""

    value: str
    id: str | None
    label: str
    label_lang: str | None
    datatype: str | None = None
    kind: str = "uri"

    def to_json(self) -> dict[str, Any]:
        """The contract's answer object."""
        return {"value": self.value, "id": self.id, "label": self.label, "label_lang": self.label_lang,
                "datatype": self.datatype, "type": self.kind}


@dataclass(frozen=True)
class Compared:
    """The score the gate compared for one candidate and the threshold it was compared
    with, by name (for an honest explanation)."""

    score: float
    threshold: float
    score_name: str = "validator"  # validator | blended | probability
    threshold_name: str = "answer"  # answer | yes_no | complex
    probability: float | None = None  # the calibrated chance of being right, where another score decided

    def to_json(self) -> dict[str, Any]:
        """The contract's object."""
        out: dict[str, Any] = {"score": self.score, "threshold": self.threshold, "score_name": self.score_name,
                               "threshold_name": self.threshold_name}
        if self.probability is not None:
            out["probability"] = self.probability
        return out


@dataclass
class CandidateView:
    """A candidate as reported back: backend score, validator score, kept flag."""

    sparql: str
    backend_score: float
    validator_score: float | None = None
    kept: bool = False
    verbalization: str | None = None
    passed: bool | None = None  # cleared the gate's threshold (None: not scored)
    shape: str = ""
    entities: tuple[str, ...] = ()
    properties: tuple[str, ...] = ()
    compared: Compared | None = None  # what the gate compared with what (None: not scored)

    def to_json(self) -> dict[str, Any]:
        """The contract's candidate object."""
        return {"sparql": self.sparql, "backend_score": self.backend_score,
                "validator_score": self.validator_score, "kept": self.kept,
                "verbalization": self.verbalization, "passed": self.passed, "shape": self.shape,
                "entities": list(self.entities), "properties": list(self.properties),
                "compared": self.compared.to_json() if self.compared else None}


@dataclass
class Turn:
    """Everything about answering one question."""

    question: str
    lang: str
    detected_lang: str | None
    answered: bool = False
    answers: list[AnswerItem] = field(default_factory=list)
    boolean: bool | None = None
    sparql: str | None = None
    confidence: float | None = None  # calibrated chance that the shown answer is right (None: unknown)
    candidates: list[CandidateView] = field(default_factory=list)
    message_key: str = ""  # what to tell the user; the UI layer words it (chat.messages.turn_message)
    message_args: dict[str, Any] = field(default_factory=dict)
    status: Status = Status.OK
    error: str | None = None
    validator: str = "off"  # on | off | unavailable
    notes: list[str] = field(default_factory=list)
    backend: str = ""
    rank: int | None = None
    timings_ms: dict[str, float] = field(default_factory=dict)  # per stage (qa.pipeline.STAGES) + "total"
    comparison: dict[str, Any] | None = None
    total_answers: int = 0
    unnamed: list[str] = field(default_factory=list)  # IRIs of values with no name: never shown, but in QALD output
    question_lang: str | None = None  # the language the question was parsed in (chosen, else detected)
    names: dict[str, tuple[str, str | None]] = field(default_factory=dict)  # Q/P id -> (name, its lang)
    rejected: list[dict[str, str]] = field(default_factory=list)  # candidates off the allow-list (qa.guard)
    read_as: str | None = None  # the question as the stages read it, when not as typed (courtesies, capitals)
    context: dict[str, Any] | None = None  # the previous turn's context and how a follow-up was tied to it (qa.context)
    second_part: str | None = None  # a two-part question's second part, not answered in this turn (qa.context)
    decisions: list[dict[str, Any]] = field(default_factory=list)  # each decision component's verdict (qa.decisions)
    withheld_by: str | None = None  # the decision component that withheld the answer, if one did
    counted: dict[str, Any] | None = None  # a count's things: {"ids", "more", "n", "items"} (qa.decisions.number)

    @classmethod
    def unanswered(cls, question: str, lang: str, status: Status, *, error: str | None = None,
                   validator: str = "off", backend: str = "", message_args: dict[str, Any] | None = None) -> Turn:
        """A turn that never reached the pipeline (rate limited, no worker free, a worker
        crashed), with the message its status shows."""
        return cls(question=question, lang=lang, detected_lang=None, status=status, error=error,
                   validator=validator, backend=backend, message_key=message_key(status),
                   message_args=dict(message_args or {}))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Turn:
        """The turn :meth:`to_json` described (how ``kgqa ask`` reads a running ``kgqa serve``'s turn)."""
        answers = [AnswerItem(a["value"], a["id"], a["label"], a["label_lang"], a["datatype"], a["type"])
                   for a in data["answers"]]
        candidates = [CandidateView(**{**c, "entities": tuple(c["entities"]), "properties": tuple(c["properties"]),
                                       "compared": Compared(**c["compared"]) if c.get("compared") else None})
                      for c in data["candidates"]]
        known = {f.name for f in fields(cls)}  # a reply may carry more (``/api/ask``'s next_context)
        plain = {k: v for k, v in data.items() if k in known and k not in ("answers", "candidates", "status", "names")}
        return cls(**plain, answers=answers, candidates=candidates, status=Status(data["status"]),
                   names={k: (v[0], v[1]) for k, v in data.get("names", {}).items()})

    def to_json(self) -> dict[str, Any]:
        """The stable ``kgqa ask --json`` contract (plus diagnostic extras)."""
        out: dict[str, Any] = {
            "question": self.question,
            "lang": self.lang,
            "detected_lang": self.detected_lang,
            "answered": self.answered,
            "answers": [a.to_json() for a in self.answers],
            "boolean": self.boolean,
            "sparql": self.sparql,
            "confidence": self.confidence,
            "candidates": [c.to_json() for c in self.candidates],
            "message_key": self.message_key,
            "message_args": self.message_args,
            "status": str(self.status),
            "error": self.error,
            "validator": self.validator,
            "notes": self.notes,
            "backend": self.backend,
            "rank": self.rank,
            "timings_ms": self.timings_ms,
            "total_answers": self.total_answers,
            "unnamed": self.unnamed,
            "question_lang": self.question_lang,
            "names": {k: list(v) for k, v in self.names.items()},
            "rejected": self.rejected,
            "read_as": self.read_as,
            "context": self.context,
            "second_part": self.second_part,
            "decisions": self.decisions,
            "withheld_by": self.withheld_by,
            "counted": self.counted,
        }
        if self.comparison is not None:
            out["comparison"] = self.comparison
        return out
