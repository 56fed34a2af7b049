"""``kgqa ask "QUESTION" [--lang xx] [--backend local|qanswer] [--json] [--no-validator] [--no-log] [--timings]``.

When a ``kgqa serve`` answers on the configured host and ``serve_port`` (and no flag asks
for another KG, backend or threshold), the question is answered and logged there: no
model to load.  Otherwise the pipeline is built here, loading only what the question
needs: no gradio, no torch, and the validator's ONNX network only when the
cross-encoder actually scores (most questions end before it runs); the turn is then
committed to the session log (setting ``log_path``, source ``cli``) before the answer is
printed, as in the chat.  ``--local`` skips the server, ``--no-log`` the log;
``--timings`` prints where the time went (to stderr).
"""

from __future__ import annotations

import argparse
import importlib
import json
import socket
import sys
import time
import urllib.parse
import urllib.request

from chat.messages import message, turn_message
from chat.render import render_text, ui_language
from cli.checks import VALIDATOR_HINT, check_start, port_number
from cli.main import add_common, settings_from_args, start_error
from core.errors import BackendError, KGError, KGSourceError, ModelLoadError
from core.memory import loading
from core.settings import Settings
from core.text import had_invalid_text, valid_unicode
from qa.turn import Status, Turn

PIPELINE_FLAGS = ("kg_source", "kg_endpoint", "kg_profile", "user_agent", "cache_dir", "backend", "qanswer_url",
                  "threshold", "timeout_s", "kg_budget_s")
"""Flags that configure the pipeline: with any of them the question is answered here."""
SERVER_TIMEOUT_S = 120.0
MAX_SERVER_REPLY_BYTES = 8 * 1024 * 1024
"""A turn from ``kgqa serve`` is a few KiB; whatever listens on its port may send more."""


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``ask`` to the CLI."""

    p = sub.add_parser("ask", help="answer one question (one answer or 'I don't know')")
    p.add_argument("question")
    p.add_argument("--lang", help="language of the question (default: detected)")
    p.add_argument("--json", action="store_true", help="print the full JSON contract")
    p.add_argument("--no-validator", dest="no_validator", action="store_true", help="take the top candidate")
    p.add_argument("--no-log", dest="no_log", action="store_true", help="do not record the turn in the session log")
    p.add_argument("--log-path", dest="log_path", help="the SQLite session log (default: setting log_path)")
    p.add_argument("--local", action="store_true", help="answer here even when a kgqa serve is running")
    p.add_argument("--serve-port", dest="serve_port", type=port_number,
                   help="port of a running kgqa serve to use (default: setting serve_port)")
    p.add_argument("--timings", action="store_true", help="print where the time went (stderr)")
    add_common(p)
    p.set_defaults(func=run_ask)


def run_ask(args: argparse.Namespace) -> int:
    """Answer, log and print; exit 2 on bad input, 3 on a service fault, 4 when the turn
    could not be logged (nothing is printed then but the apology)."""
    started = time.perf_counter()
    question = valid_unicode(args.question)  # invalid bytes in argv arrive as lone surrogates
    lang = valid_unicode(args.lang) if args.lang else None
    settings = settings_from_args(args, {"serve_port": "--serve-port"})
    spent: dict[str, float] = {}
    turn: Turn | None = None
    if not args.local and not any(getattr(args, name, None) is not None for name in PIPELINE_FLAGS):
        turn = ask_server(settings, question, lang, use_validator=not args.no_validator, log=not args.no_log)
        spent["server"] = time.perf_counter() - started
    if turn is None:
        # the pipeline is loaded only on this path (like cli.main's sub-commands, by name), so
        # that a question a running kgqa serve answers never loads the KG store or the generator
        try:
            check_start(settings)
            with loading():  # one question, then the process ends: no garbage collections on the way
                here = importlib.import_module("cli.ask_here")
                turn = here.answer_here(settings, question, lang, use_validator=not args.no_validator,
                                        log=not args.no_log, spent=spent)
        except (KGSourceError, ModelLoadError) as exc:
            return start_error("ask", exc, VALIDATOR_HINT if isinstance(exc, ModelLoadError) else "")
        except (KGError, BackendError) as exc:  # an upstream failed outside a question (start-up reads)
            turn = _unavailable(question, lang, exc)
        if turn is None:
            return 4
    if had_invalid_text(question):
        print(message("notice_invalid_unicode", ui_language(turn.lang)), file=sys.stderr)
    print(_shown(turn, as_json=args.json))
    if args.timings:
        spent["total"] = time.perf_counter() - started
        print(_timings_text(spent, turn), file=sys.stderr)
    if turn.status == Status.BAD_INPUT:
        return 2
    return 3 if turn.status == Status.SERVICE_ERROR else 0


def ask_server(settings: Settings, question: str, lang: str | None, *, use_validator: bool = True,
               log: bool = True) -> Turn | None:
    """The turn from a ``kgqa serve`` on ``settings.host:settings.serve_port`` (which logs
    it, unless ``log`` is false), or ``None`` when none answers there (nothing listening,
    or not a kgqa serve)."""
    host = settings.host
    try:
        with socket.create_connection((host, settings.serve_port), timeout=0.2):
            pass
    except OSError:
        return None
    body = urllib.parse.urlencode({"question": question, "lang": lang or "",
                                   "validator": "on" if use_validator else "off",
                                   "log": "on" if log else "off"}).encode()
    request = urllib.request.Request(f"http://{host}:{settings.serve_port}/api/ask", data=body, method="POST",
                                     headers={"Content-Type": "application/x-www-form-urlencoded"})
    try:
        with urllib.request.urlopen(request, timeout=SERVER_TIMEOUT_S) as reply:
            body = reply.read(MAX_SERVER_REPLY_BYTES + 1)  # no coding is asked for: what arrives is the size
        if len(body) > MAX_SERVER_REPLY_BYTES:
            return None
        return Turn.from_json(json.loads(body))
    except (OSError, ValueError, KeyError, TypeError, RecursionError):  # another service, an error reply, a timeout
        return None


def _unavailable(question: str, lang: str | None, exc: Exception) -> Turn:
    """The "service unavailable" turn of a question whose upstream failed before the
    pipeline could answer it (exit 3, JSON with ``--json``; never a traceback)."""
    print(f"kgqa ask: {type(exc).__name__}: {exc}", file=sys.stderr)
    return Turn.unanswered(question, lang or "en", Status.SERVICE_ERROR, error=type(exc).__name__)


def _shown(turn: Turn, *, as_json: bool) -> str:
    if as_json:
        return json.dumps({**turn.to_json(), "message": turn_message(turn)}, ensure_ascii=False, indent=1)
    return render_text(turn)


def _timings_text(spent: dict[str, float], turn: Turn) -> str:
    parts = [f"{name} {seconds:.2f}s" for name, seconds in spent.items()]
    stages = " ".join(f"{name} {ms / 1000:.2f}s" for name, ms in turn.timings_ms.items())
    where = "kgqa serve" if "server" in spent and "load" not in spent else "this process"
    return f"timings ({where}): " + ", ".join(parts) + (f"; pipeline: {stages}" if stages else "")
