"""``kgqa evaluate DATASET [DATASET …] [--lang xx|all] [--split train|dev|test|all]
[--no-validator|--compare-validator] [--backend …] [--limit N] [--out DIR]``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cli.main import add_common, settings_from_args
from core.errors import DatasetError
from evaluation.formats import load_dataset
from evaluation.harness import select_items
from evaluation.markdown import summary_table
from evaluation.run import evaluate
from service.factory import build_pipeline


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``evaluate`` to the CLI."""

    p = sub.add_parser("evaluate", help="run the pipeline on QALD-JSON/QALD-XML/NLPCC files and score it")
    p.add_argument("datasets", nargs="+", type=Path, help="benchmark files (QALD-JSON, QALD-XML or NLPCC)")
    p.add_argument("--lang", help="'xx': that language's string; 'all': every string as its own item "
                                  "(default: each question's first string)")
    p.add_argument("--split", choices=["train", "dev", "test", "all"], default="all",
                   help="only questions of this split (evaluation.splits; default all)")
    p.add_argument("--limit", type=int, help="N questions of each file (after --split and --lang): a deterministic "
                                             "sample by a stable hash of the ids")
    p.add_argument("--out", type=Path, default=Path("out/eval"), help="output directory (default out/eval)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--no-validator", dest="no_validator", action="store_true",
                      help="take the top backend candidate")
    mode.add_argument("--compare-validator", dest="compare_validator", action="store_true",
                      help="run with and without the validator and report both")
    p.add_argument("--detect-lang", dest="detect_lang", action="store_true",
                   help="let the pipeline detect each question's language instead of passing the dataset's")
    p.add_argument("--nlpcc-lang", dest="nlpcc_lang", default="zh", help="language of NLPCC files (default zh)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_common(p)
    p.set_defaults(func=run_evaluate)


def run_evaluate(args: argparse.Namespace) -> int:
    """Evaluate and print the summary table; exit 2 on unreadable datasets or no items."""

    if args.limit is not None and args.limit < 1:
        print("kgqa evaluate: error: --limit must be at least 1", file=sys.stderr)
        return 2
    try:
        datasets = [(path.stem, load_dataset(path, nlpcc_lang=args.nlpcc_lang)) for path in args.datasets]
    except DatasetError as exc:
        print(f"kgqa evaluate: error: {exc}", file=sys.stderr)
        return 2
    items = select_items(datasets, lang=args.lang, split=args.split, limit=args.limit)
    if not items:
        print("kgqa evaluate: error: no question matches --lang/--split", file=sys.stderr)
        return 2
    settings = settings_from_args(args)
    pipeline = build_pipeline(settings)
    mode = "no_validator" if args.no_validator else "compare" if args.compare_validator else "validator"
    if mode != "no_validator" and pipeline.validator_state != "on":
        print(f"kgqa evaluate: warning: the validator is {pipeline.validator_state}; every item takes the top "
              "backend candidate", file=sys.stderr)
    config = {"datasets": [str(p) for p in args.datasets], "split": args.split, "lang": args.lang or "first",
              "limit": args.limit, "backend": settings.backend}
    metrics = evaluate(pipeline, items, args.out, mode=mode, config=config, progress=not args.quiet,
                       detect_lang=args.detect_lang)
    label = {"validator": f"validator {metrics['config']['validator']}", "no_validator": "without validator",
             "compare": "with validator"}[mode]
    columns = [(label, metrics)]
    if "without_validator" in metrics:
        columns.append(("without validator", metrics["without_validator"]))
    print(summary_table(columns))
    print(f"\nwrote {args.out}/metrics.json, {args.out}/report.md and answers.<lang>.json")
    return 0
