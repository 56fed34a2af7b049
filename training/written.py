"""The written complex test questions (``tests/data/complex_questions.json``): loading and
judging a turn against a question's expected outcome.

Each question names its ``expected`` outcome: ``uri`` values, a ``number``, a ``boolean``
or ``abstain`` (e.g. a comparison where one value is missing from the KG).  A turn is
``correct`` when it shows exactly that (or abstains where it should), ``abstain`` when it
shows nothing where an answer was expected, and ``wrong`` otherwise.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

WRITTEN = Path(__file__).resolve().parent.parent / "tests" / "data" / "complex_questions.json"


def load_written(path: Path = WRITTEN) -> list[dict[str, Any]]:
    """The written questions (one dict per language string)."""
    return json.loads(Path(path).read_text(encoding="utf-8"))["questions"]


def judge(turn: Mapping[str, Any], q: Mapping[str, Any]) -> str:
    """``correct`` / ``abstain`` / ``wrong`` for one turn (``Turn.to_json()``) of question ``q``."""
    exp = q["expected"]
    if not turn["answered"]:
        return "correct" if exp["type"] == "abstain" else "abstain"
    if exp["type"] == "abstain":
        return "wrong"
    if exp["type"] == "boolean":
        return "correct" if turn["boolean"] is exp["value"] else "wrong"
    got = sorted((a["id"] or a["value"]) for a in turn["answers"])
    if exp["type"] == "number":
        return "correct" if got == [exp["value"]] else "wrong"
    ok = got == sorted(exp["values"])
    if ok and q.get("comparison") and turn.get("comparison"):
        ok = turn["comparison"]["winner"] == q["comparison"]["winner"] or (
            {turn["comparison"]["entity1"], turn["comparison"]["entity2"]}
            == {q["comparison"]["entity1"], q["comparison"]["entity2"]})
    return "correct" if ok else "wrong"


def tally(verdicts: Iterable[tuple[Mapping[str, Any], str]]) -> dict[str, dict[str, int]]:
    """Verdict counts overall (``all``), per kind and per language."""
    out: dict[str, Counter[str]] = defaultdict(Counter)
    for q, verdict in verdicts:
        for group in ("all", f"kind={q['kind']}", f"lang={q['lang']}"):
            out[group][verdict] += 1
    return {k: dict(v) for k, v in sorted(out.items(), key=lambda kv: (kv[0] != "all", kv[0]))}
