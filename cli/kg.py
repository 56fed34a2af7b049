"""``kgqa build-kg``: build the embedded store and label index; ``kgqa kg-keys``: write the
label index's name keys as N-Quads, to load beside the KG on an own endpoint."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from cli.main import add_common, settings_from_args
from core.errors import KGSourceError
from kg.build import build_kg
from kg.name_keys import GRAPH, write_name_keys


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``build-kg`` to the CLI."""

    p = sub.add_parser("build-kg", help="build the embedded KG store (+ label index) from N-Triples/Turtle")
    p.add_argument("source", nargs="?", help="KG source file (default: setting kg_source)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_common(p)
    p.set_defaults(func=run_build_kg)

    k = sub.add_parser("kg-keys", help="write the label index's name keys as N-Quads (graph "
                       f"{GRAPH}) to load beside the KG on your own SPARQL endpoint")
    k.add_argument("out", help="the N-Quads file to write (.nq or .nq.gz)")
    k.add_argument("source", nargs="?", help="KG source file (default: setting kg_source)")
    add_common(k)
    k.set_defaults(func=run_kg_keys)


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


def run_kg_keys(args: argparse.Namespace) -> int:
    """Build the store and label index if needed, then write their name keys."""

    settings = settings_from_args(args)
    source = Path(args.source) if args.source else settings.kg_source
    try:
        paths = build_kg(source, settings.cache_dir, progress=True)
        n = write_name_keys(paths.labels, Path(args.out))
    except KGSourceError as exc:
        print(f"kgqa kg-keys: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"kgqa kg-keys: error: cannot write {args.out}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"{n} name-key quads (graph {GRAPH}) written to {args.out}")
    return 0
