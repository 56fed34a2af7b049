"""Templated complex questions (training/synthetic.py) and the complex-shape gate."""

from __future__ import annotations

import random

import numpy as np
import pytest

from training.calibrate import CORRECT, WRONG, SimItem, outcomes_by_threshold
from training.data import CandidateRecord
from training.synthetic import (
    Facts,
    entity_split,
    generate,
    gold_tokens,
    load_facts,
    mentions_gold,
    name_in,
    to_items,
)
from validator.gate import GatePolicy, choose

EINSTEIN, PUSHKIN, GERMANY, BERLIN, RUSSIA, MOSCOW = "Q937", "Q7200", "Q183", "Q64", "Q159", "Q649"


def test_gold_tokens_leave_out_class_constraints():
    gold = ("SELECT DISTINCT ?answer WHERE { ?answer wdt:P31 wd:Q6256 . ?answer wdt:P1082 ?v "
            "FILTER(?v < 1000000) }")
    assert gold_tokens(gold) == {"wdt:P1082"}
    ask = "ASK { wd:Q114 wdt:P36 wd:Q3870 }"
    assert mentions_gold("ASK { wd:Q114 wdt:P36 wd:Q3870 }", ask)
    assert not mentions_gold("ASK { wd:Q114 wdt:P1376 wd:Q3870 }", ask)  # right by chance is not right
    assert not mentions_gold("ASK { wd:Q3870 wdt:P36 ?x }", ask)


def test_facts_come_from_the_kg_and_leave_out_excluded_entities(tiny_kg_client):
    facts = load_facts(tiny_kg_client)
    assert set(facts.values["P569"]) == {EINSTEIN, PUSHKIN}
    assert facts.capital[GERMANY] == BERLIN
    assert facts.labels[EINSTEIN]["en"][0] == "Albert Einstein"
    kept = load_facts(tiny_kg_client, exclude={EINSTEIN, BERLIN})
    assert EINSTEIN not in kept.values["P569"] and EINSTEIN not in kept.labels
    assert GERMANY not in kept.capital  # its capital is excluded


def _facts(n: int) -> Facts:
    people = {f"Q{1000 + i}": f"19{50 + i % 40}-01-0{1 + i % 9}T00:00:00Z" for i in range(n)}
    labels = {q: {"en": [f"Person {q}"], "ru": [f"Персона {q}"]} for q in people}
    return Facts({"P569": people, "P2048": {}, "P2067": {}, "P1082": {}, "P2046": {}, "P571": {}},
                 {}, {}, {}, labels)


def test_every_question_combines_entities_of_its_own_split():
    questions = generate(_facts(60), per_template=3, langs=("en", "ru", "zh"))
    assert questions
    named = [q for q in questions if q.id.split(":")[2].startswith("Q")]
    assert named
    for q in named:
        qids = q.id.split(":")[2].split("-")
        assert {entity_split(x) for x in qids} == {q.split}, q
    assert not [q for q in named if q.lang == "zh"]  # no Chinese name: no Chinese question about a person
    splits = [q.split for q in questions]
    assert splits.count("train") > splits.count("dev")  # train gets more tuples


def test_names_never_fall_back_to_english_in_other_scripts():
    facts = _facts(2)
    rng = random.Random(0)
    assert name_in(facts, "Q1000", "de", rng) == "Person Q1000"  # Latin script: English name is fine
    assert name_in(facts, "Q1000", "ru", rng) == "Персона Q1000"
    assert name_in(facts, "Q1000", "zh", rng) is None


def test_items_get_their_gold_from_the_kg(tiny_kg_client):
    questions = generate(load_facts(tiny_kg_client), per_template=2, langs=("en",))
    items = to_items(tiny_kg_client, questions)
    assert items and len(items) <= len(questions)
    for item in items:
        answers = item.question.answers
        assert answers is not None and not answers.is_empty()
        assert (answers.boolean is not None) == item.question.sparql.startswith("ASK")
        assert item.dataset == "synthetic" and item.question.extra["split"] in ("train", "dev", "test")
    born = [it for it in items if it.question.extra["shape"] == "born_in"]
    assert born and all(it.text.startswith("Was ") and it.text.endswith("?") for it in born)


def test_a_complex_candidate_passes_on_its_validator_score_alone():
    policy = GatePolicy("mix", 0.55, complex_threshold=0.8)
    # plain candidate: gated by the mix; complex: by the validator score, whatever the backend score
    assert choose(policy, [0.9, 0.95], 0.845, [0.6, 0.3], [False, True]) == 1
    assert choose(policy, [0.9, 0.7], 0.845, [0.6, 0.3], [False, True]) is None
    assert choose(GatePolicy("mix", 0.55), [0.9, 0.95], 0.845, [0.6, 0.3], [False, True]) is None
    assert policy.reachable(0.1, 0.845, complex_shape=True) and not policy.reachable(0.1, 0.845)


def test_simulation_agrees_with_the_runtime_gate():
    rng = np.random.default_rng(3)
    policy = GatePolicy("mix", 0.4, complex_threshold=0.7)
    items = []
    for _ in range(200):
        n = int(rng.integers(1, 6))
        items.append(SimItem(tuple(rng.random(n).round(3)), tuple(rng.choice([CORRECT, WRONG], n)),
                             backend=tuple(rng.random(n).round(3)), complex=tuple(rng.random(n) < 0.4)))
    thresholds = np.asarray([0.3, 0.6, 0.9])
    matrix = outcomes_by_threshold(items, policy, thresholds)
    for row, item in enumerate(items):
        for col, t in enumerate(thresholds):
            kept = choose(policy, item.scores, t, item.backend, item.complex)
            assert matrix[row, col] == (item.outcomes[kept] if kept is not None else 0)


@pytest.mark.parametrize(("sparql", "expected"), [
    ("SELECT ?answer WHERE { wd:Q183 wdt:P36 ?answer }", False),
    ("ASK { wd:Q183 wdt:P36 wd:Q64 }", True),
    ("SELECT (COUNT(DISTINCT ?x) AS ?answer) WHERE { wd:Q183 wdt:P37 ?x }", True),
])
def test_records_written_without_a_shape_read_it_from_their_text(sparql, expected):
    line = {"id": "q1", "lang": "en", "split": "train", "dataset": "t", "kind": "answerable", "question": "q",
            "position": 1, "backend_score": 0.5, "sparql": sparql, "verbalization": "v", "f1": 1.0, "n_answers": 1,
            "correct": True}
    assert CandidateRecord.from_json(line).is_complex is expected
    assert CandidateRecord.from_json({**line, "shape": "plain"}).is_complex is False  # a recorded shape is kept


def test_complex_threshold_keeps_the_benchmarks_complex_candidates_at_the_floor():
    from training.build import calibrate_complex

    def item(score: float, outcome: int) -> SimItem:
        return SimItem((score,), (outcome,), backend=(0.5,), complex=(True,))

    templated = [item(0.2 + 0.008 * i, CORRECT) for i in range(100)] + [item(0.1, WRONG)] * 5
    alone = calibrate_complex([], templated, 0.9)
    assert alone.threshold <= 0.2  # easy templated questions alone let nearly everything through
    bench = [item(0.65, WRONG), item(0.3, WRONG), item(0.01, WRONG)]
    guarded = calibrate_complex(bench, templated, 0.9)
    assert guarded.threshold > 0.65  # no wrong benchmark answer passes
    assert calibrate_complex(bench, [], 0.9).threshold > 1.0  # nothing to learn from: never pass
