"""The written recall sets' builder (benchmarks/recall.py): gold answers read off the KG."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.recall import SETS, build, written_items
from kg.client import EmbeddedKG
from tests import tiny_kg


def test_a_named_set_is_built_into_one_file_and_a_date_stays_a_literal(tmp_path: Path) -> None:
    source = tmp_path / "mine.tsv"
    source.write_text("# fact\tsubject\tproperty\n@B\tQ937\tP19\n@D\tQ937\tP569\n"
                      "B\ten\twording\twhere was einstein born\nD\tes\tgate\t¿Cuándo nació Einstein?\n",
                      encoding="utf-8")
    counts = build(EmbeddedKG(tiny_kg.memory_store()), source, tmp_path, name="mine")
    assert counts == {"wording": 1, "gate": 1} and sorted(p.name for p in tmp_path.glob("*.json")) == ["mine.json"]
    questions = json.loads((tmp_path / "mine.json").read_text(encoding="utf-8"))["questions"]
    born, date = (q["answers"][0]["results"]["bindings"][0]["result"] for q in questions)
    assert born == {"type": "uri", "value": tiny_kg.WD + "Q3012"}
    assert date["type"] == "literal" and date["value"].startswith("1879-03-14")
    assert date["datatype"].endswith("dateTime")
    assert [it.text for it in written_items(tmp_path, name="mine")] == [
        "where was einstein born", "¿Cuándo nació Einstein?"]


def test_the_simple_set_is_shipped_built() -> None:
    """``simple.tsv`` is built: every string of it is in ``simple.json``."""
    rows = [line for line in SETS["simple"].read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith(("#", "@"))]
    items = written_items(name="simple")
    assert len(items) == len(rows) >= 90 and len({it.lang for it in items}) >= 8


def test_the_paraphrase_sets_are_shipped_built_three_english_and_three_spanish_each() -> None:
    """``paraphrase.tsv`` is built into ``paraphrase.json``, and every fact of it and every
    question of ``shapes_paraphrase.json`` has three English and three Spanish strings."""
    import json
    from collections import Counter

    from benchmarks.shapes import SETS as SHAPE_SETS
    from benchmarks.shapes import load

    rows = [line.split("\t") for line in SETS["paraphrase"].read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith(("#", "@"))]
    items = written_items(name="paraphrase")
    assert len(items) == len(rows) >= 180
    per_fact = Counter((fact, lang) for fact, lang, _, _ in rows)
    assert set(per_fact.values()) == {3} and {lang for _, lang in per_fact} == {"en", "es"}
    complex_ = load(SHAPE_SETS["paraphrase"])
    per_question = Counter((q["id"], q["language"]) for q in complex_)
    assert len(complex_) >= 170 and set(per_question.values()) == {3}
    assert {q["shape"] for q in complex_} >= {"count", "list", "intersection", "exclusion", "alive"}
    assert json.loads(SHAPE_SETS["paraphrase"].read_text(encoding="utf-8"))["about"]
