"""The page that answers while the chat loads.

Gradio takes about 4 s to import on a 2-core box, the answering worker processes about
2 s to load beside it.  So ``python app.py`` first serves this small page (no Gradio, no
page framework: one HTML document with its script): a person can ask a question at once,
and it is answered as soon as the workers are up, exactly as the chat would answer it
(:func:`chat.asking.ask_once`: the same admission, rendering and session log).  Each
question is answered on its own: follow-ups need the full chat.

When the full chat is open (:class:`service.front_door.FrontDoor`), a page with nothing
asked yet reloads into it; a page with answers on it offers "New conversation", which
opens the chat.  Routes (all under ``/start/``, which stays with this app):

* ``GET /`` (until the chat opens) - the page, in the browser's language;
* ``POST /start/ask`` - JSON ``{"question", "lang"}`` -> ``{"html"}``, the answer message;
* ``GET /start/status`` - ``{"chat": bool, "answers": bool}``: the full chat is open / the
  workers are up.

Anything else answers 503 ``starting`` with ``Retry-After`` until the chat opens.  The page
carries a Content-Security-Policy: its own script only (a per-response nonce), requests to
this origin only."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from chat.asking import AUTO, Admission, accept_language, ask_once, log_failed_html, pipeline_ready, starting_html
from chat.examples import placeholder
from chat.messages import message
from chat.render import escape, message_html
from qa.answer import TurnNotLogged
from service.session_log import SessionLog
from service.workers import WorkerPipeline

if TYPE_CHECKING:  # the pipeline loads in the worker processes; this module serves before it
    from qa.pipeline import Pipeline

log = logging.getLogger(__name__)

MAX_BODY_BYTES = 64 * 1024
"""The largest question a page may send (a longer one is refused before it is read)."""
BODY_TIMEOUT_S = 10.0
"""How long a question's body may take to arrive (as the API's, ``service.app.BODY_TIMEOUT_S``)."""
SOURCE = "chat-start"
"""The session log's ``source`` of questions answered by this page."""
RETRY_AFTER_S = "1"


def starting_app(pipeline: Pipeline | WorkerPipeline, session_log: SessionLog, admission: Admission,
                 chat_open: Callable[[], bool]) -> Starlette:
    """The page's app over the chat's pipeline, session log and admission; ``chat_open``
    says whether the full chat serves yet."""

    async def page(request: Request) -> Response:
        if chat_open():  # a request that raced the hand-over
            return _starting_reply()
        ui = accept_language(request.headers.get("accept-language"))
        nonce = secrets.token_urlsafe(16)
        return HTMLResponse(page_html(ui, nonce), headers=_page_headers(nonce))

    async def ask(request: Request) -> Response:
        ui = accept_language(request.headers.get("accept-language"))
        try:
            question, lang = await _question(request)
        except ValueError as exc:
            return JSONResponse({"error": str(exc), "html": message_html("internal_error", ui)}, status_code=400)
        try:
            html = await run_in_threadpool(ask_once, pipeline, session_log, admission, question, lang, request,
                                           source=SOURCE)
        except TurnNotLogged as exc:
            log.error("session log write failed, answer withheld: %s", exc)
            html = log_failed_html(exc.turn.lang)
        return JSONResponse({"html": html}, headers={"Cache-Control": "no-store"})

    async def status(request: Request) -> Response:
        return JSONResponse({"chat": chat_open(), "answers": pipeline_ready(pipeline)},
                            headers={"Cache-Control": "no-store"})

    async def starting(request: Request, exc: Exception) -> Response:
        return _starting_reply()

    routes = [Route("/", page, methods=["GET", "HEAD"]), Route("/start/ask", ask, methods=["POST"]),
              Route("/start/status", status, methods=["GET"])]
    return Starlette(routes=routes, exception_handlers={404: starting, 405: starting})


async def _question(request: Request) -> tuple[str, str]:
    """The posted ``(question, lang)``; ``ValueError`` for a body too large or not the page's."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY_BYTES):
        raise ValueError("too_large")
    body = bytearray()
    try:
        async with asyncio.timeout(BODY_TIMEOUT_S):  # a body dripped byte by byte holds nothing for long
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_BODY_BYTES:
                    raise ValueError("too_large")
    except ClientDisconnect:
        raise ValueError("disconnected") from None
    except TimeoutError:
        raise ValueError("too_slow") from None
    try:
        data = json.loads(body.decode("utf-8", errors="replace"))
    except ValueError:
        raise ValueError("bad_json") from None
    if not isinstance(data, dict) or not isinstance(data.get("question"), str):
        raise ValueError("bad_request")
    lang = data.get("lang")
    return data["question"], lang if isinstance(lang, str) and len(lang) <= 16 else AUTO


def _starting_reply() -> Response:
    return JSONResponse({"error": "starting"}, status_code=503, headers={"Retry-After": RETRY_AFTER_S})


def _page_headers(nonce: str) -> dict[str, str]:
    return {
        "Content-Security-Policy": (f"default-src 'none'; script-src 'nonce-{nonce}'; style-src 'unsafe-inline'; "
                                    "connect-src 'self'; img-src 'self' data:; base-uri 'none'; "
                                    "form-action 'none'; frame-ancestors 'none'"),
        "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store", "Referrer-Policy": "no-referrer",
    }


def page_html(ui: str, nonce: str) -> str:
    """The page in UI language ``ui`` (every text escaped; the script reads its texts from
    a JSON block)."""
    texts = {"waiting": starting_html(ui), "failed": message_html("service_unavailable", ui)}
    data = json.dumps(texts).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return _PAGE.format(
        lang=escape(ui), title=escape(message("ui_title", ui)), subtitle=escape(message("ui_subtitle", ui)),
        welcome=escape(message("ui_welcome", ui)), placeholder=escape(placeholder(ui)),
        send=escape(message("ui_send", ui)), new=escape(message("ui_new_conversation", ui)),
        chat=escape(message("ui_chat_label", ui)), nonce=nonce, texts=data, script=_SCRIPT)  # nonce: URL-safe base64


_PAGE = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>KGQA</title>
<style>
body {{ font-family: "Noto Sans", "DejaVu Sans", "Segoe UI", Helvetica, Arial, sans-serif; margin: 0;
  background: #fff; color: #1f2937; }}
main {{ max-width: 60em; margin: 0 auto; padding: 1em; }}
#kgqa-header h1 {{ margin: 0 0 .2em 0; font-size: 1.6em; }}
#kgqa-header p {{ margin: .2em 0; opacity: .8; }}
#kgqa-start-chat {{ border: 1px solid #e5e7eb; border-radius: .5em; min-height: 12em; max-height: 46vh;
  overflow-y: auto; padding: .6em; margin: .8em 0; }}
.kgqa-user {{ text-align: right; margin: .4em 0; }}
.kgqa-user span {{ background: #eef2ff; border-radius: .6em; padding: .3em .6em; display: inline-block;
  overflow-wrap: anywhere; }}
.kgqa-bot {{ margin: .4em 0; overflow-wrap: anywhere; }}
.kgqa-starting {{ opacity: .75; font-style: italic; }}
.kgqa-answer details.kgqa-how {{ margin-top: .6em; font-size: .85em; }}
.kgqa-answer pre.kgqa-sparql {{ white-space: pre-wrap; overflow-wrap: anywhere; font-size: .9em; }}
form {{ display: flex; gap: .5em; }}
#kgqa-question {{ flex: 6; padding: .5em; font-size: 1em; border: 1px solid #d1d5db; border-radius: .4em; }}
button {{ flex: 1; padding: .5em; font-size: 1em; border-radius: .4em; border: 1px solid #d1d5db; cursor: pointer; }}
#kgqa-send {{ background: #f97316; color: #fff; border-color: #f97316; }}
</style></head>
<body><main id="kgqa-start">
<div id="kgqa-header"><h1>{title}</h1><p class="kgqa-subtitle">{subtitle}</p><p class="kgqa-welcome">{welcome}</p></div>
<div id="kgqa-start-chat" role="log" aria-live="polite" aria-label="{chat}"></div>
<form id="kgqa-start-form"><input id="kgqa-question" name="question" autocomplete="off" autofocus
 placeholder="{placeholder}" aria-label="{placeholder}"><button type="submit" id="kgqa-send">{send}</button>
<button type="button" id="kgqa-new" hidden>{new}</button></form>
<script type="application/json" id="kgqa-texts">{texts}</script>
<script nonce="{nonce}">{script}</script>
</main></body></html>
"""

_SCRIPT = """
(() => {
  const texts = JSON.parse(document.getElementById("kgqa-texts").textContent);
  const log = document.getElementById("kgqa-start-chat");
  const form = document.getElementById("kgqa-start-form");
  const box = document.getElementById("kgqa-question");
  const fresh = document.getElementById("kgqa-new");
  let asked = false;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const question = box.value;
    if (!question.trim()) return;
    asked = true;
    const mine = document.createElement("div");
    mine.className = "kgqa-user";
    mine.appendChild(document.createElement("span")).textContent = question;
    const reply = document.createElement("div");
    reply.className = "kgqa-bot";
    reply.innerHTML = texts.waiting;  // the server's own escaped HTML
    log.append(mine, reply);
    box.value = "";
    log.scrollTop = log.scrollHeight;
    try {
      const answer = await fetch("start/ask", {method: "POST", headers: {"Content-Type": "application/json"},
                                               body: JSON.stringify({question: question, lang: "auto"})});
      reply.innerHTML = (await answer.json()).html || texts.failed;
    } catch (error) {
      reply.innerHTML = texts.failed;
    }
    log.scrollTop = log.scrollHeight;
  });
  fresh.addEventListener("click", () => location.reload());
  const watch = async () => {
    try {
      const status = await (await fetch("start/status", {cache: "no-store"})).json();
      if (status.chat) {
        if (!asked && !box.value) location.reload(); else fresh.hidden = false;
        return;
      }
    } catch (error) { /* the server is busy starting: ask again */ }
    setTimeout(watch, 400);
  };
  setTimeout(watch, 400);
})();
"""
