"""One evaluation run: answer every item, then write answers, metrics, plots and report.

Files written to the output directory:

* ``answers.<lang>.json`` — system answers in QALD-JSON keyed by the benchmark ids
  (``answers.<lang>.no_validator.json`` for the comparison run);
* ``metrics.json`` — the stable metrics contract (see :mod:`evaluation.report`);
* ``report.md`` with ``ranking.png`` and ``ats_by_language.png``;
* ``items.jsonl`` — one record per item, for error analysis.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from evaluation.harness import EvalItem, run_items
from evaluation.markdown import write_report
from evaluation.plots import write_plots
from evaluation.report import build_metrics, write_answers, write_items, write_metrics
from qa.pipeline import Pipeline

MODES = ("validator", "no_validator", "compare")


def evaluate(
    pipeline: Pipeline,
    items: Sequence[EvalItem],
    out_dir: Path,
    *,
    mode: str = "validator",
    config: dict[str, Any] | None = None,
    progress: bool = True,
    detect_lang: bool = False,
) -> dict[str, Any]:
    """Run ``items`` through ``pipeline`` and write the run's files; returns ``metrics.json``'s object.

    ``mode``: ``validator`` (as the chat runs), ``no_validator`` (top backend candidate), or
    ``compare`` (both; the validator run is the primary, the other goes under
    ``without_validator``).
    """
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; expected one of {MODES}")
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    started_at = datetime.now(UTC).isoformat(timespec="seconds")
    primary = run_items(pipeline, items, use_validator=mode != "no_validator", progress=progress,
                        detect_lang=detect_lang)
    other = None
    if mode == "compare":
        other = run_items(pipeline, items, use_validator=False, progress=progress, desc="evaluate (no validator)",
                          detect_lang=detect_lang)
    cfg = dict(config or {})
    cfg.update({
        "mode": mode,
        "validator": "off" if mode == "no_validator" else pipeline.validator_state,
        "threshold": pipeline.threshold,
        "backend": cfg.get("backend") or pipeline.backend.name,
        "kg": pipeline.kg.name,
        "items": len(items),
        "questions": len({i.id for i in items}),
        "started": started_at,
        "elapsed_s": round(time.monotonic() - started, 1),
    })
    metrics = build_metrics(primary, cfg)
    other_metrics = build_metrics(other) if other is not None else None
    if other_metrics is not None:
        metrics["without_validator"] = other_metrics
    write_answers(primary, out_dir)
    write_items(primary, out_dir / "items.jsonl")
    if other is not None:
        write_answers(other, out_dir, ".no_validator")
        write_items(other, out_dir / "items.no_validator.jsonl")
    write_metrics(metrics, out_dir / "metrics.json")
    plots = write_plots(metrics, out_dir, other_metrics)
    write_report(metrics, plots, out_dir / "report.md", other_metrics)
    return metrics
