"""The answering pipeline, shared by the chat, ``kgqa ask``, ``kgqa evaluate`` and the
service: detect language -> backend candidates -> verbalize + validate -> gate ->
execute -> labels.  It returns a :class:`Turn`, whose :meth:`Turn.to_json` is the
stable JSON contract of ``kgqa ask --json``."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from core.errors import InputError, KGError, KGQAError, QuestionTooLong, is_service_fault
from kg.client import KG, QueryResult, Term, fetch_labels
from kg.sparql import entity_iri, local_id, prop_iri
from qa.candidate import Candidate, is_complex
from qa.confidence import Confidence, Decision
from qa.detect import SUPPORTED_LANGUAGES, clean_question, detect_language
from qa.execute import ComparisonSpec, evaluate_comparison, parse_comparison
from qa.generate import Backend
from qa.label import pick_label

MAX_ANSWERS = 200


class Scorer(Protocol):
    """What the pipeline needs from a validator (mirrors CrossEncoder.score)."""

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[float]: ...


Verbalizer = Callable[[str, str], str]
Gate = Callable[[Sequence[float], Sequence[float], float, Sequence[bool]], "int | None"]


@dataclass
class AnswerItem:
    """One shown answer value with its label in (or near) the user's language."""

    value: str
    id: str | None
    label: str
    label_lang: str | None
    datatype: str | None = None
    kind: str = "uri"

    def to_json(self) -> dict[str, Any]:
        """The contract's answer object."""
        return {"value": self.value, "id": self.id, "label": self.label, "label_lang": self.label_lang,
                "datatype": self.datatype, "type": self.kind}


@dataclass
class CandidateView:
    """A candidate as reported back: backend score, validator score, kept flag."""

    sparql: str
    backend_score: float
    validator_score: float | None = None
    kept: bool = False
    verbalization: str | None = None
    passed: bool | None = None  # cleared the gate's threshold (None: not scored)
    shape: str = ""
    entities: tuple[str, ...] = ()
    properties: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The contract's candidate object."""
        return {"sparql": self.sparql, "backend_score": self.backend_score,
                "validator_score": self.validator_score, "kept": self.kept,
                "verbalization": self.verbalization, "passed": self.passed, "shape": self.shape,
                "entities": list(self.entities), "properties": list(self.properties)}


@dataclass
class Turn:
    """Everything about answering one question."""

    question: str
    lang: str
    detected_lang: str | None
    answered: bool = False
    answers: list[AnswerItem] = field(default_factory=list)
    boolean: bool | None = None
    sparql: str | None = None
    confidence: float | None = None
    candidates: list[CandidateView] = field(default_factory=list)
    message_key: str = ""  # what to tell the user; the UI layer words it (chat.messages.turn_message)
    message_args: dict[str, Any] = field(default_factory=dict)
    status: str = "ok"  # ok | abstained | no_candidates | bad_input | service_error | error
    error: str | None = None
    validator: str = "off"  # on | off | unavailable
    notes: list[str] = field(default_factory=list)
    backend: str = ""
    rank: int | None = None
    timings_ms: dict[str, float] = field(default_factory=dict)
    comparison: dict[str, Any] | None = None
    total_answers: int = 0

    def to_json(self) -> dict[str, Any]:
        """The stable ``kgqa ask --json`` contract (plus diagnostic extras)."""
        out: dict[str, Any] = {
            "question": self.question,
            "lang": self.lang,
            "detected_lang": self.detected_lang,
            "answered": self.answered,
            "answers": [a.to_json() for a in self.answers],
            "boolean": self.boolean,
            "sparql": self.sparql,
            "confidence": self.confidence,
            "candidates": [c.to_json() for c in self.candidates],
            "message_key": self.message_key,
            "message_args": self.message_args,
            "status": self.status,
            "error": self.error,
            "validator": self.validator,
            "notes": self.notes,
            "backend": self.backend,
            "rank": self.rank,
            "timings_ms": self.timings_ms,
            "total_answers": self.total_answers,
        }
        if self.comparison is not None:
            out["comparison"] = self.comparison
        return out


class Pipeline:
    """The one answering pipeline.  ``validator`` may be ``None`` (validator off)."""

    def __init__(
        self,
        backend: Backend,
        kg: KG,
        *,
        scorer: Scorer | None = None,
        verbalize: Verbalizer | None = None,
        gate: Gate | None = None,
        threshold: float = 0.5,
        validator_state: str | None = None,
        max_question_chars: int = 1000,
        query_timeout_s: float = 5.0,
        confidence: Confidence | None = None,
    ) -> None:
        self.backend = backend
        self.kg = kg
        self.scorer = scorer
        self.verbalize = verbalize
        self.gate = gate
        self.threshold = threshold
        self.validator_state = validator_state or ("on" if scorer is not None else "off")
        self.max_question_chars = max_question_chars
        self.query_timeout_s = query_timeout_s
        self.confidence = confidence  # the learned answer confidence; replaces the gate when set

    def answer(self, question: str | None, lang: str | None = None, *, use_validator: bool = True) -> Turn:
        """Answer one question; never raises for user input or service faults."""
        started = time.perf_counter()
        ui_lang = lang if lang in SUPPORTED_LANGUAGES else None
        turn = Turn(question=question or "", lang=ui_lang or "en", detected_lang=None,
                    backend=getattr(self.backend, "name", "?"))
        turn.validator = self.validator_state if use_validator else "off"
        try:
            text = clean_question(question, self.max_question_chars)
            turn.question = text
            turn.detected_lang = detect_language(text)
            turn.lang = ui_lang or turn.detected_lang or "en"
            if lang and lang not in SUPPORTED_LANGUAGES:
                turn.notes.append(f"unsupported language {lang!r}, using {turn.lang!r}")
            self._run(turn, use_validator)
        except InputError as exc:
            self._fail(turn, "bad_input", exc)
        except KGQAError as exc:
            self._fail(turn, "service_error" if is_service_fault(exc) else "error", exc)
        turn.timings_ms["total"] = round((time.perf_counter() - started) * 1000, 1)
        if not turn.message_key:
            turn.message_key = _message_key(turn)
            turn.message_args = {"limit": self.max_question_chars}
        return turn

    def _fail(self, turn: Turn, status: str, exc: Exception) -> None:
        turn.status = status
        if isinstance(exc, QuestionTooLong):
            turn.message_key, turn.message_args = "too_long", {"limit": exc.limit}
        turn.error = f"{type(exc).__name__}: {exc}"
        turn.answered = False
        turn.answers = []
        turn.boolean = None
        turn.sparql = turn.confidence = turn.rank = None  # a failed turn keeps no chosen query
        for view in turn.candidates:
            view.kept = False

    def _timed(self, turn: Turn, stage: str, fn: Callable[[], Any]) -> Any:
        t0 = time.perf_counter()
        try:
            return fn()
        finally:
            turn.timings_ms[stage] = round((time.perf_counter() - t0) * 1000, 1)

    def _run(self, turn: Turn, use_validator: bool) -> None:
        candidates: list[Candidate] = self._timed(turn, "backend", lambda: self.backend.ask(turn.question, turn.lang))
        turn.candidates = [CandidateView(c.sparql, round(float(c.score), 6), shape=c.shape, entities=c.entities,
                                         properties=c.properties) for c in candidates]
        if not candidates:
            turn.status = "no_candidates"
            return
        decision = self._decide(turn, candidates) if use_validator and self.confidence is not None else None
        chosen = decision.index if decision is not None else self._choose(turn, use_validator)
        if chosen is None:
            turn.status = "abstained"
            return
        turn.candidates[chosen].kept = True
        turn.rank = chosen + 1
        view = turn.candidates[chosen]
        turn.sparql = view.sparql
        turn.confidence = view.validator_score if view.validator_score is not None else view.backend_score
        if decision is not None:
            turn.confidence = round(decision.probability, 6)
        spec = parse_comparison(view.sparql)
        if spec is not None:
            self._timed(turn, "execute", lambda: self._compare(turn, spec))
        else:
            result: QueryResult = self._timed(
                turn, "execute",
                lambda: self.kg.query(view.sparql, timeout_s=self.query_timeout_s, max_rows=MAX_ANSWERS + 1),
            )
            self._timed(turn, "labels", lambda: self._fill_answers(turn, result))
        turn.answered = bool(turn.answers) or turn.boolean is not None
        if not turn.answered:
            turn.status = "abstained"
            turn.candidates[chosen].kept = False
            turn.sparql = None
            turn.confidence = None
            turn.rank = None

    def _decide(self, turn: Turn, candidates: Sequence[Candidate]) -> Decision:
        """The confidence stage: which of the first candidates to keep, with its calibrated
        probability; the views of those candidates get their scores."""
        assert self.confidence is not None
        confidence = self.confidence
        decision: Decision = self._timed(turn, "confidence",
                                         lambda: confidence.decide(turn.question, turn.lang, candidates))
        for i, p in enumerate(decision.probabilities):
            view = turn.candidates[i]
            view.passed = p >= decision.threshold
            if i < len(decision.validator_scores):
                view.validator_score = round(decision.validator_scores[i], 6)
                view.verbalization = decision.verbalizations[i]
        if decision.index is None:
            turn.notes.append(f"confidence {decision.probability:.3f} below {decision.threshold:.3f}")
        return decision

    def _choose(self, turn: Turn, use_validator: bool) -> int | None:
        if not (use_validator and self.scorer is not None and self.verbalize is not None and self.gate is not None):
            return 0
        verbalize, scorer, gate = self.verbalize, self.scorer, self.gate

        # When no candidate could pass the gate even with a perfect validator score, the
        # answer is "don't know" whatever the scores: skip the cross-encoder.  Otherwise the
        # whole list is scored together, as in calibration (int8 activation scales depend on
        # the batch, so a candidate's score may shift a little with the list it is scored in).
        complex_mask = [is_complex(c.sparql) for c in turn.candidates]
        reachable = getattr(gate, "reachable", None)
        hopeless = reachable is not None and not any(
            reachable(c.backend_score, self.threshold, m) for c, m in zip(turn.candidates, complex_mask, strict=True))

        def score() -> list[float]:
            many = getattr(verbalize, "many", None)  # one label fetch for the whole list when offered
            sparqls = [c.sparql for c in turn.candidates]
            texts = many(sparqls, turn.lang) if many else [verbalize(s, turn.lang) for s in sparqls]
            for view, text in zip(turn.candidates, texts, strict=True):
                view.verbalization = text
            return [] if hopeless else scorer.score([(turn.question, t) for t in texts])

        scores = self._timed(turn, "validator", score)
        if hopeless:
            turn.notes.append("validator not run: no candidate's backend score lets it pass the gate")
            return None
        backend = [c.backend_score for c in turn.candidates]
        passes = getattr(gate, "passes", None)
        passed = passes(backend, scores, self.threshold, complex_mask) if passes else [
            s >= self.threshold for s in scores]
        for view, s, ok in zip(turn.candidates, scores, passed, strict=True):
            view.validator_score = round(float(s), 6)
            view.passed = bool(ok)
        return gate(backend, scores, self.threshold, complex_mask)

    def _compare(self, turn: Turn, spec: ComparisonSpec) -> None:
        """Two-entity comparison: answer with the winner (both when equal), or abstain
        with a message naming the entity whose value is unknown."""
        outcome = evaluate_comparison(self.kg, spec, timeout_s=self.query_timeout_s)
        if outcome.winner is None:
            unknown = [(spec.entity1, spec.entity2)[i - 1] for i in outcome.missing]
            # a property's labels sit on wd:P… (Wikidata dumps) or on wdt:P… (some extracts)
            prop_nodes = (entity_iri(spec.property), prop_iri(spec.property))
            iris = [entity_iri(q) for q in unknown] + list(prop_nodes)
            try:
                labels = fetch_labels(self.kg, iris, timeout_s=self.query_timeout_s)
            except KGError:
                labels = {}
            names = [pick_label(labels.get(entity_iri(q), {}), turn.lang)[0] or q for q in unknown]
            prop_labels = {lang: names for node in prop_nodes for lang, names in labels.get(node, {}).items()}
            prop = pick_label(prop_labels, turn.lang)[0] or spec.property
            turn.message_key = "comparison_unknown"
            turn.message_args = {"entity": ", ".join(names), "property": prop}
            turn.notes.append(f"comparison: {spec.property} unknown for {', '.join(unknown)}")
            return
        turn.comparison = outcome.to_json()
        pair = (spec.entity1, spec.entity2)
        winners = pair if outcome.winner == 0 else (pair[outcome.winner - 1],)
        self._fill_answers(turn, QueryResult(["answer"], [{"answer": Term("uri", entity_iri(q))} for q in winners]))
        if outcome.winner == 0:
            turn.message_key = "comparison_equal"

    def _fill_answers(self, turn: Turn, result: QueryResult) -> None:
        if result.boolean is not None:
            turn.boolean = result.boolean
            return
        terms: list[Term] = [t for t in result.column() if t is not None]
        turn.total_answers = len(terms)
        terms = terms[:MAX_ANSWERS]
        uris = [t.value for t in terms if t.kind == "uri"]
        try:
            labels = fetch_labels(self.kg, uris, timeout_s=self.query_timeout_s) if uris else {}
        except KGError:
            labels = {}
        items = []
        for t in terms:
            if t.kind == "uri":
                label, label_lang = pick_label(labels.get(t.value, {}), turn.lang)
                qid = local_id(t.value)
                items.append(AnswerItem(t.value, qid, label or qid or t.value, label_lang))
            else:
                items.append(AnswerItem(t.value, None, t.value, t.lang, t.datatype, "literal"))
        turn.answers = items


def _message_key(turn: Turn) -> str:
    if turn.status == "ok":
        return "answer_intro"
    if turn.status == "bad_input":
        return "empty_question"
    if turn.status == "service_error":
        return "service_unavailable"
    if turn.status == "error":
        return "internal_error"
    return "dont_know"
