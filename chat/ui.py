"""The Gradio 6 chat.

:func:`build_app` wires an already-built :class:`~qa.pipeline.Pipeline` and a
:class:`~service.session_log.SessionLog` into a ``gr.Blocks``; :func:`launch` builds both
from :class:`~core.settings.Settings` and serves the app (``python app.py``).

One question gives exactly one answer message.  The turn is committed to the session log
*before* the answer is returned to the browser; if that fails the user sees a localized
"could not record" message instead of an unrecorded answer.  The UI text is in the
selector's language, else the browser's ``Accept-Language``, and stays so within a
session; each answer is in the selector's language, else the question's.  The question
is read in the language detected from its text unless "question language" names one.
A welcome says what the chat knows; example questions (:mod:`chat.examples`) are
clickable.  Every piece of user or KG text is escaped by :mod:`chat.render`; the Chatbot
additionally sanitizes HTML.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import threading
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import gradio as gr
from fastapi import FastAPI
from starlette.middleware import Middleware

from chat.asking import (
    AUTO,
    Admission,
    accept_language,
    ask_once,
    log_failed_html,
    new_admission,
    pipeline_ready,
    renderer,
    selected_language,
    starting_html,
)
from chat.conversation import STORAGE_KEY, ignored_input, restore, stored_value
from chat.examples import example_questions, examples_label, placeholder
from chat.knows import KGSize, count_in_background, kg_size
from chat.messages import message
from chat.render import escape, message_html, render_question_html, ui_language, validator_state_text
from chat.sessions import MAX_WAITING, Sessions
from core.errors import SessionLogError
from core.memory import loading
from core.settings import Settings
from core.text import valid_unicode
from lang import get as language
from qa.answer import TurnNotLogged, answer_and_log
from qa.context import Context, context_after
from qa.pipeline import Pipeline
from qa.reading.detect import SUPPORTED_LANGUAGES
from qa.turn import Status, Turn
from service.doors import DoorMiddleware, allowed_host_names
from service.front_door import Lifespan
from service.ratelimit import ClientLimiter
from service.session_log import SessionLog, new_session_id
from service.workers import DEFAULT_WORKERS, WorkerPipeline, build_warm_pipeline, share_cores

log = logging.getLogger(__name__)

QUEUE_MAX = 4 * MAX_WAITING
"""Gradio's queue bound (every submit queues one drain event, most of them no-ops)."""
MAX_UPLOAD_BYTES = 1024
SETTLE_S = 300.0
"""How long a tab's last update waits for the tab's questions to be answered."""
ORPHAN_S = 20.0
"""Questions waiting this long with no drain running are answered by the waiting update."""
PIPELINE_CONCURRENCY = DEFAULT_WORKERS
"""Questions answered at the same time (chat and ``/ask`` share this pool).  Each chat
session still gets its answers strictly in order: one worker drains a session's queue."""
_TURN_CLASS = re.compile(r"\bkgqa-turn-([0-9a-f]{24})\b")

CSS = """
#kgqa-header h1 { margin: 0 0 .2em 0; font-size: 1.6em; }
#kgqa-header .kgqa-subtitle { margin: 0; opacity: .8; }
#kgqa-header .kgqa-status { margin: .4em 0 0 0; font-size: .85em; opacity: .75; }
#kgqa-header .kgqa-validator-unavailable, .kgqa-answer .kgqa-validator-unavailable {
  color: #b45309; font-weight: 600; opacity: 1; }
.kgqa-answer .kgqa-fallback { font-size: .6em; opacity: .75; font-weight: 600; letter-spacing: .03em;
  border: 1px solid currentColor; border-radius: .7em; padding: 0 .4em; margin-left: .1em; cursor: help;
  user-select: none; -webkit-user-select: none; vertical-align: .35em; line-height: 1.4; }
.kgqa-answer .kgqa-more { opacity: .75; }
.kgqa-answer .kgqa-notice { font-size: .85em; opacity: .75; font-style: italic; }
.kgqa-answer .kgqa-followup { font-size: .8em; opacity: .7; font-style: italic; margin: 0 0 .35em 0; }
.kgqa-starting { opacity: .75; font-style: italic; }
.kgqa-answer details.kgqa-how { margin-top: .6em; font-size: .85em; }
.kgqa-answer details.kgqa-how summary { cursor: pointer; opacity: .8; }
.kgqa-answer details.kgqa-how dt { font-weight: 600; margin-top: .4em; }
.kgqa-answer details.kgqa-how dd { margin-left: 0; }
.kgqa-answer pre.kgqa-sparql { white-space: pre-wrap; word-break: break-word; font-size: .9em; }
#kgqa-header .kgqa-welcome { margin: .4em 0 0 0; font-size: .9em; }
.kgqa-answer { max-width: 100%; overflow-wrap: anywhere; }
.kgqa-answer pre.kgqa-sparql, .kgqa-answer pre.kgqa-sparql code {
  white-space: pre-wrap !important; overflow-wrap: anywhere; word-break: break-all; max-width: 100%; }
.kgqa-answer details.kgqa-developer { margin-top: .4em; }
.kgqa-answer .kgqa-understood a.kgqa-name { font-weight: 600; }
#kgqa-chat { height: min(46vh, 520px) !important; min-height: 220px; }
#kgqa-header details.kgqa-developer-view { margin-top: .3em; font-size: .8em; opacity: .8; }
#kgqa-header details.kgqa-developer-view summary { cursor: pointer; }
#kgqa-header .kgqa-knows { max-width: 70em; }
#kgqa-new { min-width: 0; }
@media (max-width: 600px) {
  #kgqa-chat { height: 40vh !important; min-height: 180px; }
  #kgqa-header h1 { font-size: 1.1em; margin-bottom: .1em; }
  #kgqa-header .kgqa-subtitle, #kgqa-header details.kgqa-developer-view { display: none; }
  #kgqa-header .kgqa-knows { font-size: .78em; margin-top: .2em; display: -webkit-box; -webkit-line-clamp: 3;
    -webkit-box-orient: vertical; overflow: hidden; }
  .gradio-container { padding-left: 6px !important; padding-right: 6px !important; padding-top: 4px !important; }
  #kgqa-examples .label, #kgqa-examples label { font-size: .8em; }
}
"""


def theme() -> gr.themes.Base:
    """A theme with system fonts only (nothing is fetched from a font CDN)."""
    return gr.themes.Default(
        font=["Noto Sans", "DejaVu Sans", "Segoe UI", "Helvetica", "Arial", "sans-serif"],
        font_mono=["Noto Sans Mono", "DejaVu Sans Mono", "Consolas", "monospace"],
    )


@dataclass(eq=False)
class ChatState:
    """Per-browser-session state (kept by Gradio, never sent to other users).

    ``history`` is the session's conversation as the server knows it (the Chatbot shows
    a copy).  ``pending`` holds submitted, not yet answered questions in submit order;
    while ``draining`` one worker answers them one after the other, so a session's
    answers come strictly in order even when several sessions are answered at once.
    """

    session_id: str = field(default_factory=new_session_id)
    ui_lang: str = "en"
    question_lang: str | None = None  # chosen explicitly ("question language"); else detected
    turn_ids: dict[int, str] = field(default_factory=dict)
    history: list[dict[str, Any]] = field(default_factory=list)
    pending: deque[tuple[str, str, str]] = field(default_factory=deque)  # (question, selector value, client key)
    draining: bool = False
    header_starting: bool = False  # the header still says "starting…": refresh it with the next answer
    context: Context | None = None  # what the last answered turn was about: a follow-up refers to it (qa.context)
    second_part: str | None = None  # the second part of the two-part question just answered: asked next
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __deepcopy__(self, memo: dict[int, Any]) -> ChatState:
        """A copy with its own lock (a lock cannot be copied)."""
        return ChatState(self.session_id, self.ui_lang, self.question_lang, dict(self.turn_ids),
                         [dict(m) for m in self.history], deque(self.pending), self.draining,
                         context=self.context)


# ---------------------------------------------------------------- helpers


def turn_id_of(content: object) -> str | None:
    """The turn id carried by an answer message's HTML (``kgqa-turn-<id>`` class)."""
    texts: list[str] = []
    if isinstance(content, str):
        texts.append(content)
    elif isinstance(content, dict):
        texts.extend(str(v) for v in content.values())
    elif isinstance(content, list):
        texts.extend(str(item) for item in content)
    for text in texts:
        match = _TURN_CLASS.search(text)
        if match:
            return match.group(1)
    return None


def header_html(lang: str, pipeline: Pipeline | WorkerPipeline, settings: Settings) -> str:
    """Title, subtitle, what the chat knows in plain words (the KG's size, the kinds of facts,
    the languages), and the backend / KG / validator status in a developer view (escaped)."""
    ui = ui_language(lang)
    kg = settings.kg_endpoint or settings.kg_profile or f"embedded ({settings.kg_source.name})"
    state = pipeline.validator_state
    status = message("ui_status", ui, backend=pipeline.backend.name, kg=kg)
    return (f'<div id="kgqa-header-inner" lang="{escape(ui)}"><h1>{escape(message("ui_title", ui))}</h1>'
            f'<p class="kgqa-subtitle">{escape(message("ui_subtitle", ui))}</p>'
            f'<p class="kgqa-welcome kgqa-knows">{escape(knows_text(ui, kg_size(settings)))}</p>'
            f'<details class="kgqa-developer-view"><summary>{escape(message("expl_developer", ui))}</summary>'
            f'<p class="kgqa-status">{escape(status)} · '
            f'<span class="kgqa-validator-{escape(state)}" data-validator="{escape(state)}">'
            f"{escape(validator_state_text(state, ui))}</span></p></details></div>")


def knows_text(ui: str, size: KGSize | None) -> str:
    """"I know 2,147,529 facts about 156,323 people, places … I answer in 19 languages …",
    numbers in the UI language's way; without a count, the plain welcome."""
    if size is None:
        return message("ui_welcome", ui)
    from babel.numbers import format_decimal

    return message("ui_knows", ui, facts=format_decimal(size.facts, locale=ui),
                   entities=format_decimal(size.entities, locale=ui), languages=len(SUPPORTED_LANGUAGES))


def language_choices(ui: str, auto_key: str = "ui_auto") -> list[tuple[str, str]]:
    """Selector entries: "detect automatically" and the chat's languages by their own names."""
    return [(message(auto_key, ui), AUTO)] + [(language(c).name, c) for c in SUPPORTED_LANGUAGES]


# ---------------------------------------------------------------- the app


def build_app(pipeline: Pipeline | WorkerPipeline, settings: Settings, session_log: SessionLog, *,
              concurrency: int = PIPELINE_CONCURRENCY, limiter: ClientLimiter | None = None,
              max_waiting: int = MAX_WAITING, admission: Admission | None = None) -> gr.Blocks:
    """The chat UI over a ready pipeline and session log (``theme``/``css`` go to launch).

    At most ``concurrency`` questions (chat and ``/ask`` together) are answered at once,
    at most ``max_waiting`` wait (more get "busy" at once).  ``limiter`` is the process's
    one rate limit (chat and ``/ask`` share it; pass the same one to the API to share it
    with ``/api/qa/full`` and ``/gerbil``), keyed by client address.  ``admission``: one
    already shared with the page that answers while the chat loads (:mod:`chat.starting`;
    it then carries the limiter and the backlog)."""
    limiter = limiter or ClientLimiter.per_minute(settings.rate_limit_per_minute, settings.trusted_proxies)
    count_in_background(settings)  # what the first screen says the chat knows (its KG's size)
    sessions: Sessions[ChatState] = Sessions(ChatState)
    admission = admission or new_admission(limiter, max_waiting)
    backlog = admission.backlog
    app_refused = admission.refused

    def ui_updates(ui: str, lang_value: str, *, history: list[dict[str, Any]] | None = None,
                   changed: bool = True) -> tuple[Any, ...]:
        """Updates for ``ui_outputs``: the UI text in language ``ui`` (skipped when it did not
        change), and the Chatbot's messages when ``history`` is given."""
        chat_update = gr.update(label=message("ui_chat_label", ui)) if changed else gr.update()
        if history is not None:
            chat_update["value"] = history
        if not changed:
            return (gr.skip(), gr.skip(), gr.skip(), gr.skip(), chat_update, gr.skip(), gr.skip(), gr.skip())
        return (
            header_html(ui, pipeline, settings),
            gr.update(placeholder=placeholder(ui)),
            gr.update(value=message("ui_send", ui)),
            gr.update(choices=language_choices(ui), value=lang_value, label=message("ui_answer_language", ui)),
            chat_update,
            gr.update(samples=[[q] for q in example_questions(ui)], label=examples_label(ui)),
            gr.update(choices=language_choices(ui, "ui_question_auto"), label=message("ui_question_language", ui)),
            gr.update(value=message("ui_new_conversation", ui)),
        )

    def session(request: gr.Request | None, given: ChatState | None = None) -> ChatState:
        """The tab's one state, whichever of its events runs first (see chat.sessions); without
        a Gradio session (a direct call) the ``given`` state."""
        key = request.session_hash if request else None
        if not key:
            return given or ChatState()
        return sessions.get(key, lambda: ChatState(ui_lang=accept_language(request.headers.get("accept-language"))))

    def on_load(stored: object, request: gr.Request) -> tuple[Any, ...]:
        state = session(request)
        state.header_starting = not pipeline_ready(pipeline)
        with state.lock:
            kept = restore(stored) if not state.history else None  # a reload: the conversation the browser
            if kept is not None and kept.history and admission.admit_load(request) and \
                    sessions.charge(request.session_hash, kept.size):  # kept (chat.conversation), bounded
                state.history = kept.history
                if kept.cut:  # a cut is said, not hidden
                    state.history = [{"role": "assistant", "content": message_html("conversation_cut", state.ui_lang)},
                                     *kept.history]
                state.context = kept.context
                state.session_id = kept.session_id or state.session_id
            history = list(state.history)
        return (state, *ui_updates(state.ui_lang, AUTO, history=history))

    def add_user(question: str | None, lang_value: str | None, state: ChatState | None,
                 request: gr.Request | None = None):
        question = valid_unicode(question)  # before anything else sees it (lone surrogates -> U+FFFD)
        state = session(request, state)
        if ignored_input(question):  # empty or spaces only: nothing to answer, no message (issue 36)
            with state.lock:
                return list(state.history), gr.update(), state
        keep = len(question or "") > settings.max_question_chars  # refused as too long: left in the box to shorten
        asked = True
        ui = ui_language(selected_language(lang_value) or state.ui_lang)
        key, refused = admission.admit(request, question, ui)
        with state.lock:
            if refused is None:
                state.pending.append((question or "", lang_value or AUTO, key))
            if asked:
                state.history.append({"role": "user", "content": render_question_html(question or "")})
        if refused is not None:  # asks too fast, or too many waiting: say so now (counted, not logged), no queue
            html, turn_id, _ = answer_turn(question, selected_language(lang_value), state, _client_ip(request),
                                           refused=refused)
            with state.lock:
                state.history.append({"role": "assistant", "content": html})
                if turn_id:
                    state.turn_ids[len(state.history) - 1] = turn_id
        with state.lock:
            history = list(state.history)
        return history, gr.update() if keep else gr.update(value=""), state

    def answer_one(raw: str, selected: str | None, state: ChatState,
                   request: gr.Request | None) -> tuple[str, str | None, str]:
        """Answer, render and log one admitted question; returns (HTML, turn id or None, UI language)."""
        return answer_turn(raw, selected, state, _client_ip(request))

    def _client_ip(request: gr.Request | None) -> str | None:
        return request.client.host if (settings.store_ips and request and request.client) else None

    def answer_turn(raw: str, selected: str | None, state: ChatState, client_ip: str | None, *,
                    refused: Turn | None = None) -> tuple[str, str | None, str]:
        """Answer ``raw`` (unless ``refused`` already decided the turn: it is shown, counted and
        not logged), render and log it; returns (HTML, turn id or None, UI language)."""
        try:
            done = answer_and_log(pipeline, raw, selected, session_log if refused is None else None,
                                  render=renderer(pipeline, raw),
                                  session_id=state.session_id, source="chat", refused=refused,
                                  fallback_lang=state.ui_lang, client_ip=client_ip,
                                  question_lang=state.question_lang, context=state.context)
        except TurnNotLogged as exc:
            log.error("session log write failed, answer withheld: %s", exc)
            return log_failed_html(exc.turn.lang), None, ui_language(exc.turn.lang)
        if refused is None and done.turn.status != Status.BAD_INPUT:
            with state.lock:
                state.context = context_after(done.turn, state.context)
                state.second_part = done.turn.second_part if done.turn.status == Status.OK else None
        return done.shown, done.turn_id, ui_language(done.turn.lang)

    def respond(lang_value: str | None, state: ChatState | None, request: gr.Request) -> Iterator[tuple[Any, ...]]:
        """Drain the session's pending questions in order, showing each answer as it is logged.

        Every submit triggers this; when a worker is already draining the session, this
        call has nothing to do (that worker picks the new question up)."""
        state = session(request, state)
        with state.lock:
            idle = state.draining or not state.pending
            if not idle:
                state.draining = True
        if idle:  # (never yield while holding the lock: the generator pauses at a yield)
            yield tuple(gr.skip() for _ in range(len(ui_outputs) + 2))
            return
        try:
            while True:
                with state.lock:
                    if not state.pending:
                        state.draining = False
                        return
                    raw, asked_lang, key = state.pending.popleft()
                selected = None if asked_lang == AUTO else asked_lang
                if not pipeline_ready(pipeline):  # loading: say so, then answer when the workers are up
                    state.header_starting = True
                    with state.lock:
                        waiting = [*state.history, {"role": "assistant", "content": starting_html(state.ui_lang)}]
                    yield (state, *ui_updates(state.ui_lang, lang_value or AUTO, history=waiting, changed=False),
                           gr.skip())
                try:
                    html, turn_id, _ = answer_one(raw, selected, state, request)
                finally:
                    if key == SECOND_PART:  # counted in the backlog only (not a client's own question)
                        backlog.done()
                    elif raw.strip():
                        admission.done(key)
                with state.lock:
                    state.history.append({"role": "assistant", "content": html})
                    if turn_id:
                        state.turn_ids[len(state.history) - 1] = turn_id
                    second, state.second_part = state.second_part, None
                    if second and backlog.try_add():  # a two-part question's second part: asked next, as a follow-up
                        state.pending.appendleft((second, asked_lang, SECOND_PART))
                        state.history.append({"role": "user", "content": render_question_html(second)})
                    history = list(state.history)
                    kept = stored_value(state.history, state.context, state.session_id)
                    refresh, state.header_starting = state.header_starting, False
                # the UI language stays as the selector (else the browser) set it; the header
                # is redrawn once, when the first answer after "starting…" arrives; the browser
                # keeps the conversation with the answer's rendering (a reload right after it
                # finds it, and the follow-up context, issue 42)
                yield (state, *ui_updates(state.ui_lang, lang_value or AUTO, history=history, changed=refresh), kept)
        finally:
            with state.lock:
                state.draining = False

    async def settle(state: ChatState | None, request: gr.Request) -> Any:
        """After each submit's drain: once the tab has nothing left to answer, show its whole
        history.  The chat box shows whichever update reached the browser last, and a
        submit's own "question shown" update may arrive after the answer the drain sent for
        it; this last update (it starts only after that submit's updates were applied)
        puts every answer back.  Async: waiting holds no thread."""
        state = session(request, state)
        deadline = time.monotonic() + SETTLE_S
        undrained_since: float | None = None
        while time.monotonic() < deadline:
            with state.lock:
                if not state.draining and not state.pending:
                    return (gr.update(value=list(state.history)),
                            stored_value(state.history, state.context, state.session_id))
                undrained = not state.draining and bool(state.pending)
            now = time.monotonic()
            undrained_since = (undrained_since or now) if undrained else None
            if undrained_since is not None and now - undrained_since > ORPHAN_S:
                # questions left with no drain for long (the drain's event was closed, and no
                # submit came to start another): answer them here rather than never
                await asyncio.to_thread(lambda: list(respond(AUTO, state, request)))
                continue
            await asyncio.sleep(0.2)
        return gr.skip(), gr.skip()

    def forget(request: gr.Request) -> None:
        """The tab was closed: drop its state."""
        sessions.drop(request.session_hash if request else None)

    def on_like(data: gr.LikeData, state: ChatState | None) -> None:
        if state is None:
            return
        turn_id = turn_id_of(data.value)
        if turn_id is None:
            index = data.index if isinstance(data.index, int) else data.index[0]
            turn_id = state.turn_ids.get(index)
        if not turn_id:
            return
        value = _feedback_value(data.liked)
        try:
            session_log.record_feedback(turn_id, value, session_id=state.session_id)
        except SessionLogError as exc:
            log.error("feedback not stored: %s", exc)
            return
        gr.Info(message("feedback_thanks", state.ui_lang), duration=2)

    def on_clear(state: ChatState | None, request: gr.Request = None) -> tuple[ChatState, Any, Any]:
        """The chat's trash button and "New conversation": an empty conversation, here and in
        the browser's storage (the next question refers to nothing before it)."""
        state = session(request, state)
        with state.lock:
            state.turn_ids.clear()
            state.history.clear()
            state.context = None
            state.session_id = new_session_id()  # a new conversation is a new session in the log
        return state, gr.update(value=[]), stored_value([], None)

    def on_language(lang_value: str, state: ChatState | None, request: gr.Request = None):
        state = session(request, state)
        if lang_value and lang_value != AUTO:
            state.ui_lang = ui_language(lang_value)
        return (state, *ui_updates(state.ui_lang, lang_value or AUTO))

    def on_question_language(value: str | None, state: ChatState | None) -> ChatState:
        state = state or ChatState()
        state.question_lang = None if value in (None, "", AUTO) else value
        return state

    def pick_example(sample: list[str] | None) -> str:
        return (sample or [""])[0]

    with gr.Blocks(title="KGQA", analytics_enabled=False) as app:
        state = gr.State(None)
        stored = gr.BrowserState(stored_value([], None), storage_key=STORAGE_KEY)
        header = gr.HTML(header_html("en", pipeline, settings), elem_id="kgqa-header")
        chatbot = gr.Chatbot(
            value=[], elem_id="kgqa-chat", label=message("ui_chat_label", "en"), height="46vh", show_label=False,
            sanitize_html=True, render_markdown=True, allow_tags=False, latex_delimiters=[],
            feedback_options=("Like", "Dislike"), group_consecutive_messages=False,
        )
        with gr.Row():
            question = gr.Textbox(placeholder=placeholder("en"), show_label=False, lines=1,
                                  max_lines=4, scale=6, elem_id="kgqa-question", autofocus=True)
            send = gr.Button(message("ui_send", "en"), variant="primary", scale=1, elem_id="kgqa-send")
            new_conversation = gr.Button(message("ui_new_conversation", "en"), variant="secondary", scale=1,
                                         elem_id="kgqa-new", size="sm")
        examples = gr.Dataset(components=[question], samples=[[q] for q in example_questions("en")],
                              label=examples_label("en"), elem_id="kgqa-examples", type="values")
        with gr.Row():
            language = gr.Dropdown(choices=language_choices("en"), value=AUTO,
                                   label=message("ui_answer_language", "en"), elem_id="kgqa-language",
                                   interactive=True)
            question_language = gr.Dropdown(choices=language_choices("en", "ui_question_auto"), value=AUTO,
                                            label=message("ui_question_language", "en"),
                                            elem_id="kgqa-question-language", interactive=True)
        ui_outputs = [header, question, send, language, chatbot, examples, question_language, new_conversation]

        app.load(on_load, [stored], [state, *ui_outputs], api_visibility="private", queue=False)
        app.unload(forget)
        for trigger in (question.submit, send.click):
            # every submit must reach the server ("multiple"): the drain in respond keeps the order
            trigger(add_user, [question, language, state], [chatbot, question, state], queue=False,
                    api_visibility="private", trigger_mode="multiple").then(
                respond, [language, state], [state, *ui_outputs, stored], api_visibility="private",
                trigger_mode="multiple", concurrency_limit=concurrency, concurrency_id="pipeline").then(
                settle, [state], [chatbot, stored], api_visibility="private", queue=False, trigger_mode="multiple")
        examples.click(pick_example, [examples], [question], queue=False, api_visibility="private").then(
            add_user, [question, language, state], [chatbot, question, state], queue=False,
            api_visibility="private").then(
            respond, [language, state], [state, *ui_outputs, stored], api_visibility="private",
            trigger_mode="multiple", concurrency_limit=concurrency, concurrency_id="pipeline").then(
            settle, [state], [chatbot, stored], api_visibility="private", queue=False, trigger_mode="multiple")
        question_language.input(on_question_language, [question_language, state], [state], api_visibility="private")
        chatbot.like(on_like, [state], None, api_visibility="private")
        chatbot.clear(on_clear, [state], [state, chatbot, stored], api_visibility="private")
        new_conversation.click(on_clear, [state], [state, chatbot, stored], api_visibility="private", queue=False)
        language.input(on_language, [language, state], [state, *ui_outputs], api_visibility="private")
        gr.api(_api_ask(pipeline, session_log, admission), api_name="ask", concurrency_limit=concurrency,
               concurrency_id="pipeline")
    app.refused = app_refused  # type: ignore[attr-defined]  # refused questions by reason (tests, operators)
    return app


def _feedback_value(liked: object) -> int | None:
    """Gradio's like payload -> +1 / -1 / ``None`` (withdrawn or unknown)."""
    if liked is True or (isinstance(liked, str) and liked.lower() == "like"):
        return 1
    if liked is False or (isinstance(liked, str) and liked.lower() == "dislike"):
        return -1
    return None


def _api_ask(pipeline: Pipeline | WorkerPipeline, session_log: SessionLog, admission: Admission):
    """A programmatic ``/ask`` endpoint (used by ``benchmarks/chat_latency.py``): logs and
    renders exactly like the chat, returns the answer HTML (:func:`chat.asking.ask_once`)."""

    def ask(question: str, lang: str = AUTO, request: gr.Request = None) -> str:
        """Answer ``question``; returns the chat's answer message (HTML)."""
        return ask_once(pipeline, session_log, admission, question, lang, request)

    return ask


SECOND_PART = ""
"""The admission key of a two-part question's second part, which the chat asks itself."""
def launch_app(app: gr.Blocks, settings: Settings, **kwargs: Any) -> Any:
    """Serve ``app`` on ``settings.host:settings.port`` with the chat's theme and CSS.

    Gradio's queue is bounded (the chat's own backlog answers "busy" long before it
    fills); Gradio's upload routes are refused and Hosts not in ``settings.allowed_hosts``
    get 400 (:class:`~service.doors.DoorMiddleware`; uploads are also capped at 1 KB); uvicorn believes no
    ``X-Forwarded-For`` (the rate limiter does, from ``settings.trusted_proxies`` only)."""
    os.environ["FORWARDED_ALLOW_IPS"] = ""  # read by the uvicorn server Gradio starts
    door = Middleware(DoorMiddleware, allowed_hosts=allowed_host_names(settings.allowed_hosts, settings.host))
    app_kwargs = dict(kwargs.pop("app_kwargs", None) or {})
    app_kwargs["middleware"] = [door, *app_kwargs.get("middleware", [])]
    return app.launch(**_served(app, settings), app_kwargs=app_kwargs, **kwargs)


def _served(app: gr.Blocks, settings: Settings) -> dict[str, Any]:
    """Bound ``app``'s queue; the options both ways of serving it take: where, the theme
    and CSS, no error details, no server-side rendering, the upload bound."""
    app.queue(default_concurrency_limit=1, max_size=QUEUE_MAX)
    return {"server_name": settings.host, "server_port": settings.port, "theme": theme(), "css": CSS,
            "show_error": False, "ssr_mode": False, "max_file_size": MAX_UPLOAD_BYTES}


def chat_app(pipeline: Pipeline | WorkerPipeline, settings: Settings, session_log: SessionLog, admission: Admission,
             *, concurrency: int = PIPELINE_CONCURRENCY) -> tuple[FastAPI, Lifespan]:
    """The chat as an ASGI app for :class:`~service.front_door.FrontDoor`, with its lifespan
    (Gradio's queue): the same UI, theme, CSS, queue bound and upload bound as
    :func:`launch_app` (the door's own :class:`~service.doors.DoorMiddleware` checks hosts)."""
    app = build_app(pipeline, settings, session_log, concurrency=concurrency, admission=admission)
    parent = FastAPI(openapi_url=None, docs_url=None, redoc_url=None)
    gr.mount_gradio_app(parent, app, "/", **_served(app, settings))
    return parent, lambda: parent.router.lifespan_context(parent)


def launch(settings: Settings, *, concurrency: int = PIPELINE_CONCURRENCY, **kwargs: Any) -> Any:
    """Build the pipeline in this process (``python app.py --workers 0``) and the session
    log from ``settings``, and serve the chat answering ``concurrency`` questions at a time
    with Gradio's own launch.  With worker processes (the default), :mod:`chat.serve`
    serves the chat instead, before Gradio has loaded."""
    started = time.perf_counter()
    with loading():  # the pipeline and the UI: no collections meanwhile, then frozen
        if settings.validator:
            log.info("the validator uses %d thread(s) per forward pass (%d questions at once)",
                     share_cores(concurrency), concurrency)
        pipeline = build_warm_pipeline(settings)
        log.info("pipeline ready in %.1f s (in the app process, validator %s)", time.perf_counter() - started,
                 pipeline.validator_state)
        session_log = SessionLog(settings.log_path, store_ips=settings.store_ips)
        app = build_app(pipeline, settings, session_log, concurrency=concurrency)
    return launch_app(app, settings, **kwargs)
