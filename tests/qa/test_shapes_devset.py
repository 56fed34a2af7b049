"""(slow) The constraint shapes' dev set (``benchmarks/data/recall/shapes.json``): its facts
hold in the KG, it is large and multilingual, and its English and Spanish strings go through
the full pipeline (validator and gate) with few wrong answers and many right ones."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
ITEMS = json.loads((ROOT / "benchmarks" / "data" / "recall" / "shapes.json").read_text(encoding="utf-8"))["questions"]


@pytest.fixture(scope="module")
def full(full_store_kg):
    from core.settings import load_settings

    return full_store_kg[0], load_settings({}, validator=True)


def test_the_set_is_large_multilingual_and_covers_the_shapes():
    assert len(ITEMS) >= 120 and len({i["language"] for i in ITEMS}) >= 8
    assert {i["shape"] for i in ITEMS} == {"count", "list", "intersection", "conditions", "superlative", "alive",
                                           "exclusion"}


def test_every_gold_answer_is_the_kgs(full):
    from benchmarks.shapes import verify

    kg, _ = full
    assert verify(ITEMS, kg) == 0


def test_english_and_spanish_strings_are_answered_right_or_not_at_all(full):
    from benchmarks.shapes import run
    from service.factory import build_pipeline

    kg, settings = full
    records = run(build_pipeline(settings, kg=kg), [i for i in ITEMS if i["language"] in ("en", "es")])
    right = sum(r["verdict"] == "right" for r in records)
    wrong = [(r["question"], r["shown"]) for r in records if r["verdict"] == "wrong"]
    assert right / len(records) >= 0.4, (right, len(records))
    assert right / (right + len(wrong)) >= 0.92, wrong


def test_every_gold_answer_of_the_paraphrase_set_is_the_kgs(full):
    from benchmarks.shapes import SETS, load, verify

    kg, _ = full
    assert verify(load(SETS["paraphrase"]), kg) == 0
