"""The web API (FastAPI, served by uvicorn through ``kgqa serve``).

Endpoints:

* ``GET|POST /api/qa/full?question=&lang=&kb=`` - QAnswer's candidate API:
  ``{"question", "queries": [{"query", "confidence", "kb"}]}`` from the configured
  backend, best first.  Parameters may come in the query string or a form body.
* ``POST /gerbil`` - GERBIL's QALD web-service protocol: raw body
  ``query=<text>&lang=<xx>``; replies QALD-JSON with the *gated* answer (one answer
  set or empty bindings = abstain), booleans as ``boolean``.
* ``POST /api/ask`` - ``question=&lang=&validator=off``: the full turn as ``kgqa ask --json``
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

from core.errors import BackendError, InputError, KGError, SessionLogError, is_service_fault
from qa.detect import SUPPORTED_LANGUAGES, clean_question, detect_language
from qa.pipeline import Pipeline
from service.formats import parse_gerbil_body, qa_full_reply, qald_reply
from service.ratelimit import RateLimiter, client_key
from service.session_log import SessionLog, new_session_id
from service.workers import WorkerPipeline

log = logging.getLogger("kgqa.service")

MAX_BODY_BYTES = 64 * 1024
MAX_CONCURRENT_QUESTIONS = 2
"""Questions (``/api/qa/full``, ``/gerbil``) worked on at once; more wait their turn
(a burst must not run dozens of backends and validators at once on a few cores)."""
RETRY_AFTER_S = 5
SECURITY_HEADERS = {"X-Content-Type-Options": "nosniff", "Cache-Control": "no-store",
                    "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'"}


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers={**SECURITY_HEADERS, **(headers or {})})


def _error(status: int, error: str, detail: str, retry_after: float | None = None) -> JSONResponse:
    headers = {"Retry-After": str(max(1, math.ceil(retry_after)))} if retry_after is not None else None
    return _json({"error": error, "detail": detail}, status, headers)


def _pick_lang(lang: str | None, text: str) -> str:
    code = (lang or "").strip().lower()
    return code if code in SUPPORTED_LANGUAGES else detect_language(text)


async def _params(request: Request) -> dict[str, str]:
    """Query-string parameters, overridden by a form-encoded body on POST."""
    values = {k: v for k, v in request.query_params.items()}
    if request.method == "POST":
        raw = await _body(request)
        for key, vals in parse_qs(raw.decode("utf-8", errors="replace"), keep_blank_values=True).items():
            values[key] = vals[-1]
    return values


async def _body(request: Request) -> bytes:
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise _TooLarge()
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise _TooLarge()
        chunks.append(chunk)
    return b"".join(chunks)


class _TooLarge(Exception):
    """Internal: the request body exceeds :data:`MAX_BODY_BYTES`."""


def create_app(
    pipeline: Pipeline | WorkerPipeline,
    *,
    kb: str = "wikidata",
    rate_limiter: RateLimiter | None = None,
    session_log: SessionLog | None = None,
    max_concurrent: int = MAX_CONCURRENT_QUESTIONS,
) -> FastAPI:
    """The web API over an assembled :class:`Pipeline` or :class:`WorkerPipeline` (its
    backend serves ``/api/qa/full``).

    With a ``session_log``, every ``/gerbil`` turn is committed there (source ``api``,
    one random session id per app, no client address) before the reply is sent.  At
    most ``max_concurrent`` questions are worked on at once (the rest wait in uvicorn's
    thread pool); ``/health`` never waits.
    """
    app = FastAPI(title="KGQA service", version="0.1.0", docs_url=None, redoc_url=None, openapi_url=None)
    limiter = rate_limiter if rate_limiter is not None else RateLimiter(0)
    app.state.pipeline = pipeline
    app.state.rate_limiter = limiter
    api_session = new_session_id()
    slots = threading.BoundedSemaphore(max(1, max_concurrent))

    def limited(fn: Callable[[], JSONResponse]) -> Callable[[], JSONResponse]:
        def run() -> JSONResponse:
            with slots:
                return fn()
        return run

    @app.middleware("http")
    async def guard(request: Request, call_next):
        started = time.perf_counter()
        if request.url.path != "/health":
            wait = limiter.acquire(client_key(request.client.host if request.client else None))
            if wait > 0:
                response = _error(429, "rate_limited", "too many requests; slow down", wait)
                _log(request, response.status_code, started)
                return response
        response = await call_next(request)
        for key, value in SECURITY_HEADERS.items():
            response.headers.setdefault(key, value)
        _log(request, response.status_code, started)
        return response

    @app.exception_handler(_TooLarge)
    async def too_large(request: Request, exc: _TooLarge) -> JSONResponse:
        return _error(413, "too_large", f"request body exceeds {MAX_BODY_BYTES} bytes")

    @app.api_route("/api/qa/full", methods=["GET", "POST"])
    async def qa_full(request: Request) -> JSONResponse:
        params = await _params(request)
        return await _run_sync(limited(lambda: _qa_full(pipeline, params, kb)))

    @app.post("/gerbil")
    async def gerbil(request: Request) -> JSONResponse:
        raw = await _body(request)
        return await _run_sync(limited(lambda: _gerbil(pipeline, raw, session_log, api_session)))

    @app.post("/api/ask")
    async def ask(request: Request) -> JSONResponse:
        params = await _params(request)
        return await _run_sync(limited(lambda: _ask(pipeline, params)))

    @app.get("/health")
    async def health() -> JSONResponse:
        return await _run_sync(lambda: _health(pipeline))

    return app


async def _run_sync(fn: Callable[[], JSONResponse]) -> JSONResponse:
    return await run_in_threadpool(fn)


def _qa_full(pipeline: Pipeline | WorkerPipeline, params: dict[str, str], kb: str) -> JSONResponse:
    requested_kb = (params.get("kb") or kb).strip()
    if requested_kb != kb:
        return _error(400, "unknown_kb", f"this service answers over kb={kb!r} only")
    try:
        text = clean_question(params.get("question"), pipeline.max_question_chars)
    except InputError as exc:
        return _error(400, "bad_input", str(exc))
    lang = _pick_lang(params.get("lang"), text)
    try:
        candidates = pipeline.backend.ask(text, lang)
    except (BackendError, KGError) as exc:
        if not is_service_fault(exc):
            log.error("backend error on /api/qa/full: %s", exc)
            return _error(500, "internal_error", type(exc).__name__)
        log.warning("service fault on /api/qa/full: %s", exc)
        return _error(503, "service_unavailable", type(exc).__name__, RETRY_AFTER_S)
    return _json(qa_full_reply(text, candidates, kb))


def _gerbil(pipeline: Pipeline | WorkerPipeline, raw: bytes, session_log: SessionLog | None,
            session_id: str) -> JSONResponse:
    try:
        text, lang = parse_gerbil_body(raw)
    except ValueError as exc:
        return _error(400, "bad_input", str(exc))
    turn = pipeline.answer(text, lang if lang in SUPPORTED_LANGUAGES else None)
    if session_log is not None and turn.status != "bad_input":
        try:
            session_log.log_turn(turn, session_id=session_id, selected_lang=lang, threshold=pipeline.threshold,
                                 source="api")
        except SessionLogError as exc:
            log.error("session log write failed; not answering: %s", exc)
            return _error(503, "log_unavailable", "the turn could not be recorded", RETRY_AFTER_S)
    reply = qald_reply(turn, text, lang)
    if turn.status == "bad_input":
        return _json(reply, 400)
    if turn.status == "service_error":
        log.warning("service fault on /gerbil: %s", turn.error)
        return _json(reply, 503, {"Retry-After": str(RETRY_AFTER_S)})
    if turn.status == "error":
        log.error("internal error on /gerbil: %s", turn.error)
        return _json(reply, 500)
    return _json(reply)


def _ask(pipeline: Pipeline | WorkerPipeline, params: dict[str, str]) -> JSONResponse:
    """``kgqa ask``'s turn, answered here (form ``question``, ``lang``, ``validator=off``)."""
    lang = (params.get("lang") or "").strip().lower()
    turn = pipeline.answer(params.get("question"), lang if lang in SUPPORTED_LANGUAGES else None,
                           use_validator=params.get("validator") != "off")
    return _json(turn.to_json())


def _health(pipeline: Pipeline | WorkerPipeline) -> JSONResponse:
    if isinstance(pipeline, WorkerPipeline):
        return _workers_health(pipeline)
    out: dict[str, Any] = {"status": "ok", "backend": getattr(pipeline.backend, "name", "?"),
                           "kg": getattr(pipeline.kg, "name", "?"), "validator": pipeline.validator_state}
    try:
        pipeline.kg.query("ASK { }", timeout_s=2.0)
    except KGError as exc:
        out.update(status="degraded", kg_error=type(exc).__name__)
        return _json(out, 503)
    return _json(out)


def _workers_health(pool: WorkerPipeline) -> JSONResponse:
    """Workers: ``starting`` until loaded; ``degraded`` with the ids of workers past their
    deadline (``stuck``), or when no worker answers a KG probe."""
    out: dict[str, Any] = {"status": "ok", "backend": pool.backend.name,
                           "kg": "remote" if pool.settings.kg_endpoint else "embedded",
                           "validator": pool.validator_state, "workers": len(pool.pids()), "stuck": pool.stuck()}
    if not pool.ready:
        out["status"] = "starting"
        return _json(out, 503, {"Retry-After": "1"})
    if pool.failure is not None:
        out.update(status="degraded", error=pool.failure)
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
