"""The one calibrated probability the gate decides with (validator.probability, fitted by
training.probability) and the learned gate over it (validator.gate.LearnedGate)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from core.errors import ModelLoadError
from qa.candidate import Link
from qa.gate import Reading
from training.probability import (
    Record,
    Shown,
    choose_threshold,
    extend,
    extended_weight,
    figures,
    fit,
    monotone_in_validator,
    score_gate_choice,
    shown,
)
from validator.gate import GatePolicy, LearnedGate
from validator.probability import GATE_FILE, AnswerModel, features, load_answer_model


def _model(threshold: float = 0.5) -> AnswerModel:
    """Probability rises with the validator score and falls with the backend rank."""
    return AnswerModel(("validator", "rank_log"), (0.5, 1.0), (0.25, 1.0), (4.0, -1.0), 0.0, threshold)


def test_features_name_the_evidence_on_each_reading_against_the_others() -> None:
    readings = [Reading(0.9, 0.8, 0, "plain", False, "it", (Link("Q7317", "verdi", "Verdi", "fuzzy", 0.7),)),
                Reading(0.4, 0.9, 1, "count", True, "it"), Reading(None, 0.95, 2)]
    first, second = features(readings, 0), features(readings, 1)
    assert first["validator_margin"] == pytest.approx(0.5) and second["validator_margin"] == pytest.approx(-0.5)
    assert first["validator_best"] == 1.0 and second["validator_best"] == 0.0
    assert first["backend_margin"] == pytest.approx(-0.1)  # the unscored third reading is not compared
    assert first["rank_first"] == 1.0 and second["rank_log"] == pytest.approx(1.0)
    assert first["shape=plain"] == 1.0 and second["shape=count"] == 1.0
    assert first["lang=it"] == 1.0 and first["link_fuzzy"] == 1.0 and first["link_min"] == pytest.approx(0.7)


def test_a_reading_that_answers_alike_is_no_rival_in_the_margins() -> None:
    """« Japan capital ?answer » and the same with « ?answer instance of capital »: one answer
    said two ways; a reading not run, or answering nothing, stays a rival."""
    tokyo = frozenset({"Q1490"})
    typed, plain, other = Reading(0.95, 0.79, 0, answers=tokyo), Reading(0.99, 0.70, 1, answers=tokyo), \
        Reading(0.2, 0.1, 2, answers=frozenset({"Q17"}))
    assert plain.agrees(typed) and not plain.agrees(other)
    assert features([typed, plain, other], 1)["backend_margin"] == pytest.approx(0.6)
    assert features([typed, replace(plain, answers=None), other], 1)["backend_margin"] == pytest.approx(-0.09)
    empty = [replace(typed, answers=frozenset()), replace(plain, answers=frozenset()), other]
    assert not empty[1].agrees(empty[0]) and features(empty, 1)["backend_margin"] == pytest.approx(-0.09)


def test_a_question_not_in_english_has_its_scores_weighed_apart_and_agreeing_readings_counted() -> None:
    tokyo = frozenset({"Q1490"})
    ja = [Reading(0.99, 0.4, 0, "plain", False, "ja", answers=tokyo), Reading(0.9, 0.3, 1, lang="ja", answers=tokyo),
          Reading(0.2, 0.6, 2, lang="ja", answers=frozenset({"Q17"}))]
    first = features(ja, 0)
    assert first["foreign"] == 1.0 and first["agree"] == 1.0 and features(ja, 2)["agree"] == 0.0
    assert first["validator_logit_foreign"] == pytest.approx(first["validator_logit"])
    assert first["backend_foreign"] == pytest.approx(0.4)
    en = features([replace(r, lang="en-GB") for r in ja], 0)
    assert en["foreign"] == en["validator_logit_foreign"] == en["backend_foreign"] == 0.0


def test_a_shape_the_model_never_saw_is_scored_by_the_rest_of_its_evidence() -> None:
    model = AnswerModel(("validator", "shape=plain"), (0.5, 0.5), (0.25, 0.5), (4.0, 1.0), 0.0, 0.5)
    new = Reading(0.9, 0.5, 0, "intersection")
    p = model.probabilities([new])[0]
    assert p is not None and 0.5 < p < 1.0
    assert model.probabilities([Reading(0.9, 0.5, 0, "plain")])[0] > p


def test_the_learned_gate_keeps_the_most_probable_reading_when_it_reaches_the_threshold() -> None:
    gate = LearnedGate(_model(0.8))
    readings = [Reading(0.5, 0.9, 0), Reading(0.95, 0.2, 1), Reading(None, 0.1, 2)]
    decision = gate.decide(readings, gate.threshold)
    assert decision.chosen == 1 and decision.compared[2] is None
    assert decision.compared[1].score_name == "probability" and decision.passed(1) and not decision.passed(0)
    assert decision.compared[0].score != decision.compared[1].score  # one probability per reading
    assert gate.decide([Reading(0.5, 0.9, 0)], gate.threshold).chosen is None
    assert gate.judged == 5 and not gate.reachable(1.0, 0.0)


def test_the_model_round_trips_through_its_asset_and_a_bad_asset_is_named(tmp_path) -> None:
    model = _model(0.7)
    model.save(tmp_path / GATE_FILE)
    assert load_answer_model(tmp_path / GATE_FILE) == model
    assert load_answer_model(tmp_path / "none.json") is None
    (tmp_path / "bad.json").write_text(json.dumps({"names": ["a"], "means": [], "scales": [], "weights": [],
                                                   "intercept": 0, "threshold": 2}), encoding="utf-8")
    with pytest.raises(ModelLoadError):
        load_answer_model(tmp_path / "bad.json")


def _record(source: str, scores: list[float], right: list[bool], split: str = "dev") -> Record:
    readings = [Reading(s, 1.0 - 0.1 * i, i) for i, s in enumerate(scores)]
    return Record("x", source, "en", split, True, "q", [features(readings, i) for i in range(len(scores))],
                  right, [1] * len(scores))


def test_fitting_learns_that_a_high_validator_score_is_right_and_the_threshold_holds_precision() -> None:
    records = []
    for n in range(60):
        good = n % 3 != 0
        records.append(_record("a" if n % 2 else "b", [0.9 if good else 0.3, 0.2], [good, False]))
    model = fit(records)
    assert model.probability({"validator": 0.9, "validator_logit": 2.2}) > model.probability(
        {"validator": 0.3, "validator_logit": -0.85})
    items = shown(model, records)
    t = choose_threshold({"a": items})
    assert figures(items, t)["precision"] >= 0.92 and figures(items, t)["right"] == 40


def test_the_threshold_is_the_lowest_every_left_out_source_holds_precision_at() -> None:
    a = [Shown(0.9, True, True)] * 10 + [Shown(0.6, False, True)] * 2 + [Shown(0.5, True, True)] * 5
    assert choose_threshold({"a": a}, 0.92) == pytest.approx(0.9)
    few = {"a": a, "b": [Shown(0.95, False, False)] * 2}  # b alone shows too few to count; pooled, they do
    assert choose_threshold(few, 0.8) == pytest.approx(0.9) and choose_threshold(few, 0.92) == pytest.approx(0.95)


def test_what_the_score_gate_keeps_is_read_from_the_recorded_evidence_and_shown_below_the_threshold() -> None:
    score_gate = (GatePolicy("mix", 0.3, complex_threshold=0.8), 0.915)
    readings = [Reading(0.97, 0.3, 0), Reading(0.99, 0.9, 1), Reading(0.85, 0.1, 2, "count", True)]
    named = [features(readings, i) for i in range(3)]
    assert score_gate_choice(named, score_gate) == 1  # 0.7 * 0.99 + 0.3 * 0.9 passes; 0.97 with 0.3 does not
    assert score_gate_choice(named[2:], score_gate) == 0  # a count, by its validator score alone
    assert score_gate_choice(named[:1], score_gate) is None
    record = Record("x", "a", "en", "dev", True, "q", named, [False, True, False], [1, 1, 1])
    model = AnswerModel(("backend",), (0.5,), (0.25,), (-4.0,), 0.0, 0.5)  # prefers the weak backend score
    (item,) = shown(model, [record], score_gate)
    assert item.right is False and item.fallback is True
    assert figures([item], 0.0, True)["wrong"] == 1  # the model's reading reaches the threshold: it is shown
    assert figures([item], 1.0, True)["right"] == 1 and figures([item], 1.0)["right"] == 0


def test_a_probability_that_falls_as_the_validator_score_rises_is_found() -> None:
    assert monotone_in_validator(_model())
    assert not monotone_in_validator(AnswerModel(("validator",), (0.5,), (0.25,), (-1.0,), 0.0, 0.5))
    bump = AnswerModel(("validator", "validator_logit"), (0.5, 0.0), (0.25, 3.0), (-3.0, 1.0), 0.0, 0.5)
    assert not monotone_in_validator(bump)  # rises with the logit, but the raw score pulls it down in between


def test_the_shipped_answer_model_loads_with_its_threshold_and_left_out_figures() -> None:
    from validator.probability import GATE_PATH

    model = load_answer_model(GATE_PATH)
    assert model is not None and 0.0 < model.threshold < 1.0 and model.judged >= 5
    assert "validator_logit" in model.names  # the validator's judgement is part of the evidence
    assert {"sqwd", "wwq", "rubq1"} <= set(model.info["left_out"])
    strong = [Reading(0.99, 0.9, 0), Reading(0.01, 0.3, 1)]
    weak = [Reading(0.2, 0.9, 0), Reading(0.01, 0.3, 1)]
    assert model.probabilities(strong)[0] > model.threshold > model.probabilities(weak)[0]
    assert monotone_in_validator(model)  # a higher validator score never lowers the probability


def _worded_records(worded_right: bool) -> list[Record]:
    """Two sources whose middling readings (validator 0.6) are right half the time, and all right
    (or all wrong) where the backend read every word of the question."""
    records = []
    for n in range(80):
        worded = n % 2 == 0
        readings = [Reading(0.6, 0.5, 0, worded=worded), Reading(0.1, 0.4, 1)]
        right = worded_right if worded else n % 4 == 1
        records.append(Record(f"x{n}", "a" if n % 3 else "b", "en", "dev", True, "q",
                              [features(readings, i) for i in range(2)], [right, False], [1, 1]))
    return records


def test_a_worded_reading_is_named_in_the_evidence() -> None:
    named = features([Reading(0.9, 0.5, 0, worded=True), Reading(0.2, 0.4, 1)], 0)
    assert named["worded"] == 1.0
    assert features([Reading(0.9, 0.5, 0), Reading(0.2, 0.4, 1)], 0)["worded"] == 0.0


def test_added_evidence_gets_the_weight_the_dev_readings_ask_for_and_nothing_else_moves() -> None:
    model = AnswerModel(("validator",), (0.5,), (0.25,), (2.0,), -0.8, 0.6)
    helps, hurts = extended_weight(model, _worded_records(True), "worded"), extended_weight(
        model, _worded_records(False), "worded")
    assert helps > 1.0 and hurts < -1.0
    out = extend(model, _worded_records(True))
    assert out.threshold == model.threshold and out.info["extended"]["worded"]["weight"] == pytest.approx(helps,
                                                                                                       abs=1e-5)
    plain, worded = {"validator": 0.6}, {"validator": 0.6, "worded": 1.0}
    assert out.probability(plain) == pytest.approx(model.probability(plain))  # readings without it keep theirs
    assert out.probability(worded) > out.threshold > model.probability(worded)
    assert set(out.info["extended"]["worded"]["left_out"]) == {"a", "b"}
    assert extend(out, _worded_records(True)).names.count("worded") == 1  # extending again replaces the weight
    assert monotone_in_validator(out)
