"""Answering one chat question without the UI toolkit: admission (rate limit, the
client's share, the backlog), rendering and logging, shared by the Gradio chat
(:mod:`chat.ui`) and the page that answers while it loads (:mod:`chat.starting`).

Nothing here imports Gradio: ``python app.py`` answers through this module seconds before
Gradio has loaded."""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from chat.messages import message
from chat.render import escape, render_html, ui_language
from chat.sessions import Backlog
from core.text import had_invalid_text, valid_unicode
from qa.answer import answer_and_log
from qa.reading.detect import SUPPORTED_LANGUAGES
from qa.turn import Status, Turn
from service.ratelimit import ClientLimiter, InFlight, RateLimiter, RefusedCounter
from service.session_log import SessionLog, new_session_id
from service.workers import WorkerPipeline

if TYPE_CHECKING:  # the pipeline loads in the worker processes; this module serves before it
    from qa.pipeline import Pipeline

AUTO = "auto"
"""The language selectors' "detect automatically"."""
_MARKUP = re.compile(r"<\s*/?\s*[a-zA-Z!][^>]*>|javascript\s*:|\bon[a-z]+\s*=", re.IGNORECASE)
_KEEP_WS = frozenset("\t\n\r ")


class Asker(Protocol):
    """Who asks: a Gradio or Starlette request (its peer and its headers)."""

    @property
    def client(self) -> Any: ...

    @property
    def headers(self) -> Mapping[str, str]: ...


def accept_language(header: str | None) -> str:
    """The first supported language of an ``Accept-Language`` header (``en`` otherwise)."""
    for part in (header or "").split(","):
        code = part.split(";")[0].strip().lower().split("-")[0]
        if code in SUPPORTED_LANGUAGES:
            return code
    return "en"


def input_notices(raw: str | None) -> list[str]:
    """Message keys for things the user should know about their input."""
    text = raw or ""
    notices = []
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") and ch not in _KEEP_WS for ch in text):
        notices.append("notice_control")
    if _MARKUP.search(text):
        notices.append("notice_markup")
    if had_invalid_text(text):
        notices.append("notice_invalid_unicode")
    return notices


def busy_turn(raw: str, lang: str) -> Turn:
    """A turn that was not taken because too many questions are waiting."""
    return Turn.unanswered(raw, lang, Status.BUSY)


def rate_limited_turn(raw: str, lang: str, wait_s: float) -> Turn:
    """A turn that was not answered because its session asks too fast."""
    return Turn.unanswered(raw, lang, Status.RATE_LIMITED, message_args={"seconds": max(1, math.ceil(wait_s))})


def pipeline_ready(pipeline: Pipeline | WorkerPipeline) -> bool:
    """False while worker processes are still loading (questions then wait for them)."""
    return not isinstance(pipeline, WorkerPipeline) or pipeline.ready


def starting_html(lang: str) -> str:
    """The progress message shown in place of an answer while the workers load."""
    ui = ui_language(lang)
    return (f'<div class="kgqa-starting" lang="{escape(ui)}" data-status="starting">'
            f'<p>{escape(message("starting_wait", ui))}</p></div>')


def log_failed_html(lang: str) -> str:
    """The message shown in place of an answer whose turn could not be logged (withheld)."""
    ui = ui_language(lang)
    return (f'<div class="kgqa-answer" lang="{ui}" data-status="log_failed">'
            f'<p class="kgqa-dont-know">{escape(message("log_failed", ui))}</p></div>')


def threshold(pipeline: Pipeline | WorkerPipeline) -> float | None:
    """The validator's threshold shown with answers, while the validator is on."""
    return pipeline.threshold if pipeline.validator_state == "on" else None


def renderer(pipeline: Pipeline | WorkerPipeline, raw: str) -> Callable[[Turn, str], str]:
    """The chat's answer message for a turn (with the input notices of ``raw``)."""

    def render(turn: Turn, turn_id: str) -> str:
        if turn.message_key == "too_long":  # the chat leaves the question in the box: say so, with its length
            turn.message_key = "too_long_kept"
            turn.message_args = {**turn.message_args, "length": len(raw)}
        return render_html(turn, notices=input_notices(raw), threshold=threshold(pipeline), turn_id=turn_id)

    return render


def selected_language(lang_value: str | None) -> str | None:
    """The language a selector names, or ``None`` for "detect automatically"."""
    return None if lang_value in (None, "", AUTO) else lang_value


CLIENT_SHARE_OF_BACKLOG = 4
"""One client may hold at most this share of the chat's backlog (``max_waiting // 4``
questions waiting or being answered): one address cannot fill the shared queue."""


@dataclass
class Admission:
    """Who may queue a question, decided before the shared queue: the client's rate limit,
    then its share of the backlog (:class:`~service.ratelimit.InFlight`), then the backlog.
    Refusals are counted by reason (``rate_limited``, ``busy``) and never logged as turns."""

    limiter: ClientLimiter
    backlog: Backlog
    in_flight: InFlight | None  # None: per-client limits are off (rate limit 0)
    refused: RefusedCounter
    loads: RateLimiter | None = None  # page loads' own buckets, at the questions' rate (default: made so)

    def __post_init__(self) -> None:
        if self.loads is None:  # a reload never spends the tokens of the questions asked next
            self.loads = RateLimiter(self.limiter.limiter.per_minute, round(self.limiter.limiter.burst))

    def admit(self, request: Asker | None, raw: str, ui: str) -> tuple[str, Turn | None]:
        """``(client key, None)`` when the question is queued (call :meth:`done` after), else
        ``(client key, the refusal's turn)``."""
        peer = request.client.host if request and request.client else None
        key = self.limiter.key(peer, request.headers if request else None)
        wait_s = self.limiter.limiter.acquire(key)
        if wait_s > 0:
            self.refused.add("rate_limited")
            return key, rate_limited_turn(raw, ui, wait_s)
        if self.in_flight is not None and not self.in_flight.try_enter(key):
            self.refused.add("busy")
            return key, busy_turn(raw, ui)
        if not self.backlog.try_add():
            if self.in_flight is not None:
                self.in_flight.leave(key)
            self.refused.add("busy")
            return key, busy_turn(raw, ui)
        return key, None

    def admit_load(self, request: Asker | None) -> bool:
        """Whether a page load may restore the conversation its browser sent: page loads are
        rate-limited per client as questions are, in buckets of their own (a refused one starts
        an empty conversation; a reload never makes the next question "too fast")."""
        peer = request.client.host if request and request.client else None
        assert self.loads is not None
        if self.loads.acquire(self.limiter.key(peer, request.headers if request else None)) > 0:
            self.refused.add("rate_limited")
            return False
        return True

    def done(self, key: str) -> None:
        """An admitted question was answered (or failed)."""
        self.backlog.done()
        if self.in_flight is not None:
            self.in_flight.leave(key)


def new_admission(limiter: ClientLimiter, max_waiting: int) -> Admission:
    """The chat's one admission: ``limiter``, a backlog of ``max_waiting`` questions, and
    each client's share of it (none when the rate limit is off)."""
    share = InFlight(max(1, max_waiting // CLIENT_SHARE_OF_BACKLOG)) if limiter.limiter.enabled else None
    return Admission(limiter, Backlog(max_waiting), share, RefusedCounter())


def ask_once(pipeline: Pipeline | WorkerPipeline, session_log: SessionLog, admission: Admission, question: str,
             lang: str = AUTO, request: Asker | None = None, *, source: str = "chat-api") -> str:
    """Answer one question on its own (no conversation) as the chat would: admitted like a
    chat question (the chat's rate limit, the client's share, the backlog), rendered and
    logged; returns the answer message (HTML).  A refused call is answered and counted,
    not logged."""
    question, lang = valid_unicode(question), valid_unicode(lang)  # before anything else sees them
    selected = selected_language(lang)
    key, refused = admission.admit(request, question, ui_language(selected or "en"))
    try:
        return answer_and_log(pipeline, question, selected, session_log if refused is None else None,
                              render=renderer(pipeline, question), session_id=source + "-" + new_session_id()[:8],
                              source=source, refused=refused).shown
    finally:
        if refused is None:
            admission.done(key)
