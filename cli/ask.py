"""``kgqa ask "QUESTION" [--lang xx] [--backend local|qanswer] [--json] [--no-validator] [--no-log]``.

The turn is committed to the session log (setting ``log_path``, source ``cli``) before
the answer is printed, as in the chat; ``--no-log`` skips the log."""

from __future__ import annotations

import argparse
import json
import sys

from chat.messages import message, turn_message
from chat.render import render_text, ui_language
from cli.main import add_common, settings_from_args
from core.errors import SessionLogError
from core.text import had_invalid_text, valid_unicode
from qa.answer import TurnNotLogged, answer_and_log
from qa.turn import Status, Turn
from service.factory import build_pipeline
from service.session_log import SessionLog, new_session_id


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``ask`` to the CLI."""

    p = sub.add_parser("ask", help="answer one question (one answer or 'I don't know')")
    p.add_argument("question")
    p.add_argument("--lang", help="language of the question (default: detected)")
    p.add_argument("--json", action="store_true", help="print the full JSON contract")
    p.add_argument("--no-validator", dest="no_validator", action="store_true", help="take the top candidate")
    p.add_argument("--no-log", dest="no_log", action="store_true", help="do not record the turn in the session log")
    p.add_argument("--log-path", dest="log_path", help="the SQLite session log (default: setting log_path)")
    add_common(p)
    p.set_defaults(func=run_ask)


def run_ask(args: argparse.Namespace) -> int:
    """Answer, log and print; exit 2 on bad input, 3 on a service fault, 4 when the turn
    could not be logged (nothing is printed then but the apology)."""

    question = valid_unicode(args.question)  # invalid bytes in argv arrive as lone surrogates
    lang = valid_unicode(args.lang) if args.lang else None
    settings = settings_from_args(args)
    try:
        session_log = None if args.no_log else SessionLog(settings.log_path, store_ips=settings.store_ips)
    except SessionLogError as exc:
        print(f"kgqa ask: {exc} (--no-log answers without recording)", file=sys.stderr)
        return 4
    pipeline = build_pipeline(settings)

    def render(turn: Turn, _turn_id: str) -> str:
        if args.json:
            return json.dumps({**turn.to_json(), "message": turn_message(turn)}, ensure_ascii=False, indent=1)
        return render_text(turn)

    try:
        done = answer_and_log(pipeline, question, lang, session_log, render=render,
                              session_id="cli-" + new_session_id()[:8], source="cli",
                              use_validator=not args.no_validator, question_lang=lang)
    except TurnNotLogged as exc:
        print(message("log_failed", ui_language(exc.turn.lang)), file=sys.stderr)
        print(f"({exc})", file=sys.stderr)
        return 4
    finally:
        if session_log is not None:
            session_log.close()
    if had_invalid_text(question):
        print(message("notice_invalid_unicode", ui_language(done.turn.lang)), file=sys.stderr)
    print(done.shown)
    if done.turn.status == Status.BAD_INPUT:
        return 2
    return 3 if done.turn.status == Status.SERVICE_ERROR else 0
