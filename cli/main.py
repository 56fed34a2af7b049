"""The ``kgqa`` command line.  Each sub-command lives in its own ``cli.*`` module
exposing ``register(subparsers)``; settings are read once here."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

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
    parser.add_argument("--trusted-proxies", dest="trusted_proxies",
                        help="comma-separated proxy addresses/networks whose X-Forwarded-For is believed")


def settings_from_args(args: argparse.Namespace) -> Settings:
    """The one place the CLI reads the environment and flags into :class:`Settings`."""
    from pathlib import Path

    overrides = {}
    for name in ("kg_source", "kg_endpoint", "kg_profile", "user_agent", "cache_dir", "backend", "qanswer_url",
                 "threshold", "timeout_s",
                 "log_path", "host", "port", "serve_port", "validator_dir", "trusted_proxies"):
        value = getattr(args, name, None)
        if value is not None and name in ("kg_source", "cache_dir", "log_path", "validator_dir"):
            value = Path(value)
        overrides[name] = value
    if getattr(args, "no_validator", False):
        overrides["validator"] = False
    return load_settings(os.environ, **overrides)


def build_parser(modules: Sequence[str] = COMMAND_MODULES) -> argparse.ArgumentParser:
    """The parser with the sub-commands of ``modules`` (default: every available one)."""
    parser = argparse.ArgumentParser(prog="kgqa", description=__doc__)
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
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
