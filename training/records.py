"""The records the shipped gate and the probability map are fitted on
(:mod:`training.transfer`, :mod:`training.probability`)::

    nice kgqa train --only records   # <cache>/answer_confidence/records.jsonl (resumable)

Every language string of every bench question (and the templated questions) goes through
the real backend with the language detected as the chat detects it; the first ``k``
candidates are executed, typed and scored by the shipped cross-encoder
(:class:`training.evidence.EvidenceReader`), and labelled by executing them in full (right: a
non-empty answer set with F1 = 1 against the gold).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from core.errors import BackendError
from core.settings import Settings
from evaluation.formats import load_datasets
from evaluation.harness import EvalItem, gold_values, select_items
from qa.reading.detect import detect_language
from qa.reading.lexicon import default_lexicon
from service.factory import make_backend, open_kg
from training import onehop
from training.build import ONEHOP_PER_SPLIT, bench_paths, written_test_entities
from training.data import execute_candidate, item_split
from training.evidence import EvidenceReader
from training.synthetic import DATASET as SYNTHETIC
from training.synthetic import generate, load_facts, mentions_gold, to_items
from validator.runtime import load_encoder
from validator.verbalize import Verbalizer

RECORDS = "records.jsonl"
TARGET_PRECISION = 0.92


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


def records_path(settings: Settings) -> Path:
    """Where :func:`collect` writes the records (the cache's ``answer_confidence/records.jsonl``)."""
    return Path(settings.cache_dir) / "answer_confidence" / RECORDS


def gate_inputs(record: Record) -> tuple[list[float], list[float], list[bool]]:
    """What the shipped gate reads of a record's candidates: validator scores, backend
    scores and which have a complex shape."""
    return ([row.get("v_score", 0.0) for row in record.rows], [row.get("backend", 0.0) for row in record.rows],
            [row.get("shape_plain", 1.0) == 0.0 for row in record.rows])


def read_records(path: Path) -> list[Record]:
    """Every record of a JSONL file (keys a :class:`Record` does not have are left out)."""
    if not path.exists():
        return []
    known = {f.name for f in fields(Record)}
    with path.open(encoding="utf-8") as handle:
        return [Record(**{k: v for k, v in json.loads(line).items() if k in known}) for line in handle if line.strip()]


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
    lexicon = default_lexicon(Path(settings.lexicon_path))
    reader = EvidenceReader(kg, lexicon, scorer=encoder, verbalize=Verbalizer(kg, names=lexicon, timeout_s=5.0))
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
        for item in tqdm(todo, desc="records", disable=not progress, unit="q"):
            sink.write(json.dumps(asdict(record_for(item, backend, kg, reader)), ensure_ascii=False) + "\n")
            sink.flush()
    return len(todo)


def record_for(item: EvalItem, backend: Any, kg: Any, reader: EvidenceReader) -> Record:
    """Run one item as the pipeline does and label its first candidates."""
    t0 = time.perf_counter()
    lang = detect_language(item.text)
    record = Record(item.id, _source(item), item.lang, lang, item_split(item),
                    item.question.kind != "unanswerable", item.text)
    try:
        candidates = backend.ask(item.text, lang)
    except BackendError:
        candidates = []
    ev = reader.evidence(item.text, lang, candidates)
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
