"""``kgqa ask "QUESTION" [--lang xx] [--backend local|qanswer] [--json] [--no-validator] [--timings]``.

When a ``kgqa serve`` answers on the configured host and ``serve_port`` (and no flag asks
for another KG, backend or threshold), the question is answered there: no model to load.
Otherwise the pipeline is built here, loading only what the question needs: no gradio,
and torch with the validator's cached int8 network (:mod:`validator.model`) only when the
cross-encoder actually scores (most questions end before it runs).  ``--local`` skips the
server; ``--timings`` prints where the time went (to stderr).
"""

from __future__ import annotations

import argparse
import importlib
import json
import socket
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

from chat.messages import turn_message
from chat.render import render_text
from cli.main import add_common, settings_from_args
from core.settings import Settings
from qa.pipeline import Turn

PIPELINE_FLAGS = ("kg_source", "kg_endpoint", "cache_dir", "backend", "qanswer_url", "threshold", "timeout_s")
"""Flags that configure the pipeline: with any of them the question is answered here."""
SERVER_TIMEOUT_S = 120.0


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``ask`` to the CLI."""

    p = sub.add_parser("ask", help="answer one question (one answer or 'I don't know')")
    p.add_argument("question")
    p.add_argument("--lang", help="language of the question (default: detected)")
    p.add_argument("--json", action="store_true", help="print the full JSON contract")
    p.add_argument("--no-validator", dest="no_validator", action="store_true", help="take the top candidate")
    p.add_argument("--local", action="store_true", help="answer here even when a kgqa serve is running")
    p.add_argument("--serve-port", dest="serve_port", type=int,
                   help="port of a running kgqa serve to use (default: setting serve_port)")
    p.add_argument("--timings", action="store_true", help="print where the time went (stderr)")
    add_common(p)
    p.set_defaults(func=run_ask)


def run_ask(args: argparse.Namespace) -> int:
    """Answer and print; exit 2 on bad input, 3 on a service fault."""
    started = time.perf_counter()
    settings = settings_from_args(args)
    spent: dict[str, float] = {}
    turn = None
    if not args.local and not any(getattr(args, name, None) is not None for name in PIPELINE_FLAGS):
        turn = ask_server(settings, args.question, args.lang, use_validator=not args.no_validator)
        spent["server"] = time.perf_counter() - started
    if turn is None:
        turn = _answer_here(settings, args, spent)
    if args.json:
        print(json.dumps({**turn.to_json(), "message": turn_message(turn)}, ensure_ascii=False, indent=1))
    else:
        print(render_text(turn))
    if args.timings:
        spent["total"] = time.perf_counter() - started
        print(_timings_text(spent, turn), file=sys.stderr)
    if turn.status == "bad_input":
        return 2
    return 3 if turn.status == "service_error" else 0


def ask_server(settings: Settings, question: str, lang: str | None, *, use_validator: bool = True) -> Turn | None:
    """The turn from a ``kgqa serve`` on ``settings.host:settings.serve_port``, or ``None``
    when none answers there (nothing listening, or not a kgqa serve)."""
    host = settings.host
    try:
        with socket.create_connection((host, settings.serve_port), timeout=0.2):
            pass
    except OSError:
        return None
    body = urllib.parse.urlencode({"question": question, "lang": lang or "",
                                   "validator": "on" if use_validator else "off"}).encode()
    request = urllib.request.Request(f"http://{host}:{settings.serve_port}/api/ask", data=body, method="POST",
                                     headers={"Content-Type": "application/x-www-form-urlencoded"})
    try:
        with urllib.request.urlopen(request, timeout=SERVER_TIMEOUT_S) as reply:
            return Turn.from_json(json.loads(reply.read()))
    except (OSError, ValueError, KeyError, TypeError):  # another service, an error reply, a timeout
        return None


def _answer_here(settings: Settings, args: argparse.Namespace, spent: dict[str, float]) -> Turn:
    mark = time.perf_counter()
    # imported here, through importlib, so that answering through a running server never loads it
    factory = importlib.import_module("service.factory")
    spent["import"] = time.perf_counter() - mark
    mark = time.perf_counter()
    pipeline = factory.build_pipeline(settings, lazy_validator=True)  # torch only if the validator scores
    spent["load"] = time.perf_counter() - mark
    mark = time.perf_counter()
    turn = pipeline.answer(args.question, args.lang, use_validator=not args.no_validator)
    spent["answer"] = time.perf_counter() - mark
    return turn


def _timings_text(spent: dict[str, float], turn: Turn) -> str:
    parts = [f"{name} {seconds:.2f}s" for name, seconds in spent.items()]
    stages = " ".join(f"{name} {ms / 1000:.2f}s" for name, ms in turn.timings_ms.items())
    where = "kgqa serve" if "server" in spent and "load" not in spent else "this process"
    return f"timings ({where}): " + ", ".join(parts) + (f"; pipeline: {stages}" if stages else "")
