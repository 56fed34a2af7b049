"""``kgqa ask "QUESTION" [--lang xx] [--backend local|qanswer] [--json] [--no-validator]``."""

from __future__ import annotations

import argparse
import json
import sys

from chat.messages import message, turn_message
from chat.render import render_text, ui_language
from cli.main import add_common, settings_from_args
from core.text import had_invalid_text, valid_unicode
from service.factory import build_pipeline


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``ask`` to the CLI."""

    p = sub.add_parser("ask", help="answer one question (one answer or 'I don't know')")
    p.add_argument("question")
    p.add_argument("--lang", help="language of the question (default: detected)")
    p.add_argument("--json", action="store_true", help="print the full JSON contract")
    p.add_argument("--no-validator", dest="no_validator", action="store_true", help="take the top candidate")
    add_common(p)
    p.set_defaults(func=run_ask)


def run_ask(args: argparse.Namespace) -> int:
    """Answer and print; exit 2 on bad input, 3 on a service fault."""

    question = valid_unicode(args.question)  # invalid bytes in argv arrive as lone surrogates
    lang = valid_unicode(args.lang) if args.lang else None
    settings = settings_from_args(args)
    pipeline = build_pipeline(settings)
    turn = pipeline.answer(question, lang, use_validator=not args.no_validator)
    if had_invalid_text(question):
        print(message("notice_invalid_unicode", ui_language(turn.lang)), file=sys.stderr)
    if args.json:
        print(json.dumps({**turn.to_json(), "message": turn_message(turn)}, ensure_ascii=False, indent=1))
    else:
        print(render_text(turn))
    if turn.status == "bad_input":
        return 2
    return 3 if turn.status == "service_error" else 0

