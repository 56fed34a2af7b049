"""The web API (FastAPI, served by uvicorn through ``kgqa serve``).

Endpoints:

* ``GET|POST /api/qa/full?question=&lang=&kb=`` - QAnswer's candidate API:
  ``{"question", "queries": [{"query", "confidence", "kb"}]}`` from the configured
  backend, best first.  Parameters may come in the query string or a form body.
* ``POST /gerbil`` - GERBIL's QALD web-service protocol: raw body
  ``query=<text>&lang=<xx>``; replies QALD-JSON with the *gated* answer (one answer
  set or empty bindings = abstain), booleans as ``boolean``.
* ``POST /api/ask`` - ``question=&lang=&validator=off&context=``: the full turn as ``kgqa ask --json``
  prints it (``kgqa ask`` uses a running ``kgqa serve`` this way).
* ``GET /health`` - liveness plus a cheap KG probe (with worker processes: ``starting``
  while they load, and the workers stuck past their deadline).

Faults: bad input -> 400; rate limit -> 429 + ``Retry-After``; backend/KG service
faults -> 503 + ``Retry-After`` (the GERBIL reply still carries valid QALD-JSON with
no answer, so a client that ignores the status abstains).  Every reply is JSON with
``X-Content-Type-Options: nosniff``; nothing here builds SPARQL from user text, and
client addresses are neither logged nor kept (the limiter sees a salted hash).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect

from core.errors import BackendError, InputError, KGError, is_service_fault
from core.text import had_invalid_text, valid_unicode
from kg.endpoint import endpoint_profile
from qa.answer import TurnNotLogged, answer_and_log
from qa.context import Context, context_after
from qa.pipeline import Pipeline
from qa.reading.detect import SUPPORTED_LANGUAGES
from qa.turn import Status, Turn
from service.conversations import CONVERSATION_ID, TURN_ID, Conversations, UnknownTurn
from service.doors import LOOPBACK_HOSTS, host_allowed
from service.formats import parse_gerbil_body, qa_full_reply, qald_reply
from service.ratelimit import ClientLimiter, InFlight, RateLimiter, RefusedCounter
from service.session_log import SessionLog, new_session_id
from service.workers import WorkerPipeline

log = logging.getLogger("kgqa.service")

MAX_BODY_BYTES = 64 * 1024
BODY_TIMEOUT_S = 10.0
MAX_CONCURRENT_QUESTIONS = 2
"""Questions (``/api/qa/full``, ``/gerbil``) worked on at once; more wait their turn
(a burst must not run dozens of backends and validators at once on a few cores)."""
RETRY_AFTER_S = 5
PER_CLIENT_SHARE = 4
"""Questions of one client answered or waiting at once, per question answered at once: more
get 429 before they reach the shared queue, so one client cannot make the others wait long."""
QUESTION_PATHS = frozenset({"/api/qa/full", "/gerbil", "/api/ask"})
SECURITY_HEADERS = {"X-Content-Type-Options": "nosniff", "Cache-Control": "no-store",
                    "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'"}


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers={**SECURITY_HEADERS, **(headers or {})})


def _error(status: int, error: str, detail: str, retry_after: float | None = None) -> JSONResponse:
    headers = {"Retry-After": str(max(1, math.ceil(retry_after)))} if retry_after is not None else None
    return _json({"error": error, "detail": detail}, status, headers)


async def _params(request: Request, timeout_s: float = BODY_TIMEOUT_S) -> dict[str, str]:
    """Query-string parameters, overridden by a form-encoded body on POST."""
    values = {k: v for k, v in request.query_params.items()}
    if request.method == "POST":
        raw = await _body(request, timeout_s)
        for key, vals in parse_qs(raw.decode("utf-8", errors="replace"), keep_blank_values=True).items():
            values[key] = vals[-1]
    return {key: valid_unicode(value) for key, value in values.items()}  # before anything else sees them


def _with_notices(reply: dict[str, Any], text: str) -> dict[str, Any]:
    """``reply`` plus ``"notices": ["invalid_unicode"]`` when some of ``text`` could not be read."""
    return {**reply, "notices": ["invalid_unicode"]} if had_invalid_text(text) else reply


async def _body(request: Request, timeout_s: float = BODY_TIMEOUT_S) -> bytes:
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise _TooLarge()
    chunks, size = [], 0
    try:
        async with asyncio.timeout(timeout_s):  # a body shorter than its Content-Length ends here
            async for chunk in request.stream():
                size += len(chunk)
                if size > MAX_BODY_BYTES:
                    raise _TooLarge()
                chunks.append(chunk)
    except TimeoutError as exc:
        raise _BadBody(408, "request body not received in time") from exc
    except ClientDisconnect as exc:
        raise _BadBody(400, "client disconnected before sending its body") from exc
    return b"".join(chunks)


class _TooLarge(Exception):
    """Internal: the request body exceeds :data:`MAX_BODY_BYTES`."""


class _BadBody(Exception):
    """Internal: the request body came too slowly, or the client left while sending it."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


def create_app(
    pipeline: Pipeline | WorkerPipeline,
    *,
    kb: str = "wikidata",
    rate_limiter: RateLimiter | ClientLimiter | None = None,
    session_log: SessionLog | None = None,
    max_concurrent: int = MAX_CONCURRENT_QUESTIONS,
    body_timeout_s: float = BODY_TIMEOUT_S,
    allowed_hosts: tuple[str, ...] = LOOPBACK_HOSTS,
    per_client: int | None = None,
) -> FastAPI:
    """The web API over an assembled :class:`Pipeline` or :class:`WorkerPipeline`
    (:meth:`Pipeline.candidates` serves ``/api/qa/full``, :meth:`Pipeline.answer` ``/gerbil``
    and ``kgqa ask``'s ``/api/ask``).

    With a ``session_log``, every ``/gerbil`` turn is committed there (source ``api``,
    one random session id per app, no client address) before the reply is sent.  At
    most ``max_concurrent`` questions are worked on at once (the rest wait in uvicorn's
    thread pool); ``/health`` never waits.  ``rate_limiter`` is the process's one limit
    (:class:`ClientLimiter`; pass the chat's to share it), keyed by client address.

    Before a question reaches the shared queue its client's share is checked: at most
    ``per_client`` of its questions (default :data:`PER_CLIENT_SHARE` x ``max_concurrent``)
    are answered or waiting at once, more get 429 at once (no share when the rate limit is
    off).  Requests whose ``Host`` is not one of ``allowed_hosts``
    (:func:`~service.doors.allowed_host_names`) get 400.  Refused requests are counted by reason
    (``/health`` shows the counts), never logged as turns.
    """
    app = FastAPI(title="KGQA service", version="0.1.0", docs_url=None, redoc_url=None, openapi_url=None)
    limiter = rate_limiter if isinstance(rate_limiter, ClientLimiter) else ClientLimiter(rate_limiter or RateLimiter(0))
    app.state.pipeline = pipeline
    app.state.rate_limiter = limiter
    refused = RefusedCounter()
    app.state.refused = refused
    # per-client limits off (rate limit 0, a load test from one address): no share either
    in_flight = InFlight(per_client or PER_CLIENT_SHARE * max(1, max_concurrent)) if limiter.limiter.enabled else None
    api_session = new_session_id()
    slots = threading.BoundedSemaphore(max(1, max_concurrent))

    def limited(fn: Callable[[], JSONResponse]) -> Callable[[], JSONResponse]:
        def run() -> JSONResponse:
            with slots:
                return fn()
        return run

    def refuse(request: Request, reason: str, response: JSONResponse, started: float) -> JSONResponse:
        refused.add(reason)
        _log(request, response.status_code, started)
        return response

    @app.middleware("http")
    async def guard(request: Request, call_next):
        started = time.perf_counter()
        if not host_allowed(request.headers.get("host"), allowed_hosts):
            return refuse(request, "bad_host", _error(400, "bad_host", "this Host is not served here"), started)
        key = None
        if request.url.path != "/health":
            key = limiter.key(request.client.host if request.client else None, request.headers)
            wait = limiter.limiter.acquire(key)
            if wait > 0:
                return refuse(request, "rate_limited",
                              _error(429, "rate_limited", "too many requests; slow down", wait), started)
            if request.url.path not in QUESTION_PATHS or in_flight is None:
                key = None
            elif not in_flight.try_enter(key):  # its fair share of the shared queue is taken
                return refuse(request, "busy", _error(429, "busy", "too many of your requests at once; wait for "
                                                      "their answers", RETRY_AFTER_S), started)
        try:
            response = await call_next(request)
        finally:
            if key is not None and in_flight is not None:
                in_flight.leave(key)
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        _log(request, response.status_code, started)
        return response

    @app.exception_handler(_BadBody)
    async def bad_body(request: Request, exc: _BadBody) -> JSONResponse:
        log.info("%s %s: %s", request.method, request.url.path, exc.detail)  # no traceback, no address
        return _error(exc.status, "bad_body", exc.detail)

    @app.exception_handler(Exception)
    async def unforeseen(request: Request, exc: Exception) -> JSONResponse:
        log.error("%s %s failed: %s", request.method, request.url.path, type(exc).__name__, exc_info=exc)
        return _error(500, "internal_error", type(exc).__name__)

    @app.exception_handler(_TooLarge)
    async def too_large(request: Request, exc: _TooLarge) -> JSONResponse:
        return _error(413, "too_large", f"request body exceeds {MAX_BODY_BYTES} bytes")

    @app.api_route("/api/qa/full", methods=["GET", "POST"])
    async def qa_full(request: Request) -> JSONResponse:
        params = await _params(request, body_timeout_s)
        return await _run_sync(limited(lambda: _qa_full(pipeline, params, kb)))

    @app.post("/gerbil")
    async def gerbil(request: Request) -> JSONResponse:
        raw = await _body(request, body_timeout_s)
        return await _run_sync(limited(lambda: _gerbil(pipeline, raw, session_log, api_session)))

    conversations = Conversations()
    app.state.conversations = conversations

    @app.post("/api/ask")
    async def ask(request: Request) -> JSONResponse:
        params = await _params(request)
        return await _run_sync(limited(lambda: _ask(pipeline, params, session_log, api_session, conversations)))

    @app.api_route("/health", methods=["GET", "HEAD"])
    async def health() -> JSONResponse:
        reply = await _run_sync(lambda: _health(pipeline))
        body = json.loads(reply.body)
        return _json({**body, "refused": refused.counts()}, reply.status_code,
                     {k: v for k, v in reply.headers.items() if k == "retry-after"})

    return app


async def _run_sync(fn: Callable[[], JSONResponse]) -> JSONResponse:
    return await run_in_threadpool(fn)


def _qa_full(pipeline: Pipeline | WorkerPipeline, params: dict[str, str], kb: str) -> JSONResponse:
    requested_kb = (params.get("kb") or kb).strip()
    if requested_kb != kb:
        return _error(400, "unknown_kb", f"this service answers over kb={kb!r} only")
    lang = (params.get("lang") or "").strip().lower()
    try:
        generated = pipeline.candidates(params.get("question"), lang or None)
    except InputError as exc:
        return _error(400, "bad_input", str(exc))
    except (BackendError, KGError) as exc:
        if not is_service_fault(exc):
            log.error("backend error on /api/qa/full: %s", exc)
            return _error(500, "internal_error", type(exc).__name__)
        log.warning("service fault on /api/qa/full: %s", exc)
        return _error(503, "service_unavailable", type(exc).__name__, RETRY_AFTER_S)
    except Exception as exc:  # an upstream reply no check foresaw (a worker's InternalError): JSON, never a bare 500
        log.error("unexpected failure on /api/qa/full: %s", type(exc).__name__, exc_info=exc)
        return _error(503, "service_unavailable", type(exc).__name__, RETRY_AFTER_S)
    return _json(_with_notices(qa_full_reply(generated.question, generated.candidates, kb), generated.question))


def _gerbil(pipeline: Pipeline | WorkerPipeline, raw: bytes, session_log: SessionLog | None,
            session_id: str) -> JSONResponse:
    try:
        text, lang = parse_gerbil_body(raw)
    except ValueError as exc:
        return _error(400, "bad_input", str(exc))
    text, lang = valid_unicode(text), valid_unicode(lang) or None
    given = lang if lang in SUPPORTED_LANGUAGES else None  # GERBIL's lang is the question's language
    try:
        done = answer_and_log(pipeline, text, given, session_log,
                              render=lambda turn, _turn_id: _with_notices(qald_reply(turn, text, lang), text),
                              session_id=session_id,
                              source="api", log_bad_input=False, question_lang=given)
    except TurnNotLogged as exc:
        log.error("session log write failed; not answering: %s", exc)
        return _error(503, "log_unavailable", "the turn could not be recorded", RETRY_AFTER_S)
    turn, reply = done.turn, done.shown
    if turn.status == Status.BAD_INPUT:
        return _json(reply, 400)
    if turn.status == Status.SERVICE_ERROR:
        log.warning("service fault on /gerbil: %s", turn.error)
        return _json(reply, 503, {"Retry-After": str(RETRY_AFTER_S)})
    if turn.status == Status.ERROR:
        log.error("internal error on /gerbil: %s", turn.error)
        return _json(reply, 500)
    return _json(reply)


def _ask(pipeline: Pipeline | WorkerPipeline, params: dict[str, str], session_log: SessionLog | None,
         session_id: str, conversations: Conversations | None = None) -> JSONResponse:
    """``kgqa ask``'s turn, answered (and logged, source ``cli``, unless ``log=off``) here:
    form ``question``, ``lang`` (the question's), ``validator=off``, and what a follow-up
    refers to, the first given of: ``context`` (JSON: the previous reply's ``next_context``),
    ``previous`` (the previous reply's ``turn_id``: its conversation goes on), ``conversation``
    (a ``conversation_id``: the context after its last turn; a new id starts one).  The reply
    is the turn's JSON plus ``turn_id``, ``conversation_id`` and ``next_context``; an unknown
    or expired ``previous`` gets 404, a malformed id 400."""
    lang = (params.get("lang") or "").strip().lower()
    given = lang if lang in SUPPORTED_LANGUAGES else None
    previous = (params.get("previous") or "").strip()
    conversation = (params.get("conversation") or "").strip()
    if previous and not TURN_ID.match(previous):
        return _error(400, "bad_input", "previous must be a turn_id this service gave")
    if conversation and not CONVERSATION_ID.match(conversation):
        return _error(400, "bad_input", "conversation must be 1 to 64 letters, digits, '-' or '_'")
    context = _context(params.get("context"))
    if conversations is not None and previous:
        try:
            conversation, held = conversations.after_turn(previous)
        except UnknownTurn:
            return _error(404, "unknown_turn", "no turn with this id here (unknown, or older than an hour)")
        context = context or held
    elif conversations is not None and conversation and context is None:
        context = conversations.latest(conversation)
    conversation = conversation or new_session_id()
    try:
        done = answer_and_log(pipeline, params.get("question"), given,
                              session_log if params.get("log") != "off" else None,
                              render=_with_next_context(context, conversation), session_id=session_id,
                              source="cli",
                              use_validator=params.get("validator") != "off", question_lang=given,
                              context=context)
    except TurnNotLogged as exc:
        log.error("session log write failed; not answering: %s", exc)
        return _error(503, "log_unavailable", "the turn could not be recorded", RETRY_AFTER_S)
    if conversations is not None and done.turn.status != Status.BAD_INPUT:
        conversations.record(conversation, done.shown["turn_id"], context_after(done.turn, context))
    return _json(done.shown)


def _with_next_context(given: Context | None, conversation: str | None = None
                       ) -> Callable[[Turn, str], dict[str, Any]]:
    """The turn's JSON plus ``turn_id`` and ``conversation_id`` (send either back, as
    ``previous`` or ``conversation``, with the next question) and ``next_context`` (or send
    it back as ``context``; ``null``: nothing to refer to)."""

    def render(turn: Turn, turn_id: str) -> dict[str, Any]:
        after = context_after(turn, given)
        return {**turn.to_json(), "turn_id": turn_id, "conversation_id": conversation,
                "next_context": after.to_json() if after else None}

    return render


def _context(raw: str | None) -> Context | None:
    """``/api/ask``'s ``context`` parameter (JSON), or ``None`` when absent or not one."""
    if not raw:
        return None
    try:
        return Context.from_json(json.loads(raw))
    except (ValueError, RecursionError):
        return None


def _health(pipeline: Pipeline | WorkerPipeline) -> JSONResponse:
    if isinstance(pipeline, WorkerPipeline):
        return _workers_health(pipeline)
    out: dict[str, Any] = {"status": "ok", "backend": pipeline.backend.name, "kg": pipeline.kg.name,
                           "validator": pipeline.validator_state}
    try:
        pipeline.kg.query("ASK { }", timeout_s=2.0)
    except KGError as exc:
        out.update(status="degraded", kg_error=type(exc).__name__)
        return _json(out, 503)
    return _json(out)


def _workers_health(pool: WorkerPipeline) -> JSONResponse:
    """Workers: ``starting`` until loaded; ``degraded`` with how many workers are past half
    their deadline (``stuck``), when loading failed (``error``: the error's class name), or
    when no worker answers a KG probe.  No process ids, paths or error text."""
    out: dict[str, Any] = {"status": "ok", "backend": pool.backend.name,
                           "kg": "remote" if endpoint_profile(pool.settings) is not None else "embedded",
                           "validator": pool.validator_state, "workers": len(pool.pids()), "stuck": len(pool.stuck())}
    if not pool.ready:
        out["status"] = "starting"
        return _json(out, 503, {"Retry-After": "1"})
    if pool.failure is not None:
        kind = type(pool.start_error).__name__ if pool.start_error is not None else "WorkerStartError"
        out.update(status="degraded", error=kind)
        return _json(out, 503)
    try:
        pool.probe()
    except KGError as exc:
        out.update(status="degraded", kg_error=type(exc).__name__)
    if out["stuck"] or out["status"] != "ok":
        out["status"] = "degraded"
        return _json(out, 503)
    return _json(out)


def _log(request: Request, status: int, started: float) -> None:
    """One line per request; deliberately without the client address."""
    log.info("%s %s -> %d in %.0f ms", request.method, request.url.path, status,
             (time.perf_counter() - started) * 1000)
