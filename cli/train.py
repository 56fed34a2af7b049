"""``kgqa train``: the one training entry point.

``kgqa train`` alone rebuilds every shipped asset from one recipe (``training/recipe.toml``),
in dependency order: ranker, validator, records, gate, probability map (docs/training.md);
``--only`` runs some of those steps.  Its sub-commands run one job with its own flags:

* ``kgqa train validator``: candidates from the backend -> balanced data -> fine-tuned
  cross-encoder -> calibrated gate -> ``assets/validator`` (:mod:`training.build`);
* ``kgqa train ranker``: the local backend's candidate ranker (:mod:`training.ranker`);
* ``kgqa train gate``: the gate's rank weight and threshold, chosen by leaving each source
  out of the records (:mod:`training.transfer`);
* ``kgqa train probability``: the chance of being right shown with an answer
  (:mod:`training.probability`);
* ``kgqa train device``: the validator's data packed for, and trained on, a lent
  accelerator (:mod:`training.device`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import replace

from cli.main import add_common, settings_from_args
from core.errors import KGQAError
from training.recipe import DEVICES, RecipeError, add_arguments, load_recipe


def _ranker(argv: list[str]) -> int:
    from training.ranker import train

    return train(argv)


def _gate(argv: list[str]) -> int:
    from training.transfer import main

    return main(argv)


def _probability(argv: list[str]) -> int:
    from training.probability import main

    return main(argv)


def _device(argv: list[str]) -> int:
    from training.device import main

    return main(argv)


JOBS: dict[str, tuple[Callable[[list[str]], int], str]] = {
    "ranker": (_ranker, "retrain the local backend's candidate ranker (assets/ranker.json)"),
    "gate": (_gate, "choose the gate's rank weight and threshold by leaving each source out"),
    "probability": (_probability, "fit the chance of being right shown with an answer"),
    "device": (_device, "pack the validator's data for a lent accelerator, train there, unpack"),
}
"""Sub-commands handed whole to a training function that parses its own flags
(``kgqa train JOB --help`` lists them); each imports its module only when it runs."""


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``train`` and its sub-commands to the CLI."""
    recipe = sub.add_parser("train", help="rebuild every shipped asset from one recipe (training/recipe.toml), "
                            "or run one training job (kgqa train JOB --help)")
    add_arguments(recipe)
    add_common(recipe)
    recipe.set_defaults(func=run_train)
    jobs = recipe.add_subparsers(dest="job", metavar="JOB")
    for name, (target, text) in JOBS.items():
        # no option of its own ("\0" prefixes none): every word after JOB is the function's
        job = jobs.add_parser(name, help=text, add_help=False, prefix_chars="\0")
        job.add_argument("argv", nargs="*")
        job.set_defaults(func=run_job, job_function=target)

    p = jobs.add_parser("validator", help="fine-tune the query validator and calibrate its gate")
    p.add_argument("--bench", nargs="*", help="QALD-JSON dev question files (default: every shared bench file)")
    p.add_argument("--work-dir", help="where candidates and balanced data go (default: <cache>/validator)")
    p.add_argument("--out", dest="validator_dir", help="where the shipped weights go (default: assets/validator)")
    p.add_argument("--recollect", action="store_true", help="run the backend again instead of reusing candidates")
    p.add_argument("--no-collect", dest="collect", action="store_false",
                   help="train on the cached candidates as they are (no backend run)")
    p.add_argument("--limit", type=int, help="only the first N questions of each file (smoke runs)")
    p.add_argument("--balance", choices=["down", "up"], default="up",
                   help="50/50 by down-sampling negatives, or by repeating positives")
    p.add_argument("--negatives-per-item", type=int, default=4,
                   help="keep at most N best-ranked negatives per question (default 4)")
    p.add_argument("--min-precision", type=float, default=0.9,
                   help="calibrate the gate for the best ATS among settings whose dev precision reaches this "
                        "(default 0.9: a margin over the 0.85 target for dev/test noise; 0 = plain ATS)")
    p.add_argument("--complex-boost", type=int, default=4,
                   help="keep every COUNT/ASK/ORDER BY/FILTER candidate of the train split and count its "
                        "positives N times (default 4; 1 = no special treatment)")
    p.add_argument("--no-synthetic", dest="synthetic", action="store_false",
                   help="no templated complex questions (training.synthetic) for training and the complex-shape "
                        "threshold")
    p.add_argument("--no-onehop", dest="onehop", action="store_false",
                   help="leave out the templated one-hop questions in every language (training.onehop)")
    p.add_argument("--calibrate-only", action="store_true",
                   help="no training: run the current backend on the dev/test questions (resumable; "
                        "--recollect starts over), score them with the shipped validator and rewrite the "
                        "gate (threshold, policy, rank weight) in config.json")
    p.add_argument("--init-from", help="start from this fine-tuned validator directory (its first --layers layers "
                                        "and its head; e.g. cut a deeper shipped validator to fewer layers)")
    p.add_argument("--layers", type=int, default=4, help="encoder layers kept from the base model")
    p.add_argument("--grow", action="store_true",
                   help="with --init-from shallower than --layers: its layers start the first ones, the base "
                        "model's the rest (a deeper validator from the shipped one)")
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--lr", type=float, default=1e-4)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--max-length", type=int, default=80, help="token budget of a (question, verbalization) pair")
    p.add_argument("--max-minutes", type=float, default=22.0, help="stop fine-tuning after this many minutes")
    p.add_argument("--seed", type=int, default=13)
    p.add_argument("--device", choices=DEVICES, default="cpu", help="where the validator trains (auto: CUDA if any)")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    add_common(p)
    p.set_defaults(func=run_train_validator)


def run_train_validator(args: argparse.Namespace) -> int:
    """Run every stage and print the validation and test figures."""
    from pathlib import Path

    from training.build import BuildOptions, calibrate_only, run
    from training.finetune import TrainConfig, resolve_device

    settings = settings_from_args(args)
    cfg = TrainConfig(layers=args.layers, epochs=args.epochs, lr=args.lr, batch_size=args.batch_size,
                      max_length=args.max_length, max_minutes=args.max_minutes, seed=args.seed,
                      init_from=args.init_from, grow=args.grow, device=args.device)
    opts = BuildOptions(bench_files=[Path(p) for p in args.bench or []],
                        work_dir=Path(args.work_dir) if args.work_dir else None,
                        out_dir=settings.validator_dir, recollect=args.recollect, train=cfg,
                        progress=not args.quiet, limit=args.limit, collect=args.collect,
                        balance=args.balance, negatives_per_item=args.negatives_per_item,
                        min_precision=args.min_precision or None, complex_boost=args.complex_boost,
                        synthetic=args.synthetic, onehop=args.onehop)
    stage = calibrate_only if args.calibrate_only else run
    try:
        if not args.calibrate_only:
            resolve_device(cfg.device)  # a device that is not there fails now, not after collecting
        report = stage(settings, opts, log=lambda line: print(line, file=sys.stderr, flush=True))
    except KGQAError as exc:
        print(f"kgqa train validator: error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps({"validation": report.get("validation"), "calibration": report["calibration"],
                      "test": {k: report["test"][k] for k in ("before", "after")}}, indent=1))
    return 0


def run_train(args: argparse.Namespace) -> int:
    """Run the recipe's steps; print each step's report."""
    from training.finetune import resolve_device
    from training.run import Workspace, run_recipe

    settings = settings_from_args(args)
    try:
        recipe = load_recipe(args.recipe)
        if args.device:
            recipe = replace(recipe, validator=replace(recipe.validator, device=args.device))
        if "validator" in recipe.steps and (not args.only or "validator" in args.only):
            resolve_device(recipe.validator.device)  # a device that is not there fails now, not after the ranker
        ws = Workspace(settings, bench_files=args.bench, work_dir=args.work_dir, progress=not args.quiet,
                       log=lambda line: print(line, file=sys.stderr, flush=True))
        reports = run_recipe(recipe, ws, only=args.only)
    except (RecipeError, OSError, KGQAError) as exc:
        print(f"kgqa train: error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(reports, indent=1, default=str))
    return 0


def run_job(args: argparse.Namespace) -> int:
    """Hand the rest of the command line to the job's training function."""
    return int(args.job_function(list(args.argv)) or 0)
