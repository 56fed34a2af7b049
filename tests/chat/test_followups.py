"""Follow-up questions through the real pipeline (issue 36): the hand-written two-turn
conversations of ``tests/data/followups.json``, at least 30 in at least 6 languages over
facts the KG holds: at least 80 % of the follow-ups right, none wrong, no unrelated second
question glued to the first turn's subject."""

from __future__ import annotations

import pytest

from evaluation.followups import figures, load, run
from qa.pipeline import Pipeline

pytestmark = pytest.mark.slow


def test_the_conversations_are_at_least_30_in_at_least_6_languages() -> None:
    conversations = load()
    followups = [c for c in conversations if c["kind"] == "followup"]
    assert len(followups) >= 30 and len({c["lang"] for c in followups}) >= 6
    assert any(c["kind"] == "unrelated" for c in conversations)
    assert all(len(c["turns"]) == 2 and c["expected"] for c in conversations)


@pytest.fixture(scope="module")
def pipeline(configured_pipeline) -> Pipeline:
    return configured_pipeline


def test_follow_ups_are_answered_right_and_never_wrong(pipeline: Pipeline) -> None:
    outcomes = [run(pipeline, c) for c in load()]
    f = figures(outcomes)
    wrong = [(o.conversation["turns"], [a.id for a in o.second.answers]) for o in outcomes if o.outcome == "wrong"]
    assert not wrong
    assert f["right"] >= 0.8 * f["followups"], f
    assert f["glued"] == 0 and f["unrelated_right"] == f["unrelated"], f
