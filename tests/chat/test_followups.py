"""Follow-up questions (issue 36): the hand-written two-turn conversations of
``tests/data/followups.json``, at least 30 in at least 6 languages over facts the KG holds.

Their figures through the real pipeline (at least 80 % of the follow-ups right, none wrong,
no unrelated second question glued to the first turn's subject) are checked in
``tests/chat/test_panels.py``, which asks the same conversations for its "why" panels: each
is asked once per run."""

from __future__ import annotations

from evaluation.followups import load


def test_the_conversations_are_at_least_30_in_at_least_6_languages() -> None:
    conversations = load()
    followups = [c for c in conversations if c["kind"] == "followup"]
    assert len(followups) >= 30 and len({c["lang"] for c in followups}) >= 6
    assert any(c["kind"] == "unrelated" for c in conversations)
    assert all(len(c["turns"]) == 2 and c["expected"] for c in conversations)
