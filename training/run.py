"""Running the recipe (:mod:`training.recipe`): each step a function of the recipe and a
:class:`Workspace`, run in dependency order by :func:`run_recipe` (``kgqa train``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from backends.local.generator import LocalBackend
from core.settings import Settings
from qa.generate import Backend
from service.factory import make_backend, open_kg
from training.build import BuildOptions, bench_paths, run
from training.probability import build as build_answer_model
from training.probability import collect as collect_answers
from training.probability import read_records as read_answer_records
from training.probability import records_path as answer_records_path
from training.probability import score_gate as answer_score_gate
from training.ranker import collect as collect_candidates
from training.ranker import file_items, fit, fit_trees, recall_at
from training.recipe import STEPS, Recipe, RecipeError
from training.records import collect, read_records, records_path
from training.transfer import choose, sweep
from validator.config import read_config, write_config
from validator.probability import GATE_FILE


@dataclass
class Workspace:
    """Where a run reads and writes, and (tests) which backend and KG it uses."""

    settings: Settings
    bench_files: Sequence[Path] = ()
    work_dir: Path | None = None
    backend: Backend | None = None  # the answering backend (default: the configured one, rebuilt after the ranker)
    kg: Any = None
    ranker_backend: LocalBackend | None = None  # the local backend whose ranker is trained (default: from the settings)
    progress: bool = True
    log: Callable[[str], None] = print
    reports: dict[str, Any] = field(default_factory=dict)

    def bench(self) -> list[Path]:
        """The bench files (default: every shared bench file)."""

        return list(self.bench_files) or bench_paths()


def train_ranker(recipe: Recipe, ws: Workspace) -> dict[str, Any]:
    """Collect the local backend's candidates on the ``train`` split, fit, report ``dev``."""

    backend = ws.ranker_backend or _local_backend(ws)
    items = list(file_items(ws.bench()))
    train_items = [i for i in items if i.split == "train"]
    dev_items = [i for i in items if i.split == "dev"]
    if recipe.ranker.limit:
        train_items, dev_items = train_items[:recipe.ranker.limit], dev_items[:recipe.ranker.limit // 3]
    per = recipe.ranker.per_question
    train_rows = collect_candidates(backend, train_items, per_question=per, progress=ws.progress)
    dev_rows = collect_candidates(backend, dev_items, per_question=per, progress=ws.progress)
    ranker = fit_trees(train_rows) if recipe.ranker.model == "trees" else fit(train_rows)
    ranker.info = {"kind": "gradient_boosted_trees" if recipe.ranker.model == "trees" else "logistic_regression",
                   "label": "candidate answer set has F1 = 1 against gold", "train_items": len(train_rows),
                   "dev_recall@1": round(recall_at(dev_rows, ranker, 1), 4),
                   "dev_recall@1_before": round(recall_at(dev_rows, backend.ranker, 1), 4)}
    ranker.save(ws.settings.ranker_path)
    backend.ranker = ranker
    ws.log(f"ranker: {ws.settings.ranker_path} ({ranker.info})")
    return dict(ranker.info)


def train_validator(recipe: Recipe, ws: Workspace) -> dict[str, Any]:
    """Fine-tune the validator and calibrate its first gate (:func:`training.build.run`)."""

    v = recipe.validator
    opts = BuildOptions(bench_files=ws.bench(), work_dir=ws.work_dir, out_dir=ws.settings.validator_dir,
                        train=v.train_config(), progress=ws.progress, limit=v.limit or None, balance=v.balance,
                        negatives_per_item=v.negatives_per_item, min_precision=v.min_precision or None,
                        complex_boost=v.complex_boost, synthetic=v.synthetic, onehop=v.onehop,
                        backend=ws.backend or _backend(ws), kg=ws.kg)
    report = run(ws.settings, opts, log=ws.log)
    return {"validation": report["validation"], "calibration": report["calibration"]}


def collect_records(recipe: Recipe, ws: Workspace) -> dict[str, Any]:
    """Every bench string through the new backend and validator, from scratch."""

    path = records_path(ws.settings)
    path.unlink(missing_ok=True)  # records of an older validator or ranker would mislead the gate
    added = collect(ws.settings, path, synthetic=recipe.records.synthetic, limit=recipe.records.limit or None,
                    progress=ws.progress, kg=ws.kg, backend=ws.backend or _backend(ws), bench_files=ws.bench())
    ws.log(f"records: {added} strings in {path}")
    return {"records": added, "path": str(path)}


def choose_gate(recipe: Recipe, ws: Workspace) -> dict[str, Any]:
    """The rank weight and threshold whose worst left-out source keeps the target precision
    (written into ``config.json``); the validator's own calibration stays when none does."""

    settings = ws.settings
    config = read_config(settings.validator_dir)
    best = choose(sweep(read_records(records_path(settings)), config.complex_threshold),
                  recipe.gate.target_precision)
    if best is None:
        ws.log(f"gate: no rank weight and threshold keeps {recipe.gate.target_precision} on every left-out "
               f"source; config.json keeps the validator's own calibration")
        return {"chosen": None, "threshold": config.threshold, "rank_weight": config.rank_weight}
    extra = {**(config.extra or {}), "transfer": best.to_json()}
    write_config(replace(config, gate="mix", rank_weight=best.weight, threshold=best.threshold, extra=extra),
                 settings.validator_dir)
    ws.log(f"gate: {best.line()}")
    return {"chosen": best.to_json(), "threshold": best.threshold, "rank_weight": best.weight}


def fit_probability(recipe: Recipe, ws: Workspace) -> dict[str, Any]:
    """The gate's answer model (``gate.json``, :mod:`training.probability`): the bench's
    ``dev`` and ``test`` strings through the pipeline, its judged readings labelled, the
    logistic model fitted with each source left out for the threshold."""
    settings = ws.settings
    path = answer_records_path(settings)
    path.unlink(missing_ok=True)  # readings of an older validator or ranker would mislead the model
    collect_answers(settings, path, ws.bench(), kg=ws.kg, backend=ws.backend or _backend(ws))
    out = settings.validator_dir / GATE_FILE
    try:
        model = build_answer_model(read_answer_records(path), score_gate=answer_score_gate(settings))
    except ValueError as exc:  # too few right or wrong readings, or no model rises with the validator score
        ws.log(f"gate: no answer model ({exc}); the calibrated score gate of config.json decides")
        out.unlink(missing_ok=True)  # an older model would mislead
        return {"threshold": None}
    model.save(out)
    ws.log(f"gate: {out} (threshold {model.threshold}; test {model.info.get('test')})")
    return {"threshold": model.threshold, "path": str(out), "test": model.info.get("test")}


STEP_FUNCTIONS: dict[str, Callable[[Recipe, Workspace], dict[str, Any]]] = {
    "ranker": train_ranker, "validator": train_validator, "records": collect_records, "gate": choose_gate,
    "probability": fit_probability}


def run_recipe(recipe: Recipe, ws: Workspace, only: Sequence[str] = ()) -> dict[str, Any]:
    """Run the recipe's steps (or ``only`` those) in dependency order; returns each step's report."""
    if unknown := [s for s in only if s not in STEPS]:
        raise RecipeError(f"unknown steps {unknown}; the steps are {list(STEPS)}")
    for step in STEPS:
        if step in recipe.steps and (not only or step in only):
            ws.log(f"== {step}")
            ws.reports[step] = STEP_FUNCTIONS[step](recipe, ws)
    return ws.reports


def _local_backend(ws: Workspace) -> LocalBackend:

    ws.kg = ws.kg or open_kg(ws.settings)
    return LocalBackend.from_settings(ws.settings, ws.kg)


def _backend(ws: Workspace) -> Backend:
    """The configured backend, built now (so it reads the ranker a step before may have written)."""

    ws.kg = ws.kg or open_kg(ws.settings)
    return make_backend(ws.settings, ws.kg)


