"""(slow) The name rule on the hand-written set of ``benchmarks/data/label_choice.json``
(204 entities of the union KG in 8 languages, with the name a native reader expects): the
rule is right on at least 95 % of it (the issue's goal; 95.1 % measured, docs/replies.md),
and the issue's own examples are right."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg.sparql import entity_iri
from qa.label import fetch_names

pytestmark = pytest.mark.slow

WRITTEN = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "label_choice.json"
MEASURED = 0.95


@pytest.fixture(scope="module")
def kg(shared_kg_source):
    from core.settings import load_settings
    from service.factory import open_kg

    return open_kg(load_settings({}))


def test_the_set_is_large_multilingual_and_well_formed() -> None:
    rows = json.loads(WRITTEN.read_text(encoding="utf-8"))["entities"]
    assert len(rows) >= 150 and len({lang for _, lang, *_ in rows}) >= 8
    assert len({(qid, lang) for qid, lang, *_ in rows}) == len(rows)


def test_the_rule_names_the_written_set_as_measured(kg) -> None:
    rows = json.loads(WRITTEN.read_text(encoding="utf-8"))["entities"]
    right = 0
    for lang in {lang for _, lang, *_ in rows}:
        asked = [(qid, {name, *(also[0] if also else ())}) for qid, code, name, *also in rows if code == lang]
        names = fetch_names(kg, [entity_iri(qid) for qid, _ in asked], lang)
        right += sum(names.get(entity_iri(qid), (None, None))[0] in accepted for qid, accepted in asked)
    assert right / len(rows) >= MEASURED, f"{right}/{len(rows)}"


@pytest.mark.parametrize(("qid", "lang", "accepted"), [
    ("Q1520", "ru", {"Астана", "Нур-Султан"}),  # never « Акмола »
    ("Q656", "ru", {"Санкт-Петербург"}),  # never « Питер »
    ("Q71", "fr", {"Genève"}), ("Q71", "es", {"Ginebra"}),
    ("Q15031", "zh", {"习近平"}),  # never « 习主席 »
    ("Q36600", "es", {"La Haya"}), ("Q36600", "fr", {"La Haye"}), ("Q36600", "nl", {"Den Haag"}),
    ("Q85", "fr", {"Le Caire"}),  # never « Caire »
    ("Q60", "fr", {"New York"}),  # not "New York City"
    ("Q1085", "ru", {"Прага"}),  # never « Праге »
    ("Q406", "fr", {"Istanbul"}),  # not « Istanboul »
])
def test_the_issue_s_names(kg, qid: str, lang: str, accepted: set[str]) -> None:
    assert fetch_names(kg, [entity_iri(qid)], lang)[entity_iri(qid)][0] in accepted
