"""``kgqa build-kg``: build the embedded store and label index."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from cli.main import add_common, settings_from_args
from core.errors import KGSourceError
from kg.build import build_kg


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``build-kg`` to the CLI."""

    p = sub.add_parser("build-kg", help="build the embedded KG store (+ label index) from N-Triples/Turtle")
    p.add_argument("source", nargs="?", help="KG source file (default: setting kg_source)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_common(p)
    p.set_defaults(func=run_build_kg)


def run_build_kg(args: argparse.Namespace) -> int:
    """Build or reuse the store; print where it is."""

    settings = settings_from_args(args)
    source = Path(args.source) if args.source else settings.kg_source
    started = time.monotonic()
    try:
        paths = build_kg(source, settings.cache_dir, progress=not args.quiet)
    except KGSourceError as exc:
        print(f"kgqa build-kg: error: {exc}", file=sys.stderr)
        return 2
    print(f"KG ready at {paths.root} ({time.monotonic() - started:.1f}s)")
    return 0
