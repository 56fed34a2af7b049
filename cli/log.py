"""``kgqa log export --format qald-json|csv [-o FILE]`` and ``kgqa log ats``: the session log."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cli.main import settings_from_args
from core.errors import SessionLogError
from service.session_log import SessionLog, export_csv, export_qald_json


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``log export`` and ``log ats`` to the CLI."""
    p = sub.add_parser("log", help="session log: export turns, ATS from feedback")
    log_sub = p.add_subparsers(dest="log_command", required=True)

    export = log_sub.add_parser("export", help="export logged turns as QALD-JSON or CSV")
    export.add_argument("--format", choices=["qald-json", "csv"], default="qald-json")
    export.add_argument("-o", "--output", help="file to write (default: stdout)")
    _common(export)
    export.set_defaults(func=run_export)

    ats = log_sub.add_parser("ats", help="ATS from feedback (like +1, dislike -1, abstain 0) with counts")
    ats.add_argument("--json", action="store_true", help="print the report as JSON")
    _common(ats)
    ats.set_defaults(func=run_ats)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--log-path", dest="log_path", help="the SQLite session log (default: setting log_path)")
    p.add_argument("--session", help="only this session id")


def _log_path(args: argparse.Namespace) -> Path:

    return settings_from_args(args).log_path


def _open(args: argparse.Namespace) -> SessionLog:
    path = _log_path(args)
    if not path.exists():
        raise SessionLogError(f"{path}: no session log yet (start the chat and ask something first)")
    return SessionLog(path)


def run_export(args: argparse.Namespace) -> int:
    """Write the log to stdout or ``--output``; exit 2 when the log cannot be read."""

    try:
        log = _open(args)
    except SessionLogError as exc:
        print(f"kgqa log export: error: {exc}", file=sys.stderr)
        return 2
    writer = export_csv if args.format == "csv" else export_qald_json
    with log:
        if args.output:
            with open(args.output, "w", encoding="utf-8", newline="") as out:
                n = writer(log, out, session_id=args.session)
        else:
            n = writer(log, sys.stdout, session_id=args.session)
    if args.output:
        print(f"wrote {n} turns to {args.output}", file=sys.stderr)
    return 0


def run_ats(args: argparse.Namespace) -> int:
    """Print ATS and its counts; exit 2 when the log cannot be read."""
    try:
        log = _open(args)
    except SessionLogError as exc:
        print(f"kgqa log ats: error: {exc}", file=sys.stderr)
        return 2
    with log:
        report = log.ats(args.session)
    if args.json:
        print(json.dumps(report.to_json(), indent=1))
        return 0
    ats = "n/a (nothing judged yet)" if report.ats is None else f"{report.ats:+.3f}"
    print(f"ATS: {ats}")
    print(f"turns: {report.turns}  judged: {report.judged}  likes (+1): {report.likes}  "
          f"dislikes (-1): {report.dislikes}  abstains (0): {report.abstains}")
    print(f"answers without feedback (not judged): {report.unjudged_answers}  "
          f"other (bad input, service faults): {report.other}")
    return 0
