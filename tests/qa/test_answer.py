"""answer_and_log: answer, render, commit to a real SQLite session log, then hand back."""

from __future__ import annotations

from pathlib import Path

import pytest

from backends.fake import FakeBackend
from core.errors import SessionLogError
from kg.client import EmbeddedKG
from qa.answer import TurnNotLogged, answer_and_log
from qa.candidate import Candidate
from qa.pipeline import Pipeline, Validation
from qa.turn import Status, Turn
from service.session_log import SessionLog
from tests import tiny_kg
from tests.stages import Verbalize
from validator.gate import GatePolicy

BIRTHPLACE = "SELECT DISTINCT ?answer WHERE { wd:Q937 wdt:P19 ?answer . }"
SCRIPT = {"Where was Einstein born?": [Candidate(BIRTHPLACE, 0.9)]}


class Sure:
    def predict(self, pairs):
        return [0.9] * len(pairs)


def _pipeline(**kwargs) -> Pipeline:
    return Pipeline(FakeBackend(SCRIPT), EmbeddedKG(tiny_kg.memory_store()), **kwargs)


@pytest.fixture
def session_log(tmp_path: Path):
    with SessionLog(tmp_path / "logs" / "sessions.sqlite") as log:
        yield log


def _render(turn: Turn, turn_id: str) -> str:
    return f"{turn.status}:{turn.lang}:{turn_id}"


def test_the_turn_is_committed_with_its_render_time_and_the_shown_text_carries_its_id(session_log):
    pipeline = _pipeline(validation=Validation(Verbalize(), Sure(), GatePolicy()), threshold=0.7)
    done = answer_and_log(pipeline, "Where was Einstein born?", None, session_log, render=_render,
                          session_id="s1", source="cli")
    assert done.turn.answered and done.shown == f"ok:en:{done.turn_id}"
    row = session_log.get_turn(done.turn_id)
    assert row is not None and (row["source"], row["session_id"], row["status"]) == ("cli", "s1", "ok")
    assert row["threshold"] == 0.7  # the validator gated this turn
    assert "render" in row["latency_ms"] and row["latency_ms"]["total"] == done.turn.timings_ms["total"]
    off = answer_and_log(pipeline, "Where was Einstein born?", "en", session_log, render=_render,
                         session_id="s1", source="cli", use_validator=False)
    assert session_log.get_turn(off.turn_id)["threshold"] is None  # type: ignore[index]


def test_without_a_log_nothing_is_written(session_log):
    done = answer_and_log(_pipeline(), "Where was Einstein born?", None, None, render=_render, session_id="s",
                          source="cli")
    assert done.turn_id is None and done.turn.answered and session_log.count() == 0


def test_bad_input_is_relocalized_and_can_be_left_out_of_the_log(session_log):
    pipeline = _pipeline()
    german_ui = answer_and_log(pipeline, "   ", None, session_log, render=_render, session_id="s", source="chat",
                               fallback_lang="de")
    assert german_ui.turn.status is Status.BAD_INPUT and german_ui.turn.lang == "de"  # nothing visible: the UI's
    russian = answer_and_log(pipeline, "Где " * 400, None, session_log, render=_render, session_id="s",
                             source="chat", fallback_lang="de")
    assert russian.turn.lang == "ru" and russian.turn.message_key == "too_long"
    assert session_log.count() == 2
    api = answer_and_log(pipeline, "", None, session_log, render=_render, session_id="s", source="api",
                         log_bad_input=False)
    assert api.turn_id is None and api.turn.lang == "en" and session_log.count() == 2


def test_a_refused_turn_is_rendered_and_logged_without_answering(session_log):
    pipeline = _pipeline()
    refused = Turn.unanswered("q", "fr", Status.RATE_LIMITED, message_args={"seconds": 3})
    done = answer_and_log(pipeline, "q", None, session_log, render=_render, session_id="s", source="chat",
                          refused=refused)
    assert done.turn is refused and refused.message_key == "rate_limited"
    assert pipeline.backend.calls == []
    assert session_log.get_turn(done.turn_id)["status"] == "rate_limited"  # type: ignore[index]


def test_a_failed_commit_withholds_the_answer_and_names_the_turn(tmp_path: Path):
    log = SessionLog(tmp_path / "sessions.sqlite")
    log.close()  # every write now fails inside SQLite
    with pytest.raises(TurnNotLogged) as caught:
        answer_and_log(_pipeline(), "Where was Einstein born?", None, log, render=_render, session_id="s",
                       source="api")
    assert isinstance(caught.value, SessionLogError) and caught.value.turn.answered
