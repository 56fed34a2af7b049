"""Choosing the gate's policy by leaving one source out (training.transfer)."""

from __future__ import annotations

import json

from training.calibrate import ABSTAIN, CORRECT, WRONG, SimItem
from training.records import RECORDS, Record
from training.transfer import GRID, MIN_SHOWN, Choice, Shown, best_right, choose, lowest, main, sim_item, sweep


def _record(i: int, source: str, split: str, candidates: list[tuple[float, float, bool, int]]) -> Record:
    """``candidates``: (validator score, backend score, right, answers)."""
    return Record(f"{source}:{split}:{i}", source, "en", "en", split, True, f"question {i}",
                  rows=[{"v_score": v, "backend": b, "shape_plain": 1.0} for v, b, _, _ in candidates],
                  correct=[ok for _, _, ok, _ in candidates], n_answers=[n for _, _, _, n in candidates])


def _bench() -> list[Record]:
    """Three sources whose right answers both scores rank high.  The wrong answers of ``a``
    and ``b`` score 0.7 with the validator, those of ``c`` 0.97 but low with the backend: a
    gate on the validator score alone, calibrated on ``a`` and ``b``, lets ``c``'s through."""
    records = []
    for source in ("a", "b", "c"):
        for split in ("dev", "test"):
            for i in range(12):
                records.append(_record(i, source, split, [(0.99, 0.9, True, 1)]))
            for i in range(12, 18):
                if source == "c":  # the validator is sure, the backend is not
                    records.append(_record(i, source, split, [(0.97, 0.05, False, 2), (0.2, 0.5, True, 1)]))
                else:  # the backend is sure, the validator doubts
                    records.append(_record(i, source, split, [(0.7, 0.95, False, 1)]))
    return records


def test_a_candidate_that_comes_back_empty_is_an_abstention_not_a_wrong_answer():
    item = sim_item(_record(0, "a", "dev", [(0.9, 0.5, False, 0), (0.8, 0.4, False, 3), (0.7, 0.3, True, 1)]))
    assert item.outcomes == (ABSTAIN, WRONG, CORRECT)
    assert item.scores == (0.9, 0.8, 0.7) and item.backend == (0.5, 0.4, 0.3) and item.complex == (False,) * 3


def test_the_lowest_threshold_needs_enough_answers_at_the_floor():
    counts = [Shown(20, 5)] * 10 + [Shown(MIN_SHOWN, 0)] * 5 + [Shown(MIN_SHOWN - 1, 0)] * (len(GRID) - 15)
    assert lowest(counts, 0.95) == float(GRID[10])
    assert lowest([Shown(3, 0)] * len(GRID), 0.95) == 1.0  # never enough shown: never answer


def test_a_gate_on_the_validator_alone_fails_the_left_out_source_and_the_blend_is_chosen():
    choices = sweep(_bench(), None, weights=(0.0, 0.3), floors=(0.95,))
    alone, blend = choices
    assert alone.left_out["c"][1].wrong == 12 and alone.worst < 0.92
    assert blend.left_out["c"][1] == Shown(24, 0) and blend.worst == 1.0
    assert choose(choices) == blend
    assert choose([alone]) is None


def test_among_qualifying_pairs_the_most_net_right_answers_ship():
    def pair(weight: float, right: int, wrong: int) -> Choice:
        return Choice(weight, 0.95, {"a": (0.9, Shown(right, wrong))}, 0.9)

    safe, bolder, too_bold = pair(0.1, 50, 1), pair(0.2, 60, 3), pair(0.3, 90, 10)
    assert choose([safe, bolder, too_bold]) == bolder  # 90/100 is under the 0.92 floor
    never = Choice(0.4, 0.95, {"a": (1.0, Shown(0, 0))}, 1.0)
    assert choose([never]) is None  # a policy that never answers is not shipped


def test_write_sets_the_chosen_weight_and_threshold_and_keeps_the_rest(tmp_path, monkeypatch, capsys):
    from dataclasses import asdict

    from validator.config import ValidatorConfig, read_config, write_config

    cache, validator = tmp_path / "cache", tmp_path / "validator"
    (cache / "answer_confidence").mkdir(parents=True)
    validator.mkdir()
    with (cache / "answer_confidence" / RECORDS).open("w", encoding="utf-8") as out:
        for r in _bench():
            out.write(json.dumps(asdict(r)) + "\n")
    write_config(ValidatorConfig(layers=8, gate="mix", rank_weight=0.0, threshold=0.5, complex_threshold=0.8),
                 validator)
    monkeypatch.setenv("KGQA_CACHE_DIR", str(cache))
    monkeypatch.setenv("KGQA_VALIDATOR_DIR", str(validator))
    assert main(["--write"]) == 0
    config = read_config(validator)
    assert config.rank_weight > 0.0 and 0.5 < config.threshold < 1.0
    assert (config.layers, config.complex_threshold, config.gate) == (8, 0.8, "mix")
    assert config.extra is not None and config.extra["transfer"]["worst_left_out"] >= 0.92
    assert set(config.extra["transfer"]["left_out"]) == {"a", "b", "c"}
    assert "chosen: w" in capsys.readouterr().out


def test_the_ceiling_knows_the_answers_and_tries_every_weight():
    """``best_right`` is an oracle: the weight and threshold that show the most right answers
    at the target on these very strings.  The wrong answer the validator scores 0.9 hides
    the right one at 0.85 under the validator alone; weighing the backend lets both right ones
    through without it."""
    items = [SimItem((0.95,), (CORRECT,), True, (0.9,)), SimItem((0.9,), (WRONG,), True, (0.0,)),
             SimItem((0.85,), (CORRECT,), True, (0.9,)), SimItem((0.5,), (WRONG,), True, (0.0,))]
    assert best_right(items, None, weights=(0.0,), target=0.92)[0] == Shown(1, 0)
    assert best_right(items, None, weights=(0.0,), target=0.6)[0] == Shown(2, 1)
    assert best_right(items, None, weights=(0.0,), target=0.3)[0] == Shown(2, 1)  # not (2, 2): fewer wrong
    shown, weight, threshold = best_right(items, None, weights=(0.0, 0.5), target=0.92)
    assert shown == Shown(2, 0) and weight == 0.5 and threshold <= 0.875
    nothing = [SimItem((0.9,), (WRONG,), True, (0.9,))]
    assert best_right(nothing, None, weights=(0.0, 0.5)) == (Shown(0, 0), 0.0, 1.0)
