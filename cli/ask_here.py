"""``kgqa ask`` answering in this process: build the pipeline (the cross-encoder, run by
ONNX Runtime, loads only if it scores, after the language models are freed), answer, and commit
the turn to the session log before it is printed.  :mod:`cli.ask` loads this module only
when no ``kgqa serve`` answered."""

from __future__ import annotations

import sys
import time

from chat.messages import message
from chat.render import ui_language
from core.errors import SessionLogError
from core.resilience import question_budget
from core.settings import Settings
from qa.answer import TurnNotLogged, answer_and_log
from qa.reading.detect import release_models
from qa.turn import Turn
from service.factory import build_pipeline
from service.session_log import SessionLog, new_session_id
from validator.runtime import LazyEncoder


def answer_here(settings: Settings, question: str, lang: str | None, *, use_validator: bool, log: bool,
                spent: dict[str, float]) -> Turn | None:
    """The answered (and, with ``log``, recorded) turn; ``None`` after telling stderr why the
    turn could not be recorded (nothing is shown then).  Raises :class:`ModelLoadError` when
    the configured validator cannot load (missing, or found corrupt when it first scored:
    the turn is logged as an error, and the caller exits non-zero)."""
    try:
        session_log = SessionLog(settings.log_path, store_ips=settings.store_ips) if log else None
    except SessionLogError as exc:
        print(f"kgqa ask: {exc} (--no-log answers without recording)", file=sys.stderr)
        return None
    try:
        with question_budget(settings.kg_budget_s):  # the start-up reads and the question share one budget
            return _answer(settings, question, lang, use_validator=use_validator, session_log=session_log,
                           spent=spent)
    except TurnNotLogged as exc:
        print(message("log_failed", ui_language(exc.turn.lang)), file=sys.stderr)
        print(f"({exc})", file=sys.stderr)
        return None
    finally:
        if session_log is not None:
            session_log.close()


def _answer(settings: Settings, question: str, lang: str | None, *, use_validator: bool,
            session_log: SessionLog | None, spent: dict[str, float]) -> Turn:
    """Build the pipeline, answer and log (see :func:`answer_here`)."""
    mark = time.perf_counter()
    # the question's language is settled before the cross-encoder loads: the language
    # models are freed first, so that the two never take memory at the same time
    pipeline = build_pipeline(settings, lazy_validator=True, before_validator_load=release_models,
                              require_validator=True)
    spent["load"] = time.perf_counter() - mark
    mark = time.perf_counter()
    scorer = pipeline.validation.scorer if pipeline.validation is not None else None
    if isinstance(scorer, LazyEncoder) and use_validator:
        scorer.prefetch()  # ONNX Runtime's session is built beside the question's generation
    try:
        done = answer_and_log(pipeline, question, lang, session_log, render=lambda turn, _turn_id: "",
                              session_id="cli-" + new_session_id()[:8], source="cli",
                              use_validator=use_validator, question_lang=lang)
    finally:
        if isinstance(scorer, LazyEncoder):
            scorer.wait()  # the process ends only after a load under way
    spent["answer"] = time.perf_counter() - mark
    if isinstance(scorer, LazyEncoder) and scorer.error is not None:
        raise scorer.error  # a corrupt model: an error exit, not "something went wrong"
    return done.turn
