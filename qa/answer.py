"""One question end to end for a caller that shows the answer and keeps a session log
(the chat, the HTTP API's ``/gerbil``, ``kgqa ask``): answer, render, commit the turn to
the log, and only then hand the rendered answer back (nothing shown goes unrecorded).

``qa`` does not know the session log's storage: :class:`TurnLog` is what it needs of
one (:class:`service.session_log.SessionLog` implements it)."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from core.errors import SessionLogError
from qa.context import Context
from qa.reading.detect import input_language
from qa.turn import Status, Turn

R = TypeVar("R")


def new_turn_id() -> str:
    """A random turn id (24 hex digits)."""
    return secrets.token_hex(12)


class TurnNotLogged(SessionLogError):
    """A turn was answered but could not be committed to the session log, so its answer
    must not be shown; ``turn`` says what it was (e.g. in which language to apologize)."""

    def __init__(self, turn: Turn, cause: SessionLogError) -> None:
        super().__init__(str(cause))
        self.turn = turn


class Answerer(Protocol):
    """What answers questions: a :class:`~qa.pipeline.Pipeline` or the service's pool of
    worker processes."""

    threshold: float

    def answer(self, question: str | None, lang: str | None = None, *, use_validator: bool = True,
               question_lang: str | None = None, context: Context | None = None) -> Turn:
        """Answer one question (a follow-up of ``context``); never raises for user input or service faults."""
        ...


class TurnLog(Protocol):
    """Where turns are recorded."""

    def log_turn(self, turn: Turn, *, session_id: str, selected_lang: str | None = None,
                 threshold: float | None = None, extra_timings_ms: Mapping[str, float] | None = None,
                 client_ip: str | None = None, source: str = "chat", turn_id: str | None = None) -> str:
        """Commit one turn (raises :class:`core.errors.SessionLogError` when it could not)."""
        ...


@dataclass(frozen=True)
class Logged(Generic[R]):
    """An answered (or refused) turn, what the caller shows of it, and its log row id
    (``None`` when it was not logged)."""

    turn: Turn
    shown: R
    turn_id: str | None


def answer_and_log(answerer: Answerer, question: str | None, lang: str | None, log: TurnLog | None, *,
                   render: Callable[[Turn, str], R], session_id: str, source: str, use_validator: bool = True,
                   refused: Turn | None = None, fallback_lang: str | None = None, client_ip: str | None = None,
                   log_bad_input: bool = True, question_lang: str | None = None,
                   context: Context | None = None) -> Logged[R]:
    """Answer ``question`` (``lang``: the selected language, ``None`` to detect), render it
    with ``render(turn, turn_id)``, and commit the turn to ``log`` (when given) with the
    render time as its ``render`` timing.

    ``refused``: a turn already decided without answering (e.g. rate limited), rendered
    and logged the same way.  ``fallback_lang``: bad input with no selected language is
    answered in the language of its text, else this one (the UI's); without it, in the
    pipeline's choice.  ``question_lang``: the language the question is read in when the
    user chose one (else the one detected from its text).  ``context``: what the previous turn
    of the conversation was about (:mod:`qa.context`).  ``log_bad_input=False`` leaves bad input out of the log.  The
    threshold is logged for turns the validator gated.

    Raises :class:`TurnNotLogged` (a :class:`core.errors.SessionLogError`) when the turn
    could not be committed: the caller must then not show the answer as if it had been
    recorded.
    """
    turn = refused if refused is not None else answerer.answer(question, lang, use_validator=use_validator,
                                                                question_lang=question_lang, context=context)
    if turn.status == Status.BAD_INPUT and not lang and fallback_lang is not None:
        unsupported = turn.message_key == "unsupported_language"  # told in the UI's language (and English)
        turn.lang = fallback_lang if unsupported else input_language(question or "", fallback_lang)
    turn_id = new_turn_id()
    started = time.perf_counter()
    shown = render(turn, turn_id)
    render_ms = round((time.perf_counter() - started) * 1000, 1)
    if log is None or (turn.status == Status.BAD_INPUT and not log_bad_input):
        return Logged(turn, shown, None)
    try:
        log.log_turn(turn, session_id=session_id, selected_lang=lang,
                     threshold=answerer.threshold if turn.validator == "on" else None,
                     extra_timings_ms={"render": render_ms}, client_ip=client_ip, source=source, turn_id=turn_id)
    except SessionLogError as exc:
        raise TurnNotLogged(turn, exc) from exc
    return Logged(turn, shown, turn_id)
