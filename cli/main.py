"""The ``kgqa`` command line.  Each sub-command lives in its own ``cli.*`` module
exposing ``register(subparsers)``; settings are read once here."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from core.errors import KGQAError, SettingsError
from core.settings import Settings, load_settings

COMMAND_MODULES = ("cli.kg", "cli.ask", "cli.evaluate", "cli.train", "cli.log",
                   "cli.serve")


def add_common(parser: argparse.ArgumentParser) -> None:
    """Flags every sub-command shares (each maps onto a :class:`Settings` field)."""
    parser.add_argument("--kg-source", dest="kg_source", help="N-Triples/Turtle source of the embedded KG")
    parser.add_argument("--kg-endpoint", dest="kg_endpoint", help="remote SPARQL endpoint URL instead of the store")
    parser.add_argument("--kg", dest="kg_profile", choices=["embedded", "wikidata", "qlever"],
                        help="a ready KG profile: wikidata (WDQS + entity search), qlever (QLever's Wikidata)")
    parser.add_argument("--user-agent", dest="user_agent",
                        help="User-Agent sent to SPARQL endpoints (Wikimedia policy: give a contact)")
    parser.add_argument("--cache-dir", dest="cache_dir", help="where built stores and models live")
    parser.add_argument("--backend", dest="backend", choices=["local", "qanswer"])
    parser.add_argument("--qanswer-url", dest="qanswer_url", help="base URL of a QAnswer-compatible API")
    parser.add_argument("--threshold", dest="threshold", type=float, help="validator gate threshold")
    parser.add_argument("--timeout", dest="timeout_s", type=float, help="backend/endpoint timeout in seconds")
    parser.add_argument("--budget", dest="kg_budget_s", type=float,
                        help="seconds one question may spend on outbound requests (endpoint and backend, all "
                             "together; setting kg_budget_s, default 8)")
    parser.add_argument("--trusted-proxies", dest="trusted_proxies",
                        help="comma-separated proxy addresses/networks whose X-Forwarded-For is believed")


FLAG_NAMES = {"kg_source": "--kg-source", "kg_endpoint": "--kg-endpoint", "cache_dir": "--cache-dir",
              "backend": "--backend", "qanswer_url": "--qanswer-url", "threshold": "--threshold",
              "timeout_s": "--timeout", "log_path": "--log-path", "host": "--host", "port": "--port",
              "serve_port": "--port", "validator_dir": "--validator-dir", "trusted_proxies": "--trusted-proxies",
              "allowed_hosts": "--allowed-hosts", "kg_profile": "--kg", "user_agent": "--user-agent",
              "kg_budget_s": "--budget"}
"""The command-line flag of each :class:`Settings` field a flag sets (named in errors)."""


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def settings_from_args(args: argparse.Namespace, flags: dict[str, str] | None = None) -> Settings:
    """The one place the CLI reads the environment and flags into :class:`Settings`
    (raises :class:`SettingsError` naming the variable or flag of a bad value)."""
    from pathlib import Path

    overrides = {}
    for name in ("kg_source", "kg_endpoint", "kg_profile", "user_agent", "cache_dir", "backend", "qanswer_url",
                 "threshold", "timeout_s", "log_path", "host", "port", "serve_port", "validator_dir", "trusted_proxies",
                 "allowed_hosts", "kg_budget_s"):
        value = getattr(args, name, None)
        if value is not None and name in ("kg_source", "cache_dir", "log_path", "validator_dir"):
            value = Path(value)
        overrides[name] = value
    if getattr(args, "no_validator", False):
        overrides["validator"] = False
    return load_settings(os.environ, flags={**FLAG_NAMES, **(flags or {})}, **overrides)


def start_error(command: str, exc: KGQAError | RuntimeError, hint: str = "") -> int:
    """Print why ``command`` cannot start as one line on stderr; returns exit status 2."""
    text = " ".join(str(exc).split())  # one line, whatever the message carried
    print(f"kgqa {command}: error: {type(exc).__name__}: {text}{hint}", file=sys.stderr)
    return 2


def build_parser(modules: Sequence[str] = COMMAND_MODULES) -> argparse.ArgumentParser:
    """The parser with the sub-commands of ``modules`` (default: every available one)."""
    parser = OneLineParser(prog="kgqa", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for name in modules:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``kgqa`` console script."""
    words = list(sys.argv[1:] if argv is None else argv)
    # `kgqa ask` is run in loops: import only its module (the others pull in the web stack)
    parser = build_parser(("cli.ask",) if words[:1] == ["ask"] else COMMAND_MODULES)
    args = parser.parse_args(words)
    try:
        return int(args.func(args) or 0)
    except SettingsError as exc:  # a bad KGQA_* variable or flag: before anything loaded
        return start_error(str(args.command), exc)


if __name__ == "__main__":
    sys.exit(main())
