"""Training and calibration of the answer confidence (an experiment not wired into the pipeline:
:mod:`training.confidence_model`)::

    nice .venv/bin/python -m training.confidence collect   # .cache/answer_confidence/records.jsonl (resumable)
    .venv/bin/python -m training.confidence train           # assets/validator/confidence.json

Collect: every language string of every bench question (and the templated complex
questions) goes through the real backend with the language detected as the chat detects
it; the first ``k`` candidates are executed, typed and scored by the shipped cross-encoder
exactly as the pipeline's confidence stage does, and labelled by executing them in full
(right: a non-empty answer set with F1 = 1 against the gold).

Train: gradient-boosted trees on the ``train`` split's candidates, a Platt calibration on the
``dev`` split (the cross-encoder never saw those questions).  The threshold comes from
leaving one source out: for a precision floor ``f`` the threshold is the lowest at which
the *other* sources' ``dev`` questions reach ``f``; applied to the left-out source (all its
questions; the trees are refitted without it) it gives that source's precision.  The floor
whose worst left-out precision reaches :data:`TARGET_PRECISION` with the most correct
answers is shipped, its threshold set on every source's ``dev`` questions.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from backends.local.lexicon import default_lexicon
from backends.local.ranker import TreeRanker
from core.errors import BackendError
from core.settings import VALIDATOR_DIR, Settings, load_settings
from evaluation.formats import load_datasets
from evaluation.harness import EvalItem, gold_values, select_items
from qa.detect import detect_language
from service.factory import make_backend, open_kg
from training import onehop
from training.build import ONEHOP_PER_SPLIT, bench_paths, written_test_entities
from training.confidence_model import CONFIDENCE_PATH, TOP_K, VALIDATOR_FEATURES, AnswerConfidence, ConfidenceModel
from training.data import execute_candidate, item_split
from training.synthetic import DATASET as SYNTHETIC
from training.synthetic import generate, load_facts, mentions_gold, to_items
from validator.model import read_config
from validator.runtime import load_encoder
from validator.verbalize import Verbalizer

RECORDS = "records.jsonl"
IGNORED_PREFIXES = ("lang_",)
MIN_COMPLEX_EVIDENCE = 10
JUDGED = ("sqwd", "wwq", "rubq1", "mintaka")
TARGET_PRECISION = 0.92
SOURCES = ("sqwd", "wwq", "rubq1", "mintaka", SYNTHETIC)
FLOORS = tuple(round(x, 3) for x in np.arange(0.80, 1.0001, 0.01))


@dataclass
class Record:
    """One question string: the first candidates' features and whether each is right."""

    id: str
    source: str
    lang: str  # the string's language in the bench file
    detected: str  # the language the pipeline detected (and used)
    split: str
    answerable: bool
    text: str
    rows: list[dict[str, float]] = field(default_factory=list)
    correct: list[bool] = field(default_factory=list)
    n_answers: list[int] = field(default_factory=list)
    seconds: float = 0.0
    answer_keys: list[str] = field(default_factory=list)  # per candidate: a digest of its answer set ("" none)


def records_path(settings: Settings) -> Path:
    """Where :func:`collect` writes the records (the cache's ``answer_confidence/records.jsonl``)."""
    return Path(settings.cache_dir) / "answer_confidence" / RECORDS


def gate_inputs(record: Record) -> tuple[list[float], list[float], list[bool]]:
    """What the shipped gate reads of a record's candidates: validator scores, backend
    scores and which have a complex shape."""
    return ([row.get("v_score", 0.0) for row in record.rows], [row.get("backend", 0.0) for row in record.rows],
            [row.get("shape_plain", 1.0) == 0.0 for row in record.rows])


def read_records(path: Path) -> list[Record]:
    """Every record of a JSONL file."""
    if not path.exists():
        return []
    with path.open(encoding="utf-8") as handle:
        return [Record(**json.loads(line)) for line in handle if line.strip()]


def _source(item: EvalItem) -> str:
    return item.dataset if item.dataset == SYNTHETIC else item.id.split(":", 1)[0]


def collect(settings: Settings, out: Path, *, synthetic: bool = True, limit: int | None = None,
            progress: bool = True, kg: Any = None, backend: Any = None,
            bench_files: Sequence[Path] | None = None) -> int:
    """Append a record for every item not yet in ``out``; returns how many were added.
    ``kg``, ``backend`` and ``bench_files`` default to the configured ones."""
    import torch
    from tqdm import tqdm


    torch.set_num_threads(1)
    kg = kg or open_kg(settings)
    backend = backend or make_backend(settings, kg)
    encoder, _ = load_encoder(settings.validator_dir, settings.model_dir)
    placeholder = ConfidenceModel(TreeRanker((), 0.0, []), k=TOP_K, uses_validator=True)
    lexicon = default_lexicon(Path(settings.lexicon_path))
    stage = AnswerConfidence(kg, placeholder, lexicon, scorer=encoder,
                             verbalize=Verbalizer(kg, names=lexicon, timeout_s=5.0))
    items = select_items(load_datasets(list(bench_files or bench_paths())), lang="all")
    random.Random(13).shuffle(items)
    if synthetic:
        templated = to_items(kg, generate(load_facts(kg, written_test_entities()), seed=13))
        templated += to_items(kg, onehop.build(kg, per_split=ONEHOP_PER_SPLIT, seed=13))  # every language
        random.Random(13).shuffle(templated)
        items += templated
    items = items[:limit] if limit else items
    done = {(r.id, r.lang) for r in read_records(out)}
    todo = [it for it in items if (it.id, it.lang) not in done]
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("a", encoding="utf-8") as sink:
        for item in tqdm(todo, desc="confidence records", disable=not progress, unit="q"):
            sink.write(json.dumps(asdict(record_for(item, backend, kg, stage)), ensure_ascii=False) + "\n")
            sink.flush()
    return len(todo)


def record_for(item: EvalItem, backend: Any, kg: Any, stage: AnswerConfidence) -> Record:
    """Run one item as the pipeline does and label its first candidates."""
    t0 = time.perf_counter()
    lang = detect_language(item.text)
    record = Record(item.id, _source(item), item.lang, lang, item_split(item),
                    item.question.kind != "unanswerable", item.text)
    try:
        candidates = backend.ask(item.text, lang)
    except BackendError:
        candidates = []
    ev = stage.evidence(item.text, lang, candidates)
    gold = gold_values(item.question)
    for cand, kind in zip(candidates, ev.kinds, strict=False):
        f1, n, _err = execute_candidate(kg, cand.sparql, gold, timeout_s=5.0) if kind.n else (0.0, 0, None)
        ok = n > 0 and f1 == 1.0 and (item.dataset != SYNTHETIC or mentions_gold(cand.sparql,
                                                                                  item.question.sparql or ""))
        record.correct.append(ok)
        record.n_answers.append(n)
    record.rows = [{k: round(v, 5) for k, v in row.items()} for row in ev.rows]
    record.answer_keys = [answer_key(kind.values) if kind.n else "" for kind in ev.kinds]
    record.seconds = round(time.perf_counter() - t0, 3)
    return record


def answer_key(values: Iterable[str]) -> str:
    """A short digest of an answer set (which candidates agree, without storing the answers)."""
    return hashlib.sha1("\n".join(sorted(values)).encode("utf-8")).hexdigest()[:12]


# --------------------------------------------------------------------------- fitting


def complex_rows(record: Record) -> Record:
    """A templated question's record reduced to its complex-shape candidates: the templates'
    simple one-hop phrasings are easier than real questions, and would teach the model to
    trust simple candidates too much; their complex candidates are what they are for."""
    keep = [i for i, row in enumerate(record.rows) if row.get("shape_plain", 1.0) == 0.0]
    return replace(record, rows=[record.rows[i] for i in keep], correct=[record.correct[i] for i in keep],
                   n_answers=[record.n_answers[i] for i in keep])


def training_records(records: Sequence[Record]) -> list[Record]:
    """Bench records as they are, templated ones reduced by :func:`complex_rows`."""
    return [complex_rows(r) if r.source == SYNTHETIC else r for r in records]


def feature_names(records: Sequence[Record], *, validator: bool) -> tuple[str, ...]:
    """Every feature the records carry but the question's language (most non-English
    strings come from one source, Mintaka, whose questions the backend rarely answers: the
    model would learn the source, not the language), and without the cross-encoder's
    scores unless ``validator``."""
    names: set[str] = set()
    for r in records:
        for row in r.rows:
            names.update(k for k in row if not k.startswith(IGNORED_PREFIXES))
    if not validator:
        names -= set(VALIDATOR_FEATURES)
    return tuple(sorted(names))


def matrix(records: Sequence[Record], names: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Candidates with answers as rows, their labels."""
    x, y = [], []
    for r in records:
        for row, ok, n in zip(r.rows, r.correct, r.n_answers, strict=True):
            if n > 0:
                x.append([row.get(k, 0.0) for k in names])
                y.append(int(ok))
    return np.asarray(x, dtype=np.float64).reshape(-1, len(names)), np.asarray(y)


def fit_trees(records: Sequence[Record], names: Sequence[str], *, iterations: int = 200, leaves: int = 15,
              learning_rate: float = 0.05) -> TreeRanker:
    """Gradient-boosted trees, exported as :class:`TreeRanker` (checked against sklearn)."""
    from sklearn.ensemble import HistGradientBoostingClassifier

    x, y = matrix(records, names)
    model = HistGradientBoostingClassifier(max_iter=iterations, max_leaf_nodes=leaves, learning_rate=learning_rate,
                                           l2_regularization=1.0, min_samples_leaf=30, early_stopping=False,
                                           random_state=0)
    model.fit(x, y)
    trees = []
    for (predictor,) in model._predictors:
        nodes = predictor.nodes
        trees.append({"feature": [int(v) for v in nodes["feature_idx"]],
                      "threshold": [float(v) for v in nodes["num_threshold"]],
                      "left": [int(v) for v in nodes["left"]], "right": [int(v) for v in nodes["right"]],
                      "value": [round(float(v), 7) for v in nodes["value"]],
                      "leaf": [int(v) for v in nodes["is_leaf"]]})
    ranker = TreeRanker(names, float(model._baseline_prediction.ravel()[0]), trees)
    check = ranker.raw_many([dict(zip(names, row, strict=True)) for row in x[:200]])
    if max((abs(a - b) for a, b in zip(check, model.decision_function(x[:200]), strict=True)), default=0.0) > 1e-4:
        raise ValueError("exported trees disagree with the fitted model")
    return ranker


def calibrate(trees: TreeRanker, records: Sequence[Record], stacked: Sequence[str] = ()
              ) -> tuple[float, float, dict[str, float]]:
    """``(a, b, {feature: c})`` of ``sigmoid(a * z + b + sum(c_f * x_f))`` fitted on
    ``records``' candidates (Platt's calibration when ``stacked`` is empty)."""
    from sklearn.linear_model import LogisticRegression

    x, y = [], []
    for r in records:
        raw = trees.raw_many(r.rows) if r.rows else []
        for zi, row, ok, n in zip(raw, r.rows, r.correct, r.n_answers, strict=True):
            if n > 0:
                x.append([zi, *(row.get(f, 0.0) for f in stacked)])
                y.append(int(ok))
    if len(set(y)) < 2:
        return 1.0, 0.0, {}
    lr = LogisticRegression(C=10.0, max_iter=1000).fit(np.asarray(x), np.asarray(y))
    coef = [float(c) for c in lr.coef_[0]]
    return coef[0], float(lr.intercept_[0]), dict(zip(stacked, coef[1:], strict=True))


def platt(trees: TreeRanker, records: Sequence[Record]) -> tuple[float, float]:
    """``(a, b)`` of Platt's ``sigmoid(a * z + b)`` fitted on ``records``' candidates."""
    a, b, _ = calibrate(trees, records)
    return a, b


VARIANTS = ("trees", "trees+validator", "stacked")
AUTO = ("trees", "stacked")  # trees+validator: the cross-encoder's train-split scores are overfitted
_TREES: dict[tuple[tuple[str, ...], int, tuple[str, ...]], TreeRanker] = {}


def fit_model(records: Sequence[Record], variant: str) -> ConfidenceModel:
    """Trees on ``records``' ``train`` split, calibrated on their ``dev`` split (the templated
    questions' too).  ``trees``: no cross-encoder; ``trees+validator``: its scores among the
    trees' features; ``stacked``: its scores weighed only by the calibration, on ``dev``
    questions it never saw in training."""
    names = feature_names(records, validator=variant == "trees+validator")
    key = (tuple(sorted({r.source for r in records})), len(records), names)
    if key not in _TREES:  # "trees" and "stacked" share their trees
        _TREES[key] = fit_trees([r for r in records if r.split == "train"], names)
    trees = _TREES[key]
    stacked = VALIDATOR_FEATURES if variant == "stacked" else ()
    a, b, extra = calibrate(trees, bench_dev(records), stacked)
    uses_validator = variant != "trees"
    gate = read_config(VALIDATOR_DIR)
    return ConfidenceModel(trees, a, b, uses_validator=uses_validator, stacked=extra,
                           complex_validator_threshold=gate.complex_threshold if uses_validator else None,
                           complex_rank_weight=gate.rank_weight if gate.gate == "mix" else 0.0)


@dataclass(frozen=True)
class Outcome:
    """One question under a model: the kept candidate's probability and whether it is right."""

    probability: float
    correct: bool
    answerable: bool
    lang: str
    source: str
    fallback: bool | None = None  # a complex answer the validator's complex gate would show instead: is it right?


def outcomes(model: ConfidenceModel, records: Iterable[Record]) -> list[Outcome]:
    """The most probable candidate of each record (see :func:`training.confidence_model.decide`)."""
    out = []
    for r in records:
        if not r.rows:
            out.append(Outcome(0.0, False, r.answerable, r.lang, r.source))
            continue
        probs = model.kept_probabilities(r.rows, r.n_answers)
        best = max(range(len(probs)), key=lambda i: (probs[i], -i))
        fallback = model.fallback(r.rows, r.n_answers)
        out.append(Outcome(probs[best], bool(r.correct[best]), r.answerable, r.lang, r.source,
                           None if fallback is None else bool(r.correct[fallback])))
    return out


def complex_threshold_for(model: ConfidenceModel, records: Sequence[Record], floor: float) -> float:
    """The lowest complex threshold (at or above the model's threshold) at which the
    questions of ``records`` whose most probable candidate has a complex shape reach
    ``floor`` precision, or show none (never, with fewer than :data:`MIN_COMPLEX_EVIDENCE`
    such questions to judge by): the templated questions teach the trees that complex
    candidates are right, real questions' complex candidates mostly are not."""
    kept = []
    for r in records:
        probs = [0.0 if n == 0 else p for p, n in zip(model.probabilities(r.rows), r.n_answers, strict=True)]
        if not probs:
            continue
        best = max(range(len(probs)), key=lambda i: (probs[i], -i))
        if r.rows[best].get("shape_plain", 1.0) == 0.0 and probs[best] >= model.threshold:
            kept.append((probs[best], bool(r.correct[best])))
    if len(kept) < MIN_COMPLEX_EVIDENCE:
        return 1.01  # no evidence that real complex candidates are right: never keep one
    kept.sort(reverse=True)
    best_t, correct = 1.01, 0
    for i, (p, ok) in enumerate(kept, start=1):
        correct += ok
        if i < len(kept) and kept[i][0] == p:
            continue
        if correct >= floor * i:
            best_t = p
    if best_t > 1.0 and kept:
        best_t = min(1.01, kept[0][0] + 1e-6)  # above every one of them
    return max(model.threshold, best_t) if kept else model.threshold


@dataclass(frozen=True)
class Figures:
    """What a threshold does on a set of questions."""

    n: int
    shown: int
    correct: int
    answerable: int
    unanswerable: int
    abstained_unanswerable: int

    @property
    def precision(self) -> float:
        """Correct among shown (1.0 when nothing is shown)."""
        return self.correct / self.shown if self.shown else 1.0

    @property
    def recall(self) -> float:
        """Correct among answerable strings."""
        return self.correct / self.answerable if self.answerable else 0.0

    @property
    def abstention(self) -> float:
        """Abstention on unanswerable strings."""
        return self.abstained_unanswerable / self.unanswerable if self.unanswerable else 1.0

    def line(self) -> str:
        """One printable line."""
        return (f"n={self.n:5d}  shown={self.shown:5d}  wrong={self.shown - self.correct:4d}  "
                f"precision={self.precision:.3f}  correct/answerable={self.correct}/{self.answerable}"
                f" = {self.recall:.1%}  abstention(unanswerable)={self.abstention:.1%} (n={self.unanswerable})")


def figures(items: Sequence[Outcome], threshold: float) -> Figures:
    """Shown answers, precision, correct on answerable and abstention at ``threshold``."""
    shown = [o.correct if o.probability >= threshold else o.fallback for o in items]
    return Figures(len(items), sum(x is not None for x in shown), sum(bool(x) for x in shown),
                   sum(o.answerable for o in items), sum(not o.answerable for o in items),
                   sum(1 for o, x in zip(items, shown, strict=True) if not o.answerable and x is None))


def threshold_for(items: Sequence[Outcome], floor: float, min_shown: int = 20) -> float:
    """The lowest threshold at which at least ``min_shown`` answers are shown and their
    precision reaches ``floor`` (1.0 when no threshold does)."""
    ranked = sorted(items, key=lambda o: -o.probability)
    best = 1.0
    correct = 0
    for i, o in enumerate(ranked, start=1):
        correct += o.correct
        if i < len(ranked) and ranked[i].probability == o.probability:
            continue  # a threshold shows all of a tie or none of it
        if i >= min_shown and correct >= floor * i:
            best = o.probability
    return float(best)


def oracle_figures(items: Sequence[Outcome], target: float = TARGET_PRECISION) -> Figures | None:
    """The ceiling of a threshold on ``items``: the figures of the threshold that shows the
    most right answers at precision ``target`` or above, chosen *knowing which are right* (an
    oracle, not a threshold that could ship; ties to the fewer wrong; ``None``: no threshold
    qualifies)."""
    ok = [f for f in (figures(items, p) for p in sorted({o.probability for o in items}))
          if f.shown and f.precision >= target]
    return max(ok, key=lambda f: (f.correct, -f.shown), default=None)


def bench_dev(records: Sequence[Record], left_out: str | None = None) -> list[Record]:
    """The bench sources' ``dev`` strings (the templated ones aside), without ``left_out``'s:
    where thresholds are set and calibrations fitted."""
    return [r for r in records if r.split == "dev" and r.source not in (SYNTHETIC, left_out)]


def unseen(records: Sequence[Record], source: str) -> list[Record]:
    """``source``'s questions the cross-encoder never saw (its ``dev`` and ``test`` splits): a
    left-out source is measured on these, since the
    cross-encoder's scores of its own ``train`` questions are overfitted (ROC AUC 0.99 there,
    0.91-0.96 on ``dev``/``test``) and would flatter every policy that trusts them."""
    return [r for r in records if r.source == source and r.split != "train"]


def leave_one_source_out(records: Sequence[Record], variant: str, floors: Sequence[float] = FLOORS,
                         sources: Sequence[str] = SOURCES) -> dict[str, dict[float, Figures]]:
    """Per left-out source: the model refitted on the other sources (trees on ``train``,
    calibration on ``dev``), thresholds at each floor on their ``dev`` questions, figures on
    the left-out source's strings the cross-encoder never saw (:func:`unseen`)."""
    per_source: dict[str, dict[float, Figures]] = {}
    for held in sources:
        if not any(r.source == held for r in records):
            continue
        model = fit_model([r for r in records if r.source != held], variant)
        dev = bench_dev(records, held)
        mine = unseen(records, held)
        per_source[held] = {}
        for f in floors:
            set_thresholds(model, dev, f)
            per_source[held][f] = figures(outcomes(model, mine), model.threshold)
    return per_source


def set_thresholds(model: ConfidenceModel, dev: Sequence[Record], floor: float) -> None:
    """The model's threshold at ``floor`` on ``dev`` (complex candidates never kept), then
    its complex threshold (:func:`complex_threshold_for`)."""
    model.complex_threshold = 1.01
    model.threshold = threshold_for(outcomes(model, dev), floor)
    model.complex_threshold = complex_threshold_for(model, dev, floor)


def held_out_outcomes(records: Sequence[Record], variant: str, held: str, floor: float
                      ) -> tuple[float, list[Outcome]]:
    """``(the model's threshold, outcomes on the held-out source)`` of a model fitted without
    the ``held`` source, its thresholds set at ``floor`` on the other bench sources' ``dev``
    questions."""
    model = fit_model([r for r in records if r.source != held], variant)
    set_thresholds(model, bench_dev(records, held), floor)
    return model.threshold, outcomes(model, unseen(records, held))


def unmeetable(per_source: dict[str, dict[float, Figures]], target: float = TARGET_PRECISION,
               judged: Sequence[str] = JUDGED) -> list[str]:
    """Judged sources that show wrong answers below ``target`` precision at every floor."""
    return [s for s in judged if s in per_source
            and all(x.shown and x.precision < target for x in per_source[s].values())]


def meeting_sources(per_source: dict[str, dict[float, Figures]], floor: float, target: float = TARGET_PRECISION,
                    judged: Sequence[str] = JUDGED, min_shown: int = 5) -> list[str]:
    """The judged sources that meet ``target`` at ``floor``: their shown answers reach it, or
    fewer than ``min_shown`` are shown."""
    return [s for s in judged if s in per_source
            and (per_source[s][floor].shown < min_shown or per_source[s][floor].precision >= target)]


def choose_floor(per_source: dict[str, dict[float, Figures]], floors: Sequence[float] = FLOORS,
                 target: float = TARGET_PRECISION, judged: Sequence[str] = JUDGED,
                 min_shown: int = 5) -> tuple[float, float]:
    """``(floor, worst left-out precision over the judged sources)``.

    Sources that miss the target at every floor (:func:`unmeetable`) are reported, not
    allowed to silence the others.  Among the rest, the floor at which the most of them
    meet the target (:func:`meeting_sources`) wins, then the one with the most correct
    answers."""
    skip = set(unmeetable(per_source, target, judged))
    rest = [s for s in judged if s not in skip]
    scored = []
    for f in floors:
        figs = [per_source[s][f] for s in judged if s in per_source]
        meeting = len(meeting_sources(per_source, f, target, rest, min_shown))
        worst = min((x.precision for x in figs if x.shown), default=1.0)
        scored.append((f, meeting, sum(x.correct for x in figs), worst))
    f, _meeting, _correct, worst = max(scored, key=lambda s: (s[1], s[2], -s[0]))
    return f, worst


def train(records: Sequence[Record], variant: str, *, log: Any = print) -> ConfidenceModel:
    """The shipped model: fitted on every source (:func:`fit_model`), its threshold at the
    floor :func:`leave_one_source_out` chose, set on every bench source's ``dev`` questions."""
    per_source = leave_one_source_out(records, variant)
    floor, worst = choose_floor(per_source)
    model = fit_model(records, variant)
    set_thresholds(model, bench_dev(records), floor)
    loso = {s: {"precision": round(figs[floor].precision, 4), "shown": figs[floor].shown,
                "correct": figs[floor].correct, "answerable": figs[floor].answerable,
                "abstention_unanswerable": round(figs[floor].abstention, 4)} for s, figs in per_source.items()}
    model.info = {"variant": variant, "floor": floor, "worst_left_out_precision": round(worst, 4),
                  "meeting_target": meeting_sources(per_source, floor),
                  "unmeetable": unmeetable(per_source),
                  "left_out": loso, "trained": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                  "records": len(records)}
    log(f"{variant}: floor {floor}; worst left-out precision {worst:.3f}; threshold {model.threshold:.4f}; "
        f"complex threshold {model.complex_threshold:.4f}")
    for s, figs in per_source.items():
        log(f"  left out {s:9s} {figs[floor].line()}")
    return model


def _meets_every_meetable(model: ConfidenceModel) -> bool:
    """Whether the model meets the precision target on every judged source it can meet at
    some floor.  Variants are compared by this first, then by their left-out correct
    answers: a variant that shows (almost) nothing meets the target everywhere by silence
    and would otherwise win over one that answers hundreds of questions at the target."""
    return set(JUDGED) - set(model.info["unmeetable"]) <= set(model.info["meeting_target"])


def main(argv: Sequence[str] | None = None) -> int:
    """``collect`` or ``train``."""
    parser = argparse.ArgumentParser(prog="python -m training.confidence")
    parser.add_argument("command", choices=("collect", "train"))
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--no-synthetic", action="store_true")
    parser.add_argument("--variant", choices=("auto", *VARIANTS), default="auto",
                        help="how the cross-encoder's scores are used (auto: the variant whose worst left-out "
                             "precision reaches the target with the most correct left-out answers)")
    parser.add_argument("--out", type=Path, default=CONFIDENCE_PATH)
    args = parser.parse_args(argv)
    settings = load_settings(os.environ)
    path = records_path(settings)
    if args.command == "collect":
        added = collect(settings, path, synthetic=not args.no_synthetic, limit=args.limit)
        print(f"{added} records added to {path}")
        return 0
    records = training_records(read_records(path))
    by_source: dict[str, int] = defaultdict(int)
    for r in records:
        by_source[r.source] += 1
    print(f"{len(records)} records: {dict(by_source)}")
    variants = AUTO if args.variant == "auto" else (args.variant,)
    models = [train(records, v) for v in variants]
    bench_sources = [s for s in SOURCES if s != SYNTHETIC]
    model = max(models, key=lambda m: (_meets_every_meetable(m),
                                       sum(m.info["left_out"].get(s, {}).get("correct", 0) for s in bench_sources)))
    model.save(args.out)
    print(f"wrote {args.out} (validator features: {model.uses_validator}, threshold {model.threshold:.4f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
