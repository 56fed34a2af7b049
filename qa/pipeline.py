"""The answering pipeline, shared by the chat, ``kgqa ask``, ``kgqa evaluate`` and the
service.  A question flows through the stages in this order (:data:`STAGES`), each a
method of :class:`Pipeline` timed under its name in :attr:`Turn.timings_ms`:

detect (clean the text, detect its language, :mod:`qa.reading.detect`) -> context (a follow-up
read with the name it refers to, :mod:`qa.context`) -> read (the question read once: its
words, function words and cue words, :mod:`qa.reading.reading`; the decisions
and the local backend share it) -> generate (the backend's SPARQL candidates, screened by
the allow-list, :mod:`qa.generate`; a follow-up's candidates are then tied to what it refers
to by the context stage) -> verbalize (each candidate in words,
:mod:`qa.verbalize`) -> score (the cross-encoder, :mod:`qa.score`) -> gate (keep one or
abstain, :mod:`qa.gate`) -> execute (run the kept query, :mod:`qa.execute`) -> label
(name the answers in the user's language, :mod:`qa.label`) -> name (name what the first
candidates are about, for the explanation).

verbalize, score and gate run only with a :class:`Validation` (a validator-off pipeline
has none and keeps the backend's top candidate).  :meth:`Pipeline.answer` returns a
:class:`~qa.turn.Turn`, whose :meth:`~qa.turn.Turn.to_json` is the stable JSON contract of
``kgqa ask --json``."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from core.errors import InputError, KGError, KGQAError, QuestionTooLong, UnsupportedLanguage, is_service_fault
from kg.client import KG, QueryResult, Term, question_budget
from kg.sparql import entity_iri, local_id, prop_iri
from lang.stopwords import read_case
from qa.accents import restore_accents
from qa.candidate import COMPLEX_SHAPES, Candidate
from qa.context import Context, Facts, Resolution, split_parts, ties
from qa.context import resolve as resolve_followup
from qa.decisions import Case, Component, Verdict
from qa.decisions.components import Setting, build
from qa.decisions.coverage import ignored_name, partial_link, person_properties, worded_positions
from qa.decisions.namesake import better_known_reading, namesake_rival
from qa.decisions.reply import which_dont_know
from qa.execute import ComparisonOutcome, evaluate_comparison
from qa.gate import Gate, Reading
from qa.generate import Backend
from qa.guard import Screened, screen
from qa.label import names_for_ids, names_with_ids
from qa.reading.detect import (
    SUPPORTED_LANGUAGES,
    clean_question,
    detect_language,
    strip_courtesies,
    unsupported_args,
    unsupported_language,
)
from qa.reading.expect import AnswerTypes
from qa.reading.reading import read as read_question
from qa.score import Scorer, best_reading_scores
from qa.turn import AnswerItem, CandidateView, Status, Turn, message_key
from qa.verbalize import Verbalizer, readings_with_english

__all__ = ["MAX_ANSWERS", "STAGES", "AnswerItem", "CandidateView", "Generated", "Pipeline", "Status", "Turn",
           "Validation", "better_known_reading", "ignored_name", "namesake_rival", "partial_link"]

MAX_ANSWERS = 200
NAMED_CANDIDATES = 10
"""Candidates whose entities and properties are named (the explanation shows at most these)."""
NAMED_ARGS = frozenset({"only_know", "understood_no_value", "understood_unnamed", "not_understood", "data_lists"})
"""Replies whose arguments are ids to name (:mod:`qa.decisions.reply`, ``data_lists``)."""
STAGES = ("detect", "context", "read", "generate", "verbalize", "score", "gate", "execute", "label", "name")
"""The stages in question-flow order: the keys of :attr:`Turn.timings_ms` (plus ``total``)."""

T = TypeVar("T")
WDT_P31 = prop_iri("P31")
HUMAN = entity_iri("Q5")


@dataclass(frozen=True)
class Validation:
    """The validator's three stages: say each candidate in words, score it against the
    question, and gate (keep the reading most likely right when it clears the threshold, or
    abstain)."""

    verbalizer: Verbalizer
    scorer: Scorer
    gate: Gate


@dataclass(frozen=True)
class Generated:
    """The first half of the pipeline (:meth:`Pipeline.candidates`): the question as read
    (cleaned, courtesies set aside), the language it is answered in, and the backend's
    candidates, best first."""

    question: str
    lang: str
    candidates: list[Candidate]



class Pipeline:
    """The one answering pipeline.  ``validation`` is ``None`` with the validator off."""

    def __init__(
        self,
        backend: Backend,
        kg: KG,
        *,
        validation: Validation | None = None,
        threshold: float = 0.5,
        validator_state: str | None = None,
        max_question_chars: int = 1000,
        query_timeout_s: float = 5.0,
        answer_types: AnswerTypes | None = None,
        kg_budget_s: float | None = None,
    ) -> None:
        self.backend = backend
        self.kg = kg
        self.validation = validation
        self.threshold = threshold
        self.validator_state = validator_state or ("on" if validation is not None else "off")
        self.max_question_chars = max_question_chars
        self.query_timeout_s = query_timeout_s
        self.answer_types = answer_types  # what a question word asks for (qa.reading.expect); None: not checked
        self.kg_budget_s = kg_budget_s  # a remote KG's time per question (kg.client.question_budget); None: unbounded
        self.components: tuple[Component, ...] = build(Setting(kg, answer_types, query_timeout_s))
        """The decision components, in :data:`qa.decisions.ORDER` (:mod:`qa.decisions.components`)."""

    # ------------------------------------------------------------------ entry points

    def answer(self, question: str | None, lang: str | None = None, *, use_validator: bool = True,
               question_lang: str | None = None, context: Context | None = None) -> Turn:
        """Answer one question; never raises for user input or service faults.

        ``lang`` is the language of the answer (default: the question's); the question is
        parsed in ``question_lang`` when given, else in the language detected from its text.
        From generation on, a remote KG's requests share :attr:`kg_budget_s`; past it the turn
        is a service error.
        ``context``: what the previous turn of the conversation was about (a follow-up such
        as "and his wife?" is read about it, :mod:`qa.context`)."""
        started = time.perf_counter()
        turn = Turn(question=question or "", lang=lang if lang in SUPPORTED_LANGUAGES else "en", detected_lang=None,
                    backend=self.backend.name)
        turn.validator = self.validator_state if use_validator else "off"
        try:
            self._timed(turn, "detect", lambda: self.detect(turn, question, lang, question_lang))
            with question_budget(self.kg_budget_s):
                resolution = self._timed(turn, "context", lambda: self.resolve(turn, context))
                self._after_detect(turn, use_validator, resolution)
        except InputError as exc:
            self._fail(turn, Status.BAD_INPUT, exc)
        except KGQAError as exc:
            self._fail(turn, Status.SERVICE_ERROR if is_service_fault(exc) else Status.ERROR, exc)
        turn.timings_ms["total"] = round((time.perf_counter() - started) * 1000, 1)
        if not turn.message_key:
            turn.message_key = message_key(turn.status)
            turn.message_args = {"limit": self.max_question_chars}
        return turn

    def _after_detect(self, turn: Turn, use_validator: bool, resolution: Resolution | None) -> None:
        """generate .. name (the stages that read the KG, after the context stage), with the
        decision components (:mod:`qa.decisions`) after the gate."""
        reading = self._timed(turn, "read", lambda: read_question(read(turn), parse_lang(turn)))
        screened = self._timed(turn, "generate", lambda: self.generate(turn))
        if resolution is not None and turn.context is not None:
            screened = self._timed(turn, "context", lambda: self.tie(turn, resolution, screened), add=True)
            reading = read_question(read(turn), parse_lang(turn))  # the question the tie settled on
        generated = self._report(turn, screened)
        candidates = [c for c in generated if not c.no_value]
        case = Case(read(turn), parse_lang(turn), candidates, turn.candidates,
                    readings=[c for c in generated if c.no_value], rejected=len(turn.rejected), reading=reading)
        case.worded = worded_positions(case.question, case.tokens, case.lang, self.answer_types)
        case.person_properties = person_properties(generated, self.answer_types)
        guarded = self._decide(turn, case, "screen")
        if candidates:
            self._answer(turn, case, self.validation if use_validator else None)
        else:
            turn.status = Status.NO_CANDIDATES
            self._dont_know(turn, case, guarded)
        ids = _ids_to_name(turn)
        if ids:
            self._timed(turn, "name", lambda: self.name(turn, ids))
        _word_listed(turn)

    def candidates(self, question: str | None, lang: str | None = None) -> Generated:
        """The first half of :meth:`answer` (detect, generate), as QAnswer's ``/api/qa/full``
        serves it.  Raises :class:`~core.errors.InputError` for bad input and
        :class:`~core.errors.BackendError` / :class:`~core.errors.KGError` on faults."""
        turn = Turn(question=question or "", lang="en", detected_lang=None, backend=self.backend.name)
        self.detect(turn, question, lang)
        return Generated(read(turn), turn.lang, [c for c in self.generate(turn).as_written if not c.no_value])

    # ------------------------------------------------------------------ the stages, in order

    def detect(self, turn: Turn, question: str | None, lang: str | None, question_lang: str | None = None) -> None:
        """Clean the question (raises :class:`~core.errors.InputError`), detect its language,
        and settle the language of the answer (the asked one when supported) and the one the
        question is parsed in (``question_lang`` when supported, else the detected one)."""
        ui_lang = lang if lang in SUPPORTED_LANGUAGES else None
        typed = clean_question(question, self.max_question_chars)
        asked = strip_courtesies(typed)
        if asked != typed:
            turn.notes.append("read without the courtesies around it")
        text = read_case(asked)
        if text != asked:
            turn.notes.append("every word was in capitals or capitalized: read in lower case")
        turn.question = typed
        turn.read_as = text if text != typed else None
        turn.detected_lang = detect_language(text)
        other = None if question_lang in SUPPORTED_LANGUAGES else unsupported_language(text, turn.detected_lang)
        if other is not None:  # never answered in a guessed other language: say which it is
            turn.detected_lang, turn.lang = other, ui_lang or "en"
            raise UnsupportedLanguage(other)
        turn.lang = ui_lang or turn.detected_lang or "en"
        turn.question_lang = question_lang if question_lang in SUPPORTED_LANGUAGES else turn.detected_lang
        accented = restore_accents(text, parse_lang(turn))
        if accented != text:  # « y donde murio » is read « y dónde murió » (qa.accents)
            turn.notes.append("typed without some accents: read with them")
            turn.read_as = accented
        if lang and lang not in SUPPORTED_LANGUAGES:
            turn.notes.append(f"unsupported language {lang!r}, using {turn.lang!r}")

    def resolve(self, turn: Turn, context: Context | None) -> Resolution | None:
        """The conversation: a two-part question is read as its first part (the second is
        left in ``turn.second_part``); a follow-up of ``context`` ("and his wife?") is read
        rewritten with the name it refers to (:func:`qa.context.resolve`), recorded in
        ``turn.context``.  ``None`` when the question is one of its own."""
        parts = split_parts(read(turn), parse_lang(turn))
        if parts is not None:
            turn.read_as, turn.second_part = parts
            turn.notes.append(f"two questions in one: this turn answers {parts[0]!r}")
        if not context:
            return None
        lang = parse_lang(turn)
        facts = Facts(is_person=lambda qid: self._is_person(qid),
                      name=lambda item: self._name_in(item, lang))
        resolution = resolve_followup(read(turn), lang, context, facts)
        turn.context = {"given": context.to_json(), "resolution": resolution.to_json() if resolution else None,
                        "tied": resolution is not None}
        if resolution is not None:
            resolution = replace(resolution, before=turn.read_as)
            turn.read_as = resolution.question
            turn.notes.append(f"follow-up: {', '.join(resolution.words) or resolution.kind} read as "
                              f"{resolution.name} ({resolution.referent})")
        return resolution

    def _is_person(self, qid: str) -> bool:
        """Whether ``qid`` is a human (``wdt:P31 wd:Q5``); ``False`` when the KG cannot say."""
        try:
            result = self.kg.query(f"ASK {{ <{entity_iri(qid)}> <{WDT_P31}> <{HUMAN}> }}",
                                   timeout_s=self.query_timeout_s)
        except KGQAError:
            return False
        return bool(result.boolean)

    def _answers_people(self, candidate: Candidate) -> bool:
        """Whether ``candidate``'s answers (``?answer`` of its triple patterns) are people."""
        if not candidate.triples or not any("?answer" in t for t in candidate.triples):
            return False
        patterns = " . ".join(" ".join(t) for t in candidate.triples)
        try:
            result = self.kg.query(f"ASK {{ {patterns} . ?answer <{WDT_P31}> <{HUMAN}> }}",
                                   timeout_s=self.query_timeout_s)
        except KGQAError:
            return False
        return bool(result.boolean)

    def _name_in(self, item: str, lang: str) -> str | None:
        """The name of ``item`` in ``lang`` (else the fallback chain's), ``None`` when unnamed."""
        return names_for_ids(self.kg, [item], lang, timeout_s=self.query_timeout_s).get(item, (None, None))[0]

    def generate(self, turn: Turn) -> Screened:
        """The backend's candidates for the question as read, best first, through the SPARQL
        allow-list (:mod:`qa.guard`): nothing later runs, scores or shows a rejected candidate."""
        return screen(self.backend.ask(read(turn), parse_lang(turn)))

    def tie(self, turn: Turn, resolution: Resolution, screened: Screened) -> Screened:
        """The context stage on a follow-up's candidates: only those about what it refers to
        (asked "Who is …?" when their answers are people); when none is, the question as
        asked, on its own (generated anew, never glued to the previous subject)."""
        tied = [c for c in screened.accepted if ties(resolution, c.entities, c.properties)]
        context = turn.context if turn.context is not None else {}
        if tied:
            if resolution.frames is not None:  # "wife of Mozart": asked "Who is …?" when its answers are people
                turn.read_as = resolution.frames[0 if self._answers_people(tied[0]) else 1]
                context["asked"] = turn.read_as
            return Screened(tied, screened.as_written, screened.rejected)
        turn.read_as = resolution.before
        context["tied"] = False
        turn.notes.append("no reading ties the question to the previous turn: answered on its own")
        return self.generate(turn)

    @staticmethod
    def _report(turn: Turn, screened: Screened) -> list[Candidate]:
        """The screened candidates, reported in ``turn.candidates`` and ``turn.rejected``."""
        candidates, turn.rejected = screened.accepted, screened.report()
        turn.candidates = [CandidateView(c.sparql, round(float(c.score), 6), shape=c.shape, entities=c.entities,
                                         properties=c.properties) for c in candidates if not c.no_value]
        return candidates

    def could_pass(self, turn: Turn, candidates: list[Candidate], gate: Gate) -> list[bool]:
        """Per candidate: whether it is scored (and read in English as well): one of the first
        ``gate.judged``, or one that could pass ``gate`` with a perfect validator score."""
        return [i < gate.judged or gate.reachable(c.backend_score, self.threshold, m)
                for i, (c, m) in enumerate(zip(turn.candidates, _complex_mask(candidates), strict=True))]

    def verbalize(self, turn: Turn, candidates: list[Candidate], verbalizer: Verbalizer,
                  could_pass: Sequence[bool]) -> list[tuple[str, ...]]:
        """Every candidate's readings in words (the first is kept for the explanation, even
        when none is scored).  A question not in English also has its plain candidates that
        ``could_pass`` read in English (the validator keeps a candidate's best reading; most
        property names of this KG are English only), and its complex candidates too when they
        are among the first (:data:`qa.verbalize.COMPLEX_IN_ENGLISH`)."""
        readings = readings_with_english(verbalizer, candidates, parse_lang(turn), could_pass, read(turn))
        for view, texts in zip(turn.candidates, readings, strict=True):
            view.verbalization = texts[0]
        return readings

    def score(self, turn: Turn, readings: list[tuple[str, ...]], scorer: Scorer,
              could_pass: Sequence[bool], candidates: Sequence[Candidate] = ()) -> list[float | None] | None:
        """The validator's score of each candidate that ``could_pass`` the gate (its best
        reading's, paired with the question); ``None`` for a candidate whose backend score
        keeps it below the threshold even with a perfect score (the gate's decision is the
        same whatever it would score), and ``None`` for the whole list when no candidate
        could pass (the answer is then "don't know", and the cross-encoder is skipped).

        The candidates that could pass are scored in one batch; at run time the validator
        is fp32, where a pair's score does not depend on the pairs scored with it
        (``benchmarks/validator_drift.py``)."""
        if not any(could_pass):
            turn.notes.append("validator not run: no candidate's backend score lets it pass the gate")
            return None
        links = [c.links for c in candidates] if candidates else [() for _ in readings]
        scored = iter(best_reading_scores(scorer, read(turn), [r for r, ok in zip(readings, could_pass, strict=True)
                                                               if ok], parse_lang(turn),
                                          [lk for lk, ok in zip(links, could_pass, strict=True) if ok]))
        return [next(scored) if ok else None for ok in could_pass]

    def gate(self, turn: Turn, candidates: list[Candidate], scores: list[float | None], gate: Gate) -> int | None:
        """The index of the kept candidate, or ``None`` to abstain; every scored candidate's
        score, what the gate compared and whether it cleared the threshold are reported (a
        candidate left unscored keeps ``None``)."""
        lang = parse_lang(turn)
        readings = [Reading(None if s is None else float(s), view.backend_score, i, c.shape, m, lang, c.links,
                            worded=c.worded)
                    for i, (c, view, s, m) in enumerate(zip(candidates, turn.candidates, scores,
                                                             _complex_mask(candidates), strict=True))]
        decision = gate.decide(readings, self.threshold)
        if decision.chosen is None:  # none kept: are the readings in doubt, or one answer said twice?
            answers = self.judged_answers(candidates, scores)
            if any(a is not None for a in answers):
                readings = [replace(r, answers=a) for r, a in zip(readings, answers, strict=True)]
                decision = gate.decide(readings, self.threshold)
        for i, (view, s) in enumerate(zip(turn.candidates, scores, strict=True)):
            if s is None:
                continue
            view.validator_score = round(float(s), 6)
            view.passed = decision.passed(i)
            view.compared = decision.compared[i]
        return decision.chosen

    def judged_answers(self, candidates: Sequence[Candidate], scores: Sequence[float | None]
                       ) -> list[frozenset[str] | None]:
        """The values each scored plain reading answers with (at most :data:`MAX_ANSWERS` + 1;
        ``None``: not run, when fewer than two such readings were scored or its query failed):
        what tells the gate which readings say one answer two ways (:meth:`Reading.agrees`)."""
        runnable = [i for i, (c, s) in enumerate(zip(candidates, scores, strict=True))
                    if s is not None and c.shape == "plain" and c.comparison is None and not c.no_value]
        out: list[frozenset[str] | None] = [None] * len(candidates)
        if len(runnable) < 2:
            return out
        for i in runnable:
            try:
                result = self.kg.query(candidates[i].sparql, timeout_s=self.query_timeout_s, max_rows=MAX_ANSWERS + 1)
            except KGError:
                continue
            out[i] = frozenset(t.value for row in result.rows for t in row.values() if t is not None)
        return out

    def execute(self, turn: Turn, kept: Candidate) -> QueryResult | ComparisonOutcome:
        """Run the kept query (at most :data:`MAX_ANSWERS` + 1 rows), or evaluate a
        two-entity comparison (both values fetched, compared in Python)."""
        if kept.comparison is not None:
            return evaluate_comparison(self.kg, kept.comparison, timeout_s=self.query_timeout_s)
        return self.kg.query(kept.sparql, timeout_s=self.query_timeout_s, max_rows=MAX_ANSWERS + 1)

    def name(self, turn: Turn, ids: set[str]) -> None:
        """Name ``ids`` (what the first candidates are about: their entities and properties)
        in the user's language, for the "what I understood" line and the explanation (those
        the label stage named with the answers are not read again)."""
        unnamed = set(ids) - turn.names.keys()
        if unnamed:
            turn.names.update(names_for_ids(self.kg, unnamed, turn.lang, timeout_s=self.query_timeout_s))

    def label(self, turn: Turn, result: QueryResult | ComparisonOutcome) -> None:
        """Name the answers in (or near) the user's language; a comparison answers with its
        winner (both when equal), or names the entity whose value is unknown."""
        if isinstance(result, ComparisonOutcome):
            self._label_comparison(turn, result)
        else:
            self._fill_answers(turn, result)

    # ------------------------------------------------------------------ wiring

    def _answer(self, turn: Turn, case: Case, validation: Validation | None) -> None:
        """Stages verbalize .. label for a non-empty candidate list, then the decision
        components (:mod:`qa.decisions`) in order: the first that withholds ends the turn
        with "I don't know", and which one it is (:func:`qa.decisions.reply.which_dont_know`)."""
        candidates = case.candidates
        case.chosen = self._choose(turn, candidates, validation)
        case.validated = validation is not None
        verdict = self._decide(turn, case, "choose")
        if verdict is not None:
            self._withhold(turn, case, verdict)
            return
        chosen = case.chosen
        assert chosen is not None  # the gate withholds when nothing was kept
        view = turn.candidates[chosen]
        view.kept = True
        turn.rank = chosen + 1
        turn.sparql = view.sparql
        turn.confidence = answer_probability(view, validation)
        result = self._timed(turn, "execute", lambda: self.execute(turn, candidates[chosen]))
        if isinstance(result, QueryResult):
            case.result = result
            verdict = self._decide(turn, case, "result")
            if verdict is not None:
                view.passed = False  # not "understood": the reading does not answer what was asked
                self._unkeep(turn)
                self._withhold(turn, case, verdict)
                return
        self._timed(turn, "label", lambda: self.label(turn, result))
        turn.answered = bool(turn.answers) or turn.boolean is not None
        if not turn.answered:
            self._unkeep(turn)
            turn.status = Status.ABSTAINED
            if not turn.message_key:
                turn.message_key, turn.message_args = which_dont_know(case, None, executed_empty=True,
                                                                      unnamed=len(turn.unnamed))

    def _decide(self, turn: Turn, case: Case, phase: str) -> Verdict | None:
        """The components of ``phase``, in order, each verdict recorded; the first that
        withholds the answer ends the phase (returned); a verdict that lets it through with a
        message of its own sets the turn's message, or, for a count, the things it counts
        (:attr:`Turn.counted`)."""
        for component in self.components:
            if component.phase != phase:
                continue
            verdict = self._record(turn, component, component(case))
            if verdict.withheld:
                return verdict
            if verdict.message_key == "counted":  # a count: the things it counts go with the number
                turn.counted = dict(verdict.message_args)
            elif verdict.message_key:
                turn.message_key, turn.message_args = verdict.message_key, dict(verdict.message_args)
        return None

    def _record(self, turn: Turn, component: Component, verdict: Verdict) -> Verdict:
        """Note a component's verdict in the turn (its reason in the notes as the component
        declares: ``noted``), and which one withheld the answer."""
        turn.decisions.append(verdict.to_json())
        if verdict.reason and (component.noted == "always" or (component.noted == "withheld" and verdict.withheld)):
            turn.notes.append(verdict.reason)
        if verdict.withheld and turn.withheld_by is None:
            turn.withheld_by = verdict.component
        return verdict

    def _withhold(self, turn: Turn, case: Case, verdict: Verdict) -> None:
        """End the turn with "I don't know", saying which (:func:`which_dont_know`)."""
        turn.status = Status.ABSTAINED
        self._dont_know(turn, case, verdict)

    def _dont_know(self, turn: Turn, case: Case, verdict: Verdict | None) -> None:
        turn.message_key, turn.message_args = which_dont_know(case, verdict)

    @staticmethod
    def _unkeep(turn: Turn) -> None:
        for view in turn.candidates:
            view.kept = False
        turn.sparql = None
        turn.confidence = None
        turn.rank = None
        turn.answers = []
        turn.boolean = None
        turn.total_answers = 0
        turn.counted = None

    def _choose(self, turn: Turn, candidates: list[Candidate], validation: Validation | None) -> int | None:
        """verbalize -> score -> gate; without validation the backend's top candidate."""
        if validation is None:
            return 0
        could_pass = self.could_pass(turn, candidates, validation.gate)
        readings = self._timed(turn, "verbalize", lambda: self.verbalize(turn, candidates, validation.verbalizer,
                                                                          could_pass))
        scores = self._timed(turn, "score", lambda: self.score(turn, readings, validation.scorer, could_pass,
                                                               candidates))
        if scores is None:
            return None
        return self._timed(turn, "gate", lambda: self.gate(turn, candidates, scores, validation.gate))

    def _fail(self, turn: Turn, status: Status, exc: Exception) -> None:
        turn.status = status
        turn.message_key, turn.message_args = "", {}  # a fault's message, not a decision's
        turn.withheld_by = None
        if isinstance(exc, QuestionTooLong):
            turn.message_key, turn.message_args = "too_long", {"limit": exc.limit}
        elif isinstance(exc, UnsupportedLanguage):
            turn.message_key, turn.message_args = "unsupported_language", unsupported_args(exc.lang, turn.lang)
        turn.error = f"{type(exc).__name__}: {exc}"
        turn.answered = False
        turn.answers = []
        turn.boolean = None
        turn.sparql = turn.confidence = turn.rank = None  # a failed turn keeps no chosen query
        for view in turn.candidates:
            view.kept = False

    def _timed(self, turn: Turn, stage: str, fn: Callable[[], T], *, add: bool = False) -> T:
        """``fn()``, its time recorded under ``stage`` (``add``: added to the stage's time so far)."""
        t0 = time.perf_counter()
        try:
            return fn()
        finally:
            spent = (time.perf_counter() - t0) * 1000 + (turn.timings_ms.get(stage, 0.0) if add else 0.0)
            turn.timings_ms[stage] = round(spent, 1)

    def _label_comparison(self, turn: Turn, outcome: ComparisonOutcome) -> None:
        spec = outcome.spec
        if outcome.winner is None:
            unknown = [(spec.entity1, spec.entity2)[i - 1] for i in outcome.missing]
            named = names_for_ids(self.kg, [*unknown, spec.property], turn.lang, timeout_s=self.query_timeout_s)
            names = [named.get(q, (None, None))[0] or "?" for q in unknown]  # never a bare id
            prop = named.get(spec.property, (None, None))[0] or "?"
            turn.message_key = "comparison_unknown"
            turn.message_args = {"entity": ", ".join(names), "property": prop}
            turn.notes.append(f"comparison: {spec.property} unknown for {', '.join(unknown)}")
            return
        turn.comparison = outcome.to_json()
        turn.names.update(names_for_ids(self.kg, {spec.entity1, spec.entity2, spec.property} - turn.names.keys(),
                                        turn.lang, timeout_s=self.query_timeout_s))  # the sentence names all three
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
        names: dict[str, tuple[str | None, str | None]] = {}
        if uris:  # with the ids the name stage would read next: one request
            names, named = names_with_ids(self.kg, uris, _ids_to_name(turn), turn.lang,
                                          timeout_s=self.query_timeout_s)
            turn.names.update(named)
        items = []
        for t in terms:
            if t.kind == "uri":
                if t.value in names and not names[t.value][0]:  # a value without a name is never shown
                    turn.unnamed.append(t.value)  # (issue 36), but it is part of the result (QALD output)
                    continue
                label, label_lang = names.get(t.value, (None, None))  # absent: the names could not be read
                qid = local_id(t.value)
                items.append(AnswerItem(t.value, qid, label or qid or t.value, label_lang))
            else:
                items.append(AnswerItem(t.value, None, t.value, t.lang, t.datatype, "literal"))
        if len(items) < len(terms):
            turn.notes.append(f"{len(terms) - len(items)} answer(s) without a name in the data left out")
            turn.total_answers -= len(terms) - len(items)
        turn.answers = items


def _complex_mask(candidates: list[Candidate]) -> list[bool]:
    """Per candidate: whether it has one of the complex shapes the gate may treat apart."""
    return [c.shape in COMPLEX_SHAPES for c in candidates]


def _ids_to_name(turn: Turn) -> set[str]:
    ids = {i for view in turn.candidates[:NAMED_CANDIDATES] for i in (*view.entities, *view.properties)}
    args = turn.message_args
    if turn.message_key in NAMED_ARGS:  # ids the decisions' replies name (other messages carry text)
        ids.update(str(args[k]) for k in ("qid", "entity", "property") if k in args)
        ids.update(str(i) for i in args.get("ids", ()))
    if turn.counted:
        ids.update(str(i) for i in turn.counted.get("ids", ()))
    return ids



def _word_listed(turn: Turn) -> None:
    """The reply to a COUNT withheld by the ``number`` decision (``data_lists``): its count and
    the things counted, named in the user's language ("my data lists N: a, b, …"); the same for
    the things a shown count counts (:attr:`Turn.counted`)."""
    if turn.counted:
        _name_items(turn, turn.counted)
    if turn.message_key == "data_lists":
        _name_items(turn, turn.message_args)


def _name_items(turn: Turn, args: dict) -> None:
    ids = [str(i) for i in args.get("ids", ())]
    names = [name for i in ids if (name := turn.names.get(i, (None, None))[0])]  # never a bare id
    args.setdefault("n", str(len(ids)))
    args["unnamed"] = len(ids) - len(names)  # counted by the reply ("and 4 more without a name in my data")
    args["items"] = ", ".join(names) + ("…" if args.get("more") else "")


def read(turn: Turn) -> str:
    """The question as the stages read it: as typed (cleaned), unless :meth:`Pipeline.detect`
    set courtesies aside or lowered capitals that say nothing (:attr:`Turn.read_as`)."""
    return turn.read_as or turn.question


def parse_lang(turn: Turn) -> str:
    """The language the question is read in: the chosen question language, else the detected one."""
    return turn.question_lang or turn.detected_lang or turn.lang


def answer_probability(view: CandidateView, validation: Validation | None) -> float | None:
    """The calibrated probability that the kept candidate's answer is right: what the learned
    gate compared (:class:`validator.gate.LearnedGate`); ``None`` where the gate compared
    another score (the validator off, a gate without an answer model)."""
    if validation is None or view.compared is None:
        return None
    if view.compared.probability is not None:  # the score gate decided; the model still says its chance
        return round(float(view.compared.probability), 6)
    if view.compared.score_name != "probability":
        return None
    return round(float(view.compared.score), 6)
