"""Training data for the validator, prepared the seed paper's way (section 4.3).

1. Run the backend on every language version of every dev question.
2. Execute each candidate; it is *correct* iff its answer set is non-empty and has
   F1 = 1 against the gold (an empty result is never shown: the pipeline abstains).
   Candidates of unanswerable questions are therefore all negatives.
3. Split by question with :func:`evaluation.splits.split_of` (train / dev / test), so
   no question is in two splits.
4. Balance each split 50/50 (negatives are drawn round-robin over questions, best
   backend rank first, so every question contributes its hardest negatives).

Everything is JSONL under ``.cache/validator/`` (derived from bench + KG: never
committed).  :func:`export_turtle` writes the paper's Fig. 4/5 shape as RDF Turtle.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from backends.qanswer import shape_of
from core.errors import BackendError, KGError
from evaluation.answers import normalize_boolean, normalize_terms
from evaluation.harness import EvalItem, gold_values
from evaluation.metrics import Counts, prf_from_counts
from evaluation.splits import split_of
from kg.client import KG
from qa.candidate import COMPLEX_SHAPES
from qa.generate import Backend
from qa.guard import screen
from qa.reading.lexicon import default_lexicon
from training.synthetic import DATASET as SYNTHETIC
from training.synthetic import mentions_gold
from validator.verbalize import VERSION, Verbalizer

CANDIDATES_FILE = "candidates.jsonl"
MAX_RESULT_ROWS = 10_000


@dataclass
class CandidateRecord:
    """One executed candidate of one question (one line of ``candidates.jsonl``)."""

    id: str
    lang: str
    split: str
    dataset: str
    kind: str
    question: str
    position: int  # 1-based rank before filtering (hasPositionBeforeFiltering)
    backend_score: float
    sparql: str
    verbalization: str
    f1: float
    n_answers: int
    correct: bool
    error: str | None = None
    verbalizer: int = 1  # validator.verbalize.VERSION that wrote ``verbalization``
    shape: str = ""  # the candidate's query shape (qa.candidate.SHAPES)

    def to_json(self) -> dict[str, object]:
        """A JSON-able dict."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, object]) -> CandidateRecord:
        """Parse one JSONL line's object."""
        record = cls(**{k: data[k] for k in cls.__dataclass_fields__ if k in data})  # type: ignore[arg-type]
        if "shape" not in data:  # written before records kept the shape: read it from the text once
            record.shape = shape_of(record.sparql)
        return record

    @property
    def is_complex(self) -> bool:
        """Whether the candidate has one of the :data:`qa.candidate.COMPLEX_SHAPES`."""
        return self.shape in COMPLEX_SHAPES

    @property
    def pair(self) -> tuple[str, str]:
        """The cross-encoder input."""
        return self.question, self.verbalization


def item_split(item: EvalItem) -> str:
    """The split of an item: its question's, or for a templated question its entities'."""
    return str(item.question.extra["split"]) if item.dataset == SYNTHETIC else split_of(item.id)


def execute_candidate(kg: KG, sparql: str, gold: set[str], *, timeout_s: float) -> tuple[float, int, str | None]:
    """``(F1 against gold, number of answer values, error)`` of one candidate."""
    try:
        result = kg.query(sparql, timeout_s=timeout_s, max_rows=MAX_RESULT_ROWS)
    except KGError as exc:
        return 0.0, 0, f"{type(exc).__name__}: {exc}"
    values = {normalize_boolean(result.boolean)} if result.boolean is not None else normalize_terms(result.column())
    return prf_from_counts(Counts.of(values, gold), qald=True).f1, len(values), None


def records_for_item(item: EvalItem, backend: Backend, kg: KG, verbalizer: Verbalizer, *,
                     timeout_s: float = 5.0, max_candidates: int | None = None) -> list[CandidateRecord]:
    """Run the backend on one item, then execute and verbalize every candidate (the first
    ``max_candidates`` of them, when given)."""
    candidates = screen(backend.ask(item.text, item.lang)).as_written  # off-list candidates never run
    candidates = candidates[:max_candidates] if max_candidates is not None else candidates
    gold = gold_values(item.question)
    texts = verbalizer.many([c.sparql for c in candidates], item.lang, [c.links for c in candidates])
    # templated questions carry their entity split, and their candidates must also name the
    # gold query's entities and properties (a yes/no answer is otherwise right by chance)
    synthetic = item.dataset == SYNTHETIC
    split = item_split(item)
    out = []
    for position, (cand, text) in enumerate(zip(candidates, texts, strict=True), start=1):
        f1, n, error = execute_candidate(kg, cand.sparql, gold, timeout_s=timeout_s)
        correct = n > 0 and f1 == 1.0 and (not synthetic or mentions_gold(cand.sparql, item.question.sparql or ""))
        out.append(CandidateRecord(
            id=item.id, lang=item.lang, split=split, dataset=item.dataset, kind=item.question.kind,
            question=item.text, position=position, backend_score=float(cand.score), sparql=cand.sparql,
            verbalization=text, f1=round(f1, 6), n_answers=n, correct=correct, error=error,
            verbalizer=VERSION, shape=cand.shape))
    return out


def reverbalize(records: Sequence[CandidateRecord], kg: KG, *, progress: bool = False) -> list[CandidateRecord]:
    """Records whose verbalization was written by an older verbalizer, re-verbalized."""
    from dataclasses import replace

    from tqdm import tqdm

    verbalizer = Verbalizer(kg, names=default_lexicon())
    out: list[CandidateRecord] = []
    for group in tqdm(grouped(records), desc="re-verbalize", disable=not progress, unit="q"):
        stale = [r for r in group if r.position > 0 and r.verbalizer != VERSION]
        texts = verbalizer.many([r.sparql for r in stale], group[0].lang) if stale else []
        fresh = {id(r): replace(r, verbalization=t, verbalizer=VERSION) for r, t in zip(stale, texts, strict=True)}
        out.extend(fresh.get(id(r), r) for r in group)
    return out


def collect(items: Sequence[EvalItem], backend: Backend, kg: KG, out_path: Path, *, progress: bool = True,
            timeout_s: float = 5.0, on_item: Callable[[EvalItem, int], None] | None = None,
            max_candidates: int | None = None) -> Path:
    """Append the records of every item not yet in ``out_path`` (resumable).

    An item the backend fails on is recorded as a single line with ``error`` set and no
    candidate (``position`` 0), so a resumed run does not retry it forever.
    """
    from tqdm import tqdm

    out_path = Path(out_path)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    done = {(r.id, r.lang) for r in read_records(out_path)} if out_path.exists() else set()
    todo = [it for it in items if (it.id, it.lang) not in done]
    verbalizer = Verbalizer(kg, names=default_lexicon(), timeout_s=timeout_s)
    with out_path.open("a", encoding="utf-8") as sink:
        for item in tqdm(todo, desc="candidates", disable=not progress, unit="q"):
            try:
                records = records_for_item(item, backend, kg, verbalizer, timeout_s=timeout_s,
                                           max_candidates=max_candidates)
            except (BackendError, KGError) as exc:
                records = [_failed(item, exc)]
            if not records:
                records = [_failed(item, None)]
            for record in records:
                sink.write(json.dumps(record.to_json(), ensure_ascii=False) + "\n")
            sink.flush()
            if on_item:
                on_item(item, len(records))
    return out_path


def _failed(item: EvalItem, exc: Exception | None) -> CandidateRecord:
    error = f"{type(exc).__name__}: {exc}" if exc else "no candidates"
    return CandidateRecord(id=item.id, lang=item.lang, split=item_split(item), dataset=item.dataset,
                           kind=item.question.kind, question=item.text, position=0, backend_score=0.0, sparql="",
                           verbalization="", f1=0.0, n_answers=0, correct=False, error=error)


def read_records(path: Path) -> list[CandidateRecord]:
    """Every record of a JSONL file."""
    with Path(path).open(encoding="utf-8") as handle:
        return [CandidateRecord.from_json(json.loads(line)) for line in handle if line.strip()]


def write_records(records: Iterable[CandidateRecord], path: Path) -> int:
    """Write records as JSONL; returns how many."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    with path.open("w", encoding="utf-8") as sink:
        for record in records:
            sink.write(json.dumps(record.to_json(), ensure_ascii=False) + "\n")
            n += 1
    return n


def trainable(records: Iterable[CandidateRecord]) -> list[CandidateRecord]:
    """Candidates usable as examples: real candidates with a non-empty result."""
    return [r for r in records if r.position > 0 and r.n_answers > 0 and r.verbalization]


def balance(records: Sequence[CandidateRecord], *, seed: int = 13, mode: str = "down",
            negatives_per_item: int | None = None, complex_boost: int = 1) -> list[CandidateRecord]:
    """50/50 positives and negatives.

    ``down``: the larger class is down-sampled; negatives are drawn round-robin over
    (question, language) items, best backend rank first.  ``up``: every item keeps at
    most ``negatives_per_item`` negatives (its best ranked), and positives are repeated
    until both classes have the same size, so more negatives are seen.

    Candidates of a complex shape (:data:`COMPLEX_SHAPES`: COUNT, ASK, ORDER BY, FILTER)
    are rare; with ``complex_boost`` > 1 each of them is kept whatever its rank (no
    per-item negative cap) and its positives count ``complex_boost`` times, so the
    validator learns these verbalizations instead of treating them as noise.
    """
    rng = random.Random(seed)
    boosted = complex_boost > 1
    complex_ids = {id(r): r.is_complex for r in records} if boosted else {}
    pos = [r for r in records if r.correct]
    neg = [r for r in records if not r.correct]
    if boosted:
        pos += [r for r in pos if complex_ids[id(r)]] * (complex_boost - 1)
    if negatives_per_item is not None:
        capped = [r for g in grouped(r for r in neg if not complex_ids.get(id(r))) for r in g[:negatives_per_item]]
        neg = capped + [r for r in neg if complex_ids.get(id(r))]
    if mode == "up" and pos and len(neg) > len(pos):
        reps, extra = divmod(len(neg), len(pos))
        pos = pos * reps + rng.sample(pos, extra)
    elif mode not in ("up", "down"):
        raise ValueError(f"unknown balance mode {mode!r}")
    n = min(len(pos), len(neg))
    if len(neg) > n:
        neg = _round_robin(neg, n, rng)
    if len(pos) > n:
        pos = rng.sample(pos, n)
    out = pos + neg
    rng.shuffle(out)
    return out


def _round_robin(records: Sequence[CandidateRecord], n: int, rng: random.Random) -> list[CandidateRecord]:
    groups: dict[tuple[str, str], list[CandidateRecord]] = defaultdict(list)
    for r in records:
        groups[(r.id, r.lang)].append(r)
    queues = [sorted(g, key=lambda r: r.position) for g in groups.values()]
    rng.shuffle(queues)
    out: list[CandidateRecord] = []
    depth = 0
    while len(out) < n:
        layer = [q[depth] for q in queues if len(q) > depth]
        if not layer:
            break
        out.extend(layer[: n - len(out)])
        depth += 1
    return out


def by_split(records: Iterable[CandidateRecord]) -> dict[str, list[CandidateRecord]]:
    """Records grouped by split."""
    out: dict[str, list[CandidateRecord]] = defaultdict(list)
    for r in records:
        out[r.split].append(r)
    return out


def grouped(records: Iterable[CandidateRecord]) -> list[list[CandidateRecord]]:
    """Records grouped per (question, language) item, each group in backend order."""
    groups: dict[tuple[str, str], list[CandidateRecord]] = defaultdict(list)
    for r in records:
        groups[(r.id, r.lang)].append(r)
    return [sorted(g, key=lambda r: r.position) for g in groups.values()]


def make_splits(candidates: Path, out_dir: Path, *, seed: int = 13, mode: str = "down",
                negatives_per_item: int | None = None, complex_boost: int = 1,
                extra_train: Sequence[CandidateRecord] = ()) -> dict[str, int]:
    """Write balanced ``train.jsonl`` (train split, ``mode``, complex shapes boosted by
    ``complex_boost``) and ``valid.jsonl`` (dev split, always down-sampled: the paper's
    balanced validation set).  ``extra_train`` (templated questions' records) is balanced
    on its own, without boost, and added to the training set."""
    parts = by_split(trainable(read_records(candidates)))
    train = balance(parts.get("train", []), seed=seed, mode=mode, negatives_per_item=negatives_per_item,
                    complex_boost=complex_boost)
    if extra_train:
        train += balance(trainable(extra_train), seed=seed, mode=mode, negatives_per_item=negatives_per_item)
        random.Random(seed).shuffle(train)
    valid = balance(parts.get("dev", []), seed=seed)
    return {"train.jsonl": write_records(train, Path(out_dir) / "train.jsonl"),
            "valid.jsonl": write_records(valid, Path(out_dir) / "valid.jsonl")}


QA = "urn:qanary#"
_NS = {"qa": QA, "xsd": "http://www.w3.org/2001/XMLSchema#", "oa": "http://www.w3.org/ns/openannotation/core/",
       "kgqa": "urn:kgqa:"}


def export_turtle(records: Iterable[CandidateRecord], path: Path) -> int:
    """RDF Turtle shaped like the paper's Fig. 4/5; returns the number of candidates.

    Each question item is a ``qa:Question`` with its text; each candidate is a
    ``qa:AnnotationOfAnswerSPARQL`` targeting it, with ``qa:hasPositionBeforeFiltering``,
    ``qa:hasSPARQL``, ``qa:qaF1Score``, ``qa:hasNaturalLanguageRepresentation`` and
    ``qa:confidenceScore`` (the backend's score).
    """
    import hashlib

    import pyoxigraph as ox

    def node(local: str) -> ox.NamedNode:
        return ox.NamedNode("urn:kgqa:" + hashlib.sha1(local.encode("utf-8")).hexdigest()[:16])

    xsd = _NS["xsd"]
    rdf_type = ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")
    triples: list[ox.Triple] = []
    seen: set[tuple[str, str]] = set()
    n = 0
    for r in records:
        if r.position <= 0:
            continue
        q = node(f"q|{r.id}|{r.lang}")
        if (r.id, r.lang) not in seen:
            seen.add((r.id, r.lang))
            triples += [
                ox.Triple(q, rdf_type, ox.NamedNode(QA + "Question")),
                ox.Triple(q, ox.NamedNode(QA + "hasId"), ox.Literal(r.id)),
                ox.Triple(q, ox.NamedNode(QA + "hasQuestionText"), ox.Literal(r.question, language=_tag(r.lang))),
                ox.Triple(q, ox.NamedNode(QA + "isAnswerable"),
                          ox.Literal(str(r.kind != "unanswerable").lower(), datatype=ox.NamedNode(xsd + "boolean"))),
            ]
        c = node(f"c|{r.id}|{r.lang}|{r.position}")
        triples += [
            ox.Triple(c, rdf_type, ox.NamedNode(QA + "AnnotationOfAnswerSPARQL")),
            ox.Triple(c, ox.NamedNode(_NS["oa"] + "hasTarget"), q),
            ox.Triple(c, ox.NamedNode(QA + "hasPositionBeforeFiltering"),
                      ox.Literal(str(r.position), datatype=ox.NamedNode(xsd + "integer"))),
            ox.Triple(c, ox.NamedNode(QA + "hasSPARQL"), ox.Literal(r.sparql)),
            ox.Triple(c, ox.NamedNode(QA + "qaF1Score"), ox.Literal(repr(float(r.f1)),
                                                                     datatype=ox.NamedNode(xsd + "double"))),
            ox.Triple(c, ox.NamedNode(QA + "hasNaturalLanguageRepresentation"),
                      ox.Literal(r.verbalization, language=_tag(r.lang))),
            ox.Triple(c, ox.NamedNode(QA + "confidenceScore"), ox.Literal(repr(float(r.backend_score)),
                                                                           datatype=ox.NamedNode(xsd + "double"))),
        ]
        n += 1
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    ox.serialize(triples, str(path), ox.RdfFormat.TURTLE, prefixes=_NS)
    return n


def _tag(lang: str) -> str:
    return lang if lang and lang.replace("-", "").isalnum() else "und"
