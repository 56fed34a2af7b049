"""The calibrated chance that a shown answer is right (validator.probability, fitted by
training.probability)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from core.errors import ModelLoadError
from core.settings import VALIDATOR_DIR
from qa.turn import Compared
from training.probability import Kept, build, fit, kept
from training.records import Record
from validator.gate import GatePolicy
from validator.model import read_config
from validator.probability import PROBABILITY_FILE, AnswerProbability, load_probability, probability_for

MIX = GatePolicy("mix", 0.55, 0.98)


def _items(n: int = 2000, seed: int = 7) -> list[Kept]:
    """Scores uniform in 0..1; an answer at score s is right with probability s**2."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        s = rng.random()
        out.append(Kept(s, rng.random() < s * s))
    return out


def test_the_fitted_map_is_monotone_and_recovers_the_rate_of_right_answers() -> None:
    probability = fit(_items(), MIX)
    grid = np.linspace(0.0, 1.0, 101)
    said = [probability.probability(x) for x in grid]
    assert all(b >= a for a, b in zip(said, said[1:], strict=False))
    for x in (0.3, 0.6, 0.9):
        assert abs(probability.probability(x) - x * x) < 0.1


def test_a_step_of_only_right_answers_never_says_certain() -> None:
    items = [Kept(s / 100, s >= 50) for s in range(100)]
    probability = fit(items, MIX)
    assert 0.0 < probability.probability(0.0) < 0.05
    assert 0.95 < probability.probability(1.0) < 1.0


def test_too_few_answers_are_not_fitted() -> None:
    with pytest.raises(ValueError, match="too few"):
        fit(_items(5), MIX)


def test_only_the_answer_comparison_of_its_own_score_is_covered() -> None:
    probability = fit(_items(), MIX)
    assert probability(Compared(0.9, 0.86, "blended", "answer")) == pytest.approx(probability.probability(0.9))
    assert probability(Compared(0.99, 0.98, "validator", "complex")) is None
    assert probability(Compared(0.9, 0.86, "validator", "answer")) is None  # another gate's score


def test_kept_follows_the_gate_and_skips_empty_results_and_complex_shapes() -> None:
    rows = [{"v_score": 0.2, "backend": 0.9, "shape_plain": 1.0}, {"v_score": 0.95, "backend": 0.8, "shape_plain": 1.0}]
    record = Record("q1", "a", "en", "en", "dev", True, "q", rows=rows, correct=[False, True], n_answers=[1, 1])
    got = kept(record, MIX)
    assert got is not None and got.right and got.score == pytest.approx(MIX.gated_score(0.95, 0.8))
    empty = Record("q2", "a", "en", "en", "dev", True, "q", rows=rows, correct=[False, True], n_answers=[1, 0])
    assert kept(empty, MIX) is None  # the gate's choice returns nothing: the pipeline abstains
    complex_rows = [{"v_score": 0.99, "backend": 0.1, "shape_plain": 0.0}]
    counted = Record("q3", "a", "en", "en", "dev", True, "q", rows=complex_rows, correct=[True], n_answers=[1])
    assert kept(counted, MIX) is None


def _records(n: int, source: str, split: str, seed: int) -> list[Record]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        v, b = rng.random(), rng.random()
        right = rng.random() < MIX.gated_score(v, b) ** 2
        out.append(Record(f"{source}{i}", source, "en", "en", split, True, "q",
                          rows=[{"v_score": v, "backend": b, "shape_plain": 1.0}], correct=[right], n_answers=[1]))
    return out


def test_build_reports_every_left_out_source_and_the_test_split(tmp_path: Path) -> None:
    records = [*_records(300, "a", "dev", 1), *_records(300, "b", "dev", 2), *_records(200, "a", "test", 3),
               *_records(100, "b", "train", 4)]
    probability = build(records, MIX, 0.8)
    assert set(probability.info["left_out"]) == {"a", "b"}
    assert probability.info["left_out"]["b"]["n"] == 300  # b's train strings are not unseen
    assert probability.info["test"]["n"] == 200
    path = tmp_path / PROBABILITY_FILE
    probability.save(path)
    again = load_probability(path)
    assert again is not None and again.scores == probability.scores and again.fits(MIX)
    assert probability_for(GatePolicy("mix", 0.25), path) is None  # fitted for another blend


def test_a_broken_map_file_is_a_model_load_error(tmp_path: Path) -> None:
    path = tmp_path / PROBABILITY_FILE
    assert load_probability(path) is None
    path.write_text(json.dumps({"mode": "mix", "rank_weight": 0.55, "scores": [0.1, 0.2], "probabilities": [0.9, 0.1]}))
    with pytest.raises(ModelLoadError):
        load_probability(path)  # not monotone
    path.write_text("{")
    with pytest.raises(ModelLoadError):
        load_probability(path)


def test_the_shipped_map_fits_the_shipped_gate_and_says_what_it_measured() -> None:
    config = read_config(VALIDATOR_DIR)
    policy = GatePolicy(config.gate, config.rank_weight, config.complex_threshold)
    shipped = probability_for(policy, VALIDATOR_DIR / PROBABILITY_FILE)
    assert isinstance(shipped, AnswerProbability)
    assert 0.0 < shipped.probability(0.0) < shipped.probability(config.threshold) < shipped.probability(1.0) < 1.0
    assert {"sqwd", "wwq", "rubq1"} <= set(shipped.info["left_out"])
    test = shipped.info["test"]
    assert abs(test["said_when_shown"] - test["right_when_shown"]) < 0.1
