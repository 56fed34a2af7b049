"""Follow-up questions (issue 36): two-turn conversations asked through the pipeline as the
chat asks them (the second turn with the first's context, :mod:`qa.context`), and how they
ended.  ``benchmarks/followups.py`` prints the figure; ``tests/chat/test_followups.py``
checks it.

A follow-up is *right* when its answers are exactly the expected ids, *wrong* when it
answers anything else, *abstained* when it says "I don't know"; an unrelated second
question is *glued* when it was tied to the first turn's subject.  A conversation whose
first turn is not answered counts its follow-up as abstained (it had nothing to refer to).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from qa.answer import Answerer
from qa.context import context_after
from qa.turn import Turn

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "followups.json"
"""The hand-written conversations."""


@dataclass(frozen=True)
class Outcome:
    """One conversation's result: ``right``, ``wrong`` or ``abstained``, and ``glued`` for an
    unrelated second question tied to the first turn."""

    conversation: dict[str, Any]
    outcome: str
    glued: bool
    first: Turn
    second: Turn


def load(path: Path = DATA) -> list[dict[str, Any]]:
    """The conversations of ``tests/data/followups.json``."""
    conversations: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["conversations"]
    return conversations


def run(pipeline: Answerer, conversation: dict[str, Any], *, with_context: bool = True) -> Outcome:
    """Ask both turns, the second with the first's context (``with_context=False``: on its
    own, as the chat did before issue 36: the baseline)."""
    first_q, second_q = conversation["turns"]
    first = pipeline.answer(first_q)
    second = pipeline.answer(second_q, context=context_after(first, None) if with_context else None)
    ids = {a.id for a in second.answers}
    if not second.answered:
        outcome = "abstained"
    elif ids == set(conversation["expected"]):
        outcome = "right"
    else:
        outcome = "wrong"
    glued = conversation["kind"] == "unrelated" and bool(second.context and second.context.get("tied"))
    return Outcome(conversation, outcome, glued, first, second)


def figures(outcomes: list[Outcome]) -> dict[str, Any]:
    """The counts by kind and outcome."""
    follow = [o for o in outcomes if o.conversation["kind"] == "followup"]
    unrelated = [o for o in outcomes if o.conversation["kind"] == "unrelated"]
    counts = Counter(o.outcome for o in follow)
    return {"followups": len(follow), "right": counts["right"], "wrong": counts["wrong"],
            "abstained": counts["abstained"], "unrelated": len(unrelated),
            "unrelated_right": sum(o.outcome == "right" for o in unrelated),
            "glued": sum(o.glued for o in unrelated),
            "languages": sorted({o.conversation["lang"] for o in outcomes})}


