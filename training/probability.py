"""Fit the gate's answer model (:mod:`validator.probability`)::

    nice kgqa train probability collect   # .cache/gate/records.jsonl (resumable)
    kgqa train probability fit            # assets/validator/gate.json (the default step)
    kgqa train probability extend         # the shipped model with the evidence of EXTENDED added

Collect: every string of the ``dev`` and ``test`` questions of every bench source goes
through the real pipeline (the language given, as ``kgqa evaluate`` gives it); the gate
stage is observed (:class:`Observed`) so the evidence on each of the first readings the
validator judged is recorded, and each of those readings is labelled by executing it:
right when it returns a non-empty answer set with F1 = 1 against the gold (an unanswerable
question has no right reading).  What the shipped pipeline itself answered is recorded
too: it is the baseline the new gate is measured against.

Fit: a logistic regression (scikit-learn) of right/wrong on :func:`validator.probability.features`
over the judged readings of the ``dev`` strings.  Threshold: for each bench source in turn
the model is refitted without it and read on its ``dev`` strings; the gate keeps each
string's most probable reading and shows it when it reaches the threshold and returns
answers.  The lowest threshold at which every left-out source's precision reaches
:data:`TARGET_PRECISION` is shipped with the model fitted on every source.  The ``test``
strings are only read: per source, as the shipped model and threshold would answer them.

Extend: evidence added after the fit (:data:`EXTENDED`: ``worded``) gets one weight, the
maximum-likelihood one on the ``dev`` strings with the fitted model's log-odds held as an
offset, and the threshold stays: readings without the evidence keep their probability, so
what it adds is read off ``info["extended"]`` (each source left out: its ``dev`` strings before
and after).  ``fit`` extends the model it chose; ``extend`` extends the shipped one.

The shipped gate falls back on the calibrated score gate of ``config.json`` where no
probability reaches the threshold (:class:`validator.gate.LearnedGate`); ``fit`` also reports
the left-out figures of that whole gate (``left_out_with_score_gate``) and of the score gate
alone (``score_gate_alone``), so what the model adds over it is read off the asset.  Every
model tried must give a probability that never falls as the validator score rises, the rest of
the evidence held (:func:`monotone_in_validator`); one that does not is not shipped.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from core.settings import DEFAULT_BENCH_DIR, Settings, load_settings
from evaluation.formats import load_datasets
from evaluation.harness import EvalItem, gold_values, select_items
from evaluation.splits import split_of
from qa.candidate import COMPLEX_SHAPES, Link
from qa.gate import Decision, Gate, Reading
from training.data import execute_candidate
from validator.gate import GatePolicy, backend_rank_weight
from validator.probability import GATE_FILE, JUDGED, AnswerModel, features, load_answer_model

TARGET_PRECISION = 0.92
"""The precision every left-out source must reach at the shipped threshold."""
MIN_SHOWN = 20
"""A left-out source showing fewer answers than this does not constrain the threshold alone (one
wrong answer among a dozen is noise)."""
MIN_POOLED = 5
"""All the left-out sources together constrain the threshold from this many shown answers."""
SOURCES = ("sqwd", "wwq", "rubq1", "mintaka")
RECORDS = "records.jsonl"
C = 1.0
"""The logistic regression's inverse regularization (the default; :func:`build` chooses)."""
LEAN = ("validator_logit", "validator_margin", "backend", "backend_margin", "rank_log", "link_min", "link_fuzzy")
FOREIGN = ("foreign", "validator_logit_foreign", "backend_foreign")
"""The validator's and the backend's scores weighed apart on a question not in English (the
backend's ranker is weaker there), one feature for every such language."""
FEATURE_SETS: dict[str, tuple[str, ...] | None] = {
    "scores": ("validator_logit", "backend", "validator_margin", "backend_margin"),
    "lean": LEAN,
    "lean+shape+lang": (*LEAN, "shape=", "lang="),
    "lean+foreign": (*LEAN, *FOREIGN),
    "lean+foreign+agree": (*LEAN, *FOREIGN, "agree"),
    "all": None,
}
"""The evidence each candidate model reads (a name ending in ``=``: every indicator of that
kind; ``None``: every feature); :func:`build` keeps the one that answers most on the left-out
sources at the target precision."""
CS = (1.0, 0.1)


@dataclass
class Record:
    """One question string: the evidence on each judged reading and whether it is right."""

    id: str
    source: str
    lang: str
    split: str
    answerable: bool
    text: str
    features: list[dict[str, float]] = field(default_factory=list)
    right: list[bool] = field(default_factory=list)
    n_answers: list[int] = field(default_factory=list)
    answered: bool = False  # what the pipeline collecting it showed (the baseline)
    correct: bool = False
    withheld_by: str | None = None
    latency_ms: float = 0.0


class Observed:
    """A gate that decides as ``inner`` does and keeps the readings it was asked about, and
    judges at least the first ``judged`` readings (to record their evidence)."""

    def __init__(self, inner: Gate, judged: int = JUDGED) -> None:
        self.inner = inner
        self.judged = max(judged, inner.judged)
        self.readings: list[Reading] = []

    def reachable(self, backend_score: float, threshold: float, complex_shape: bool = False) -> bool:
        return self.inner.reachable(backend_score, threshold, complex_shape)

    def decide(self, readings: Sequence[Reading], threshold: float) -> Decision:
        self.readings = list(readings)
        return self.inner.decide(readings, threshold)


def records_path(settings: Settings) -> Path:
    """Where :func:`collect` writes the records."""
    return Path(settings.cache_dir) / "gate" / RECORDS


def read_records(path: Path) -> list[Record]:
    """Every record of a JSONL file."""
    if not path.exists():
        return []
    with path.open(encoding="utf-8") as handle:
        records = [Record(**json.loads(line)) for line in handle if line.strip()]
    return list({(r.id, r.lang): r for r in records}.values())  # one per string


def bench_items(bench: Path | Sequence[Path], splits: Sequence[str] = ("dev", "test"),
                per_source: dict[str, int] | None = None) -> list[EvalItem]:
    """Every string of the bench questions in ``splits`` (``bench``: a folder of bench files, or
    the files); ``per_source[split]``: at most that many questions of each source in that
    split (a deterministic sample, every string of each)."""
    files = sorted(Path(bench).glob("*.json")) if isinstance(bench, Path) else list(bench)
    datasets = load_datasets(files)
    limits = per_source or {}
    return [it for split in splits for it in select_items(datasets, lang="all", split=split, limit=limits.get(split))]


def record_for(item: EvalItem, pipeline: Any, observed: Observed) -> Record:
    """Answer one item through ``pipeline`` (the language given) and label its judged readings."""
    gold = gold_values(item.question)
    observed.readings = []
    turn = pipeline.answer(item.text, item.lang, question_lang=item.lang)
    record = Record(item.id, item.id.split(":", 1)[0], item.lang, split_of(item.id),
                    item.question.kind != "unanswerable" and bool(gold), item.text, answered=bool(turn.answered),
                    withheld_by=turn.withheld_by, latency_ms=float(turn.timings_ms.get("total", 0.0)))
    if turn.answered and turn.sparql:
        f1, n, _err = execute_candidate(pipeline.kg, turn.sparql, gold, timeout_s=5.0)
        record.correct = bool(gold) and n > 0 and f1 == 1.0
    judged = [r if r.rank < JUDGED else replace(r, validator_score=None) for r in observed.readings]
    for i, reading in enumerate(judged):  # as the learned gate judges: the first JUDGED readings
        if reading.validator_score is None:
            continue
        f1, n, _err = execute_candidate(pipeline.kg, turn.candidates[i].sparql, gold, timeout_s=5.0)
        record.features.append({k: round(v, 5) for k, v in features(judged, i).items()})
        record.right.append(bool(gold) and n > 0 and f1 == 1.0)
        record.n_answers.append(n)
    return record


def collect(settings: Settings, out: Path, bench: Path | Sequence[Path], *, limit: int | None = None,
            splits: Sequence[str] = ("dev", "test"), per_source: dict[str, int] | None = None,
            kg: Any = None, backend: Any = None) -> int:
    """Append a record for every bench string of ``splits`` not yet in ``out`` (``bench``: a
    folder of bench files, or the files; ``kg``, ``backend``: the pipeline's, default the
    configured ones)."""
    from service.factory import build_pipeline

    pipeline = build_pipeline(settings, kg=kg, backend=backend, require_validator=True)
    assert pipeline.validation is not None
    observed = Observed(pipeline.validation.gate)
    pipeline.validation = replace(pipeline.validation, gate=observed)
    items = bench_items(bench, splits, per_source)
    items = items[:limit] if limit else items
    done = {(r.id, r.lang) for r in read_records(out)}
    todo = [it for it in items if (it.id, it.lang) not in done]
    out.parent.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    with out.open("a", encoding="utf-8") as sink:
        for n, item in enumerate(todo, 1):
            sink.write(json.dumps(asdict(record_for(item, pipeline, observed)), ensure_ascii=False) + "\n")
            sink.flush()
            if n % 50 == 0:
                print(f"{n}/{len(todo)} strings, {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    return len(todo)


# --------------------------------------------------------------------------- fitting


def matrix(records: Sequence[Record], names: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Features and labels of every judged reading of ``records``."""
    rows = [[f.get(n, 0.0) for n in names] for r in records for f in r.features]
    labels = [y for r in records for y in r.right]
    return np.asarray(rows, dtype=np.float64).reshape(len(labels), len(names)), np.asarray(labels, dtype=np.int64)


def feature_names(records: Sequence[Record], min_count: int = 20,
                  keep: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """Every feature of the records (of ``keep``, when given); an indicator (``shape=``,
    ``lang=``) only when at least ``min_count`` readings carry it."""
    counts: dict[str, int] = {}
    for r in records:
        for f in r.features:
            for k, v in f.items():
                counts[k] = counts.get(k, 0) + (1 if v else 0)
    known = set(features([Reading(0.5, 0.5, 0)], 0))  # the evidence :func:`features` names now
    names = sorted(k for k, c in counts.items() if ("=" not in k and k in known) or ("=" in k and c >= min_count))
    if keep is not None:
        names = [n for n in names if n in keep or ("=" in n and n.split("=")[0] + "=" in keep)]
    return tuple(names)


def fit(records: Sequence[Record], threshold: float = 0.5, info: dict[str, Any] | None = None, *,
        keep: tuple[str, ...] | None = None, c: float = C) -> AnswerModel:
    """The logistic regression of right/wrong over the judged readings of ``records`` (over the
    features ``keep`` names, all by default; ``c``: inverse regularization)."""
    from sklearn.linear_model import LogisticRegression

    names = feature_names(records, keep=keep)
    x, y = matrix(records, names)
    if len(set(y.tolist())) < 2:
        raise ValueError("the records hold no right or no wrong reading: nothing to fit")
    means = x.mean(axis=0)
    scales = x.std(axis=0)
    scales[scales < 1e-6] = 1.0
    model = LogisticRegression(C=c, max_iter=2000).fit((x - means) / scales, y)
    return AnswerModel(names, tuple(round(float(v), 6) for v in means), tuple(round(float(v), 6) for v in scales),
                       tuple(round(float(v), 6) for v in model.coef_[0]), round(float(model.intercept_[0]), 6),
                       threshold, JUDGED, dict(info or {}))


@dataclass(frozen=True)
class Shown:
    """What the gate does for one string at no threshold: the kept reading's probability and
    whether showing it is right (``None``: it returns nothing, so the pipeline abstains)."""

    probability: float
    right: bool | None
    answerable: bool
    fallback: bool | None = None  # the score gate's kept reading is right (None: none kept, or it returns nothing)


ScoreGate = tuple[GatePolicy, float]
"""The calibrated score gate the learned gate falls back on, and its threshold."""


def score_gate_choice(named: Sequence[dict[str, float]], score_gate: ScoreGate) -> int | None:
    """The judged reading the score gate keeps, read from the recorded evidence (validator and
    backend score, shape)."""
    policy, threshold = score_gate
    complex_mask = [any(v and k.startswith("shape=") and k[6:] in COMPLEX_SHAPES for k, v in f.items())
                    for f in named]
    return policy.choose([f.get("backend", 0.0) for f in named], [f.get("validator", 0.0) for f in named],
                         threshold, complex_mask)


def shown(model: AnswerModel, records: Sequence[Record], score_gate: ScoreGate | None = None) -> list[Shown]:
    """Per string with a judged reading, the most probable one (and, with ``score_gate``,
    whether the reading that gate keeps is right)."""
    out = []
    for r in records:
        if not r.features:
            continue
        ps = [model.probability(f) for f in r.features]
        best = max(range(len(ps)), key=lambda i: (ps[i], -i))
        kept = None if score_gate is None else score_gate_choice(r.features, score_gate)
        out.append(Shown(ps[best], None if r.n_answers[best] == 0 else r.right[best], r.answerable,
                         None if kept is None or r.n_answers[kept] == 0 else r.right[kept]))
    return out


def figures(items: Sequence[Shown], threshold: float, with_fallback: bool = False) -> dict[str, Any]:
    """Right, wrong and precision of what is shown at ``threshold`` (``with_fallback``: below
    it, what the score gate keeps is shown)."""
    said = [s.right if s.probability >= threshold else s.fallback if with_fallback else None for s in items]
    right = sum(1 for v in said if v is True)
    wrong = sum(1 for v in said if v is False)
    return {"right": right, "wrong": wrong, "n": len(items),
            "precision": round(right / (right + wrong), 4) if right + wrong else None}


def baseline(records: Sequence[Record]) -> dict[str, Any]:
    """What the collecting pipeline (the gate shipped before) answered."""
    right = sum(1 for r in records if r.answered and r.correct)
    wrong = sum(1 for r in records if r.answered and not r.correct)
    return {"right": right, "wrong": wrong, "n": len(records),
            "precision": round(right / (right + wrong), 4) if right + wrong else None}


def left_out(records: Sequence[Record], keep: tuple[str, ...] | None = None, c: float = C,
             score_gate: ScoreGate | None = None) -> dict[str, list[Shown]]:
    """Per source: its ``dev`` strings as read by the model fitted on the other sources' ``dev``."""
    dev = [r for r in records if r.split == "dev"]
    return {s: shown(fit([r for r in dev if r.source != s], keep=keep, c=c), [r for r in dev if r.source == s],
                     score_gate) for s in SOURCES if any(r.source == s for r in dev)}


MONOTONE_GRID = (0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.97, 0.99, 0.995, 0.999)
"""The validator scores :func:`monotone_in_validator` walks through."""


def monotone_in_validator(model: AnswerModel, grid: Sequence[float] = MONOTONE_GRID) -> bool:
    """Whether the model's probability for a reading never falls as its validator score rises
    along ``grid``, for each of a set of evidence profiles held fixed (backend score and rank,
    the other reading's validator score, link score and kind; a plain reading of an English
    question and of one in another language)."""
    for b, rank, other, link, kind, lang in ((b, rank, o, lk, k, la) for b in (0.0, 0.3, 0.6, 1.0)
                                             for rank in (0, 1, 4) for o in (0.0, 0.5, 0.99) for lk in (0.4, 0.9)
                                             for k in ("label", "fuzzy") for la in ("en", "ja")):
        links = (Link("Q1", "x", "x", kind, link),)
        previous = -1.0
        for v in grid:
            readings = [Reading(v, b, rank, "plain", False, lang, links),
                        Reading(other, 0.5, 1 if rank == 0 else 0, lang=lang)]
            p = model.probability(features(readings, 0))
            if p < previous - 1e-9:
                return False
            previous = p
    return True


def holds(per_source: dict[str, list[Shown]], t: float, target: float) -> bool:
    """Whether at threshold ``t`` every left-out source showing at least :data:`MIN_SHOWN`
    answers, and all of them together (from :data:`MIN_POOLED`), reach ``target`` precision."""
    pooled = figures([s for items in per_source.values() for s in items], t)
    if pooled["right"] + pooled["wrong"] >= MIN_POOLED and pooled["precision"] < target:
        return False
    for items in per_source.values():
        f = figures(items, t)
        if f["right"] + f["wrong"] >= MIN_SHOWN and f["precision"] < target:
            return False
    return True


def choose_threshold(per_source: dict[str, list[Shown]], target: float = TARGET_PRECISION) -> float:
    """The lowest threshold down to which precision holds (:func:`holds`) at every threshold
    from the top: lowering it further would let a left-out source fall below ``target``."""
    grid = sorted({round(s.probability, 4) for items in per_source.values() for s in items} | {0.5, 0.99},
                  reverse=True)
    chosen = 0.99
    for t in grid:
        if t > 0.99:
            continue
        if not holds(per_source, t, target):
            break
        chosen = t
    return float(chosen)


def build(records: Sequence[Record], target: float = TARGET_PRECISION,
          score_gate: ScoreGate | None = None) -> AnswerModel:
    """The shipped model: of :data:`FEATURE_SETS` and :data:`CS`, the one that shows most right
    answers on the left-out sources at its left-out threshold (:func:`choose_threshold`), fitted
    on every source's ``dev`` strings at that threshold; the left-out and ``test`` figures (and
    what the gate of the collecting pipeline answered on ``test``) are in its ``info``, and with
    ``score_gate`` (the gate it falls back on) the left-out figures of both together and of the
    score gate alone.  A variant whose probability falls as the validator score rises anywhere
    (:func:`monotone_in_validator`, fitted on every source) is not chosen."""
    tried: dict[str, dict[str, Any]] = {}
    best: tuple[int, int, str, float, float, dict[str, list[Shown]]] | None = None
    dev = [r for r in records if r.split == "dev"]
    for name, keep in FEATURE_SETS.items():
        for c in CS:
            per_source = left_out(records, keep, c, score_gate)
            threshold = round(choose_threshold(per_source, target), 4)
            total = figures([s for items in per_source.values() for s in items], threshold)
            monotone = monotone_in_validator(fit(dev, keep=keep, c=c))
            tried[f"{name} C={c}"] = {"threshold": threshold, "right": total["right"], "wrong": total["wrong"],
                                      "monotone": monotone}
            key = (total["right"] - total["wrong"], -total["wrong"])
            if monotone and (best is None or key > best[:2]):
                best = (*key, name, c, threshold, per_source)
    if best is None:
        raise ValueError("no model's probability rises with the validator score")
    _, _, name, c, threshold, per_source = best
    dev = [r for r in records if r.split == "dev"]
    model = fit(dev, threshold, keep=FEATURE_SETS[name], c=c)
    test = [r for r in records if r.split == "test"]
    info: dict[str, Any] = {
        "fitted_on": f"{sum(len(r.right) for r in dev)} judged readings of {len(dev)} dev strings",
        "features": name, "C": c, "target_precision": target, "tried": tried,
        "left_out": {s: figures(items, threshold) for s, items in per_source.items()},
        "test": {s: figures(shown(model, [r for r in test if r.source == s]), threshold) for s in SOURCES},
        "test_before": {s: baseline([r for r in test if r.source == s]) for s in SOURCES},
    }
    if score_gate is not None:
        info["left_out_with_score_gate"] = {s: figures(items, threshold, True) for s, items in per_source.items()}
        info["score_gate_alone"] = {s: figures(items, 2.0, True) for s, items in per_source.items()}
    return extend(replace(model, info=info), records, score_gate=score_gate)


EXTENDED = ("worded",)
"""Evidence added to a fitted model one piece at a time (:func:`extend`), its weight fitted with
the model's own held: ``worded``, the backend read every word of the question
(:attr:`qa.candidate.Candidate.worded`)."""
MAX_EXTENDED_WEIGHT = 5.0


def extended_weight(model: AnswerModel, records: Sequence[Record], name: str) -> float:
    """The weight of the 0/1 evidence ``name`` added to ``model`` that makes the judged readings
    of ``records`` most likely, the model's own weights, intercept and threshold held (a
    logistic regression with the model's log-odds as its offset), in
    ±:data:`MAX_EXTENDED_WEIGHT`."""
    from scipy.optimize import minimize_scalar

    rows = [(model.log_odds(f), float(f.get(name, 0.0)), y) for r in records for f, y in zip(r.features, r.right,
                                                                                           strict=True)]
    if not any(x for _, x, _ in rows):
        return 0.0
    offsets, xs, ys = (np.asarray(col, dtype=np.float64) for col in zip(*rows, strict=True))

    def loss(w: float) -> float:
        z = np.clip(offsets + w * xs, -60.0, 60.0)
        return float(np.sum(np.logaddexp(0.0, z) - ys * z))

    return float(minimize_scalar(loss, bounds=(-MAX_EXTENDED_WEIGHT, MAX_EXTENDED_WEIGHT), method="bounded").x)


def with_evidence(model: AnswerModel, name: str, weight: float) -> AnswerModel:
    """``model`` with the 0/1 evidence ``name`` at ``weight`` (replacing its weight if it has it)."""
    keep = [i for i, n in enumerate(model.names) if n != name]
    return replace(model, names=(*[model.names[i] for i in keep], name),
                   means=(*[model.means[i] for i in keep], 0.0), scales=(*[model.scales[i] for i in keep], 1.0),
                   weights=(*[model.weights[i] for i in keep], round(weight, 6)))


def extend(model: AnswerModel, records: Sequence[Record], names: Sequence[str] = EXTENDED,
           score_gate: ScoreGate | None = None) -> AnswerModel:
    """``model`` with each piece of evidence of ``names`` added, its weight fitted on the ``dev``
    strings (:func:`extended_weight`) and the threshold unchanged.  ``info["extended"]`` says,
    per piece: the weight, and, for each source left out (its weight fitted on the other sources'
    ``dev`` strings), what its ``dev`` strings show before and after at the threshold (with
    ``score_gate``, the gate it falls back on, below it)."""
    dev = [r for r in records if r.split == "dev"]
    info = dict(model.info)
    extended = dict(info.get("extended", {}))
    for name in names:
        weight = extended_weight(model, dev, name)
        per_source = {}
        for source in sorted({r.source for r in dev}):
            own = [r for r in dev if r.source == source]
            out = with_evidence(model, name, extended_weight(model, [r for r in dev if r.source != source], name))
            per_source[source] = {
                "before": figures(shown(model, own, score_gate), model.threshold, score_gate is not None),
                "after": figures(shown(out, own, score_gate), model.threshold, score_gate is not None)}
        model = with_evidence(model, name, weight)
        extended[name] = {"weight": round(weight, 6), "fitted_on": f"{len(dev)} dev strings",
                          "left_out": per_source}
    info["extended"] = extended
    return replace(model, info=info)


def score_gate(settings: Settings) -> ScoreGate | None:
    """The calibrated score gate of the validator's ``config.json`` (``None`` without one)."""
    from core.errors import ModelLoadError
    from validator.config import read_config

    try:
        config = read_config(settings.validator_dir)
        policy = GatePolicy(config.gate, backend_rank_weight(config.rank_weight, settings.backend),
                            config.complex_threshold)
        return policy, config.threshold
    except (ModelLoadError, ValueError):
        return None


def main(argv: Sequence[str] | None = None) -> int:
    """``collect`` the records, or ``fit`` and save the model."""
    parser = argparse.ArgumentParser(prog="kgqa train probability")
    parser.add_argument("step", nargs="?", choices=("collect", "fit", "extend"), default="fit")
    parser.add_argument("--records", type=Path, default=None, help="default: <cache>/gate/records.jsonl")
    parser.add_argument("--bench", type=Path, default=DEFAULT_BENCH_DIR)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--splits", nargs="+", default=["dev", "test"], help="collect these splits' strings")
    parser.add_argument("--per-source", type=int, default=None,
                        help="at most this many questions of each source per split (a deterministic sample)")
    parser.add_argument("--target", type=float, default=TARGET_PRECISION)
    parser.add_argument("--out", type=Path, default=None, help="default: <validator dir>/gate.json")
    args = parser.parse_args(argv)
    settings = load_settings(os.environ)
    path = args.records or records_path(settings)
    if args.step == "collect":
        per_source = {split: args.per_source for split in args.splits} if args.per_source else None
        added = collect(settings, path, args.bench, limit=args.limit, splits=args.splits, per_source=per_source)
        print(f"collected {added} strings into {path}")
        return 0
    records = read_records(path)
    if not records:
        print(f"no records at {path}: run kgqa train probability collect first", file=sys.stderr)
        return 1
    out = args.out or settings.validator_dir / GATE_FILE
    if args.step == "extend":
        shipped = load_answer_model(settings.validator_dir / GATE_FILE)
        if shipped is None:
            print(f"no answer model at {settings.validator_dir / GATE_FILE}: run kgqa train probability fit",
                  file=sys.stderr)
            return 1
        model = extend(shipped, records, score_gate=score_gate(settings))
        model.save(out)
        for name, figs in model.info["extended"].items():
            print(f"wrote {out}: {name} weight {figs['weight']} ({figs['fitted_on']})")
            for source, both in figs["left_out"].items():
                print(f"  left out {source:8s} before {both['before']}  after {both['after']}")
        return 0
    model = build(records, args.target, score_gate(settings))
    model.save(out)
    print(f"wrote {out}: threshold {model.threshold}, features {model.info['features']}, C {model.info['C']}")
    for variant, figs in model.info["tried"].items():
        print(f"  tried {variant:22s} {figs}")
    for key in ("left_out", "left_out_with_score_gate", "score_gate_alone", "test", "test_before"):
        for source, figs in model.info.get(key, {}).items():
            print(f"  {key:12s} {source:8s} {figs}")
    return 0

