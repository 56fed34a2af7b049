"""Training and calibration of the answer confidence (:mod:`validator.confidence`)::

    nice .venv/bin/python -m training.confidence collect   # .cache/answer_confidence/records.jsonl (resumable)
    .venv/bin/python -m training.confidence train           # assets/confidence.json + report

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
import json
import os
import random
import sys
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from backends.local.lexicon import default_lexicon
from backends.local.ranker import TreeRanker
from core.errors import BackendError
from core.settings import Settings, load_settings
from evaluation.formats import load_datasets
from evaluation.harness import EvalItem, gold_values, select_items
from qa.detect import detect_language
from service.factory import make_backend, open_kg
from training.build import bench_paths, written_test_entities
from training.data import execute_candidate, item_split
from training.synthetic import DATASET as SYNTHETIC
from training.synthetic import generate, load_facts, mentions_gold, to_items
from validator.confidence import CONFIDENCE_PATH, TOP_K, VALIDATOR_FEATURES, AnswerConfidence, ConfidenceModel
from validator.verbalize import Verbalizer

RECORDS = "records.jsonl"
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


def read_records(path: Path) -> list[Record]:
    """Every record of a JSONL file."""
    if not path.exists():
        return []
    with path.open(encoding="utf-8") as handle:
        return [Record(**json.loads(line)) for line in handle if line.strip()]


def _source(item: EvalItem) -> str:
    return item.dataset if item.dataset == SYNTHETIC else item.id.split(":", 1)[0]


def collect(settings: Settings, out: Path, *, synthetic: bool = True, limit: int | None = None,
            progress: bool = True) -> int:
    """Append a record for every item not yet in ``out``; returns how many were added."""
    import torch
    from tqdm import tqdm

    from validator.runtime import load_encoder

    torch.set_num_threads(1)
    kg = open_kg(settings)
    backend = make_backend(settings, kg)
    encoder, _ = load_encoder(settings.validator_dir, settings.model_dir)
    placeholder = ConfidenceModel(TreeRanker((), 0.0, []), k=TOP_K, uses_validator=True)
    stage = AnswerConfidence(kg, placeholder, default_lexicon(Path(settings.lexicon_path)), scorer=encoder,
                             verbalize=Verbalizer(kg, timeout_s=5.0))
    items = select_items(load_datasets(bench_paths()), lang="all")
    random.Random(13).shuffle(items)
    if synthetic:
        templated = to_items(kg, generate(load_facts(kg, written_test_entities()), seed=13))
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
    record.seconds = round(time.perf_counter() - t0, 3)
    return record


# --------------------------------------------------------------------------- fitting


def feature_names(records: Sequence[Record], *, validator: bool) -> tuple[str, ...]:
    """Every feature the records carry (without the cross-encoder's unless ``validator``)."""
    names: set[str] = set()
    for r in records:
        for row in r.rows:
            names.update(row)
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


def platt(trees: TreeRanker, records: Sequence[Record]) -> tuple[float, float]:
    """``(a, b)`` of ``sigmoid(a * z + b)`` fitted on ``records``' candidates."""
    from sklearn.linear_model import LogisticRegression

    z, y = [], []
    for r in records:
        raw = trees.raw_many(r.rows) if r.rows else []
        for zi, ok, n in zip(raw, r.correct, r.n_answers, strict=True):
            if n > 0:
                z.append(zi)
                y.append(int(ok))
    if len(set(y)) < 2:
        return 1.0, 0.0
    lr = LogisticRegression(C=100.0).fit(np.asarray(z).reshape(-1, 1), np.asarray(y))
    return float(lr.coef_[0][0]), float(lr.intercept_[0])


@dataclass(frozen=True)
class Outcome:
    """One question under a model: the kept candidate's probability and whether it is right."""

    probability: float
    correct: bool
    answerable: bool
    lang: str
    source: str


def outcomes(model: ConfidenceModel, records: Iterable[Record]) -> list[Outcome]:
    """The most probable candidate of each record (see :func:`validator.confidence.decide`)."""
    out = []
    for r in records:
        if not r.rows:
            out.append(Outcome(0.0, False, r.answerable, r.lang, r.source))
            continue
        probs = [0.0 if n == 0 else p for p, n in zip(model.probabilities(r.rows), r.n_answers, strict=True)]
        best = max(range(len(probs)), key=lambda i: (probs[i], -i))
        out.append(Outcome(probs[best], bool(r.correct[best]), r.answerable, r.lang, r.source))
    return out


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
    shown = [o for o in items if o.probability >= threshold]
    return Figures(len(items), len(shown), sum(o.correct for o in shown), sum(o.answerable for o in items),
                   sum(not o.answerable for o in items),
                   sum(1 for o in items if not o.answerable and o.probability < threshold))


def threshold_for(items: Sequence[Outcome], floor: float, min_shown: int = 20) -> float:
    """The lowest threshold at which the shown answers reach ``floor`` precision, and stay
    at or above it for every higher threshold with at least ``min_shown`` answers."""
    ranked = sorted(items, key=lambda o: -o.probability)
    best = 1.0
    correct = 0
    for i, o in enumerate(ranked, start=1):
        correct += o.correct
        if i < len(ranked) and ranked[i].probability == o.probability:
            continue  # a threshold shows all of a tie or none of it
        if i >= min_shown and correct / i < floor:
            break
        if i >= min_shown or correct == i:
            best = o.probability
    return float(best)


def leave_one_source_out(records: Sequence[Record], names: Sequence[str], floors: Sequence[float] = FLOORS,
                         sources: Sequence[str] = SOURCES) -> dict[str, Any]:
    """Per left-out source: trees refitted on the other sources' ``train`` questions, Platt and
    thresholds on their ``dev`` questions, figures on every question of the left-out one."""
    per_source: dict[str, dict[float, Figures]] = {}
    for held in sources:
        if not any(r.source == held for r in records):
            continue
        dev_out, held_out = held_out_outcomes(records, names, held)
        per_source[held] = {f: figures(held_out, threshold_for(dev_out, f)) for f in floors}
    return per_source


def held_out_outcomes(records: Sequence[Record], names: Sequence[str], held: str
                      ) -> tuple[list[Outcome], list[Outcome]]:
    """``(outcomes on the other sources' dev questions, outcomes on the held-out source)``
    of a model fitted and Platt-calibrated without the ``held`` source."""
    rest = [r for r in records if r.source != held]
    trees = fit_trees([r for r in rest if r.split == "train"], names)
    dev = [r for r in rest if r.split == "dev"]
    a, b = platt(trees, dev)
    model = ConfidenceModel(trees, a, b)
    return outcomes(model, [r for r in dev if r.source != SYNTHETIC]), outcomes(model, [r for r in records
                                                                                      if r.source == held])


def choose_floor(per_source: dict[str, dict[float, Figures]], floors: Sequence[float] = FLOORS,
                 target: float = TARGET_PRECISION, judged: Sequence[str] = ("sqwd", "wwq", "rubq1", "mintaka")
                 ) -> tuple[float, float]:
    """``(floor, worst left-out precision)``: the floor whose worst precision over the
    ``judged`` sources (those with at least 10 shown answers) reaches ``target`` with the
    most correct answers; failing that, the floor with the best worst precision."""
    scored = []
    for f in floors:
        figs = [per_source[s][f] for s in judged if s in per_source]
        precisions = [x.precision for x in figs if x.shown >= 10] or [1.0]
        scored.append((f, min(precisions), sum(x.correct for x in figs)))
    ok = [s for s in scored if s[1] >= target]
    if ok:
        f, worst, _ = max(ok, key=lambda s: (s[2], -s[0]))
    else:
        f, worst, _ = max(scored, key=lambda s: (s[1], s[2]))
    return f, worst


def train(records: Sequence[Record], *, validator: bool, log: Any = print) -> tuple[ConfidenceModel, dict[str, Any]]:
    """The shipped model: trees on every source's ``train``, Platt on ``dev``, the threshold of
    the floor chosen by :func:`leave_one_source_out`."""
    names = feature_names(records, validator=validator)
    per_source = leave_one_source_out(records, names)
    floor, worst = choose_floor(per_source)
    trees = fit_trees([r for r in records if r.split == "train"], names)
    dev = [r for r in records if r.split == "dev"]
    a, b = platt(trees, dev)
    model = ConfidenceModel(trees, a, b, uses_validator=validator)
    model.threshold = threshold_for(outcomes(model, [r for r in dev if r.source != SYNTHETIC]), floor)
    loso = {s: {"precision": round(figs[floor].precision, 4), "shown": figs[floor].shown,
                "correct": figs[floor].correct, "answerable": figs[floor].answerable,
                "abstention_unanswerable": round(figs[floor].abstention, 4)} for s, figs in per_source.items()}
    model.info = {"floor": floor, "worst_left_out_precision": round(worst, 4), "left_out": loso,
                  "trained": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                  "records": len(records)}
    log(f"validator features: {validator}; floor {floor}; worst left-out precision {worst:.3f}; "
        f"threshold {model.threshold:.4f}")
    for s, figs in per_source.items():
        log(f"  left out {s:8s} {figs[floor].line()}")
    return model, model.info


def main(argv: Sequence[str] | None = None) -> int:
    """``collect`` or ``train``."""
    parser = argparse.ArgumentParser(prog="python -m training.confidence")
    parser.add_argument("command", choices=("collect", "train"))
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--no-synthetic", action="store_true")
    parser.add_argument("--validator", choices=("auto", "on", "off"), default="auto",
                        help="use the cross-encoder's scores as features (auto: whichever keeps more "
                             "correct answers at the floor)")
    parser.add_argument("--out", type=Path, default=CONFIDENCE_PATH)
    args = parser.parse_args(argv)
    settings = load_settings(os.environ)
    path = Path(settings.cache_dir) / "answer_confidence" / RECORDS
    if args.command == "collect":
        added = collect(settings, path, synthetic=not args.no_synthetic, limit=args.limit)
        print(f"{added} records added to {path}")
        return 0
    records = read_records(path)
    by_source: dict[str, int] = defaultdict(int)
    for r in records:
        by_source[r.source] += 1
    print(f"{len(records)} records: {dict(by_source)}")
    choices = {"on": (True,), "off": (False,), "auto": (False, True)}[args.validator]
    models = [train(records, validator=v) for v in choices]
    model, _info = max(models, key=lambda m: (m[1]["worst_left_out_precision"] >= TARGET_PRECISION,
                                              sum(v["correct"] for v in m[1]["left_out"].values())))
    model.save(args.out)
    print(f"wrote {args.out} (validator features: {model.uses_validator}, threshold {model.threshold:.4f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
