"""The gate and its threshold calibration on hand-made cases."""

from __future__ import annotations

import numpy as np
import pytest

from training.calibrate import ABSTAIN, CORRECT, WRONG, SimItem, baseline, calibrate, outcomes_by_threshold, simulate
from validator.gate import GatePolicy, gate


def test_default_gate_keeps_first_candidate_above_threshold():
    assert gate([0.9, 0.8, 0.7], [0.2, 0.6, 0.9], 0.5) == 1
    assert gate([0.9, 0.8], [0.2, 0.3], 0.5) is None
    assert gate([], [], 0.5) is None
    assert gate([0.9], [0.5], 0.5) == 0  # the threshold itself passes


def test_policies():
    scores = [0.55, 0.6, 0.95, 0.1]
    assert GatePolicy("first")([], scores, 0.5) == 0
    assert GatePolicy("best")([], scores, 0.5) == 2
    # blend: 0.95 - 0.2*log2(3) = 0.633 beats 0.55 and 0.6 - 0.2 = 0.4
    assert GatePolicy("blend", 0.2)([], scores, 0.5) == 2
    assert GatePolicy("blend", 0.5)([], scores, 0.5) == 0
    assert GatePolicy("best")([], [0.7, 0.7], 0.5) == 0  # ties go to the backend's order
    with pytest.raises(ValueError, match="unknown gate policy"):
        GatePolicy("random")


def test_simulation_counts_correct_wrong_and_abstentions():
    items = [
        SimItem((0.9, 0.2), (CORRECT, WRONG)),
        SimItem((0.3, 0.8), (WRONG, CORRECT)),
        SimItem((0.7,), (WRONG,), answerable=False),
        SimItem((0.1,), (WRONG,), answerable=False),
        SimItem((0.9,), (ABSTAIN,)),  # empty result: the pipeline abstains
        SimItem((), ()),  # no candidates at all
    ]
    rep = simulate(items, GatePolicy("first"), 0.5)
    assert (rep.correct, rep.wrong, rep.abstained) == (2, 1, 3)
    assert rep.ats == pytest.approx((2 - 1) / 6)
    assert rep.precision == pytest.approx(2 / 3)
    assert rep.abstention_unanswerable == pytest.approx(0.5)
    base = baseline(items)
    assert (base.correct, base.wrong) == (1, 3)
    assert base.ats == pytest.approx((1 - 3) / 6)


def test_outcome_matrix_matches_the_scalar_gate():
    rng = np.random.default_rng(3)
    items = [SimItem(tuple(rng.random(7).round(3)), tuple(rng.choice([CORRECT, WRONG, ABSTAIN], 7)))
             for _ in range(40)]
    grid = np.linspace(0, 1, 23)
    for policy in (GatePolicy("first"), GatePolicy("best"), GatePolicy("blend", 0.1)):
        matrix = outcomes_by_threshold(items, policy, grid)
        for row, item in enumerate(items):
            for col, t in enumerate(grid):
                i = policy([], item.scores, float(t))
                assert matrix[row, col] == (ABSTAIN if i is None else item.outcomes[i])


def test_calibration_finds_the_separating_threshold():
    # correct candidates score 0.7-0.9, wrong ones 0.1-0.6: any threshold in (0.6, 0.7] is best
    items = [SimItem((0.6, 0.8), (WRONG, CORRECT)), SimItem((0.5, 0.9), (WRONG, CORRECT)),
             SimItem((0.55,), (WRONG,), answerable=False), SimItem((0.7, 0.1), (CORRECT, WRONG)),
             SimItem((0.3,), (WRONG,), answerable=False)]
    cal = calibrate(items, [GatePolicy("first")], smooth=0)
    assert 0.6 < cal.threshold <= 0.7
    assert cal.ats == pytest.approx(3 / 5)
    assert simulate(items, cal.policy, cal.threshold).wrong == 0


def test_calibration_prefers_best_policy_when_ranking_is_wrong():
    # the backend's top candidate is wrong but also scored high; the right one scores higher
    items = [SimItem((0.9, 0.95), (WRONG, CORRECT)), SimItem((0.85,), (CORRECT,))]
    assert calibrate(items, [GatePolicy("first")], smooth=0).ats == pytest.approx(0.5)
    cal = calibrate(items, [GatePolicy("first"), GatePolicy("best")], smooth=0)
    assert cal.policy.mode == "best"
    assert cal.ats == pytest.approx(1.0)


def test_calibration_abstains_everywhere_when_nothing_is_right():
    items = [SimItem((0.9, 0.4), (WRONG, WRONG), answerable=False) for _ in range(4)]
    cal = calibrate(items, smooth=0)
    assert cal.ats == 0.0
    assert simulate(items, cal.policy, cal.threshold).answered == 0
    with pytest.raises(ValueError):
        calibrate([])


def test_mix_policy_weighs_the_backend_score():
    mix = GatePolicy("mix", 0.5)
    # mixed: 0.5*0.6+0.5*0.9 = 0.75 and 0.5*0.9+0.5*0.1 = 0.5
    assert mix([0.9, 0.1], [0.6, 0.9], 0.7) == 0
    assert mix([0.9, 0.1], [0.6, 0.9], 0.8) is None
    assert GatePolicy("mix", 0.0)([0.9, 0.1], [0.6, 0.9], 0.7) == 1
    items = [SimItem((0.6, 0.9), (CORRECT, WRONG), backend=(0.9, 0.1)),
             SimItem((0.8,), (WRONG,), backend=(0.05,))]
    grid = np.linspace(0, 1, 41)
    matrix = outcomes_by_threshold(items, mix, grid)
    for col, t in enumerate(grid):
        for row, item in enumerate(items):
            i = mix(item.backend, item.scores, float(t))
            assert matrix[row, col] == (ABSTAIN if i is None else item.outcomes[i])
    cal = calibrate(items, [GatePolicy("best"), mix], smooth=0)
    assert cal.policy == mix and cal.ats == pytest.approx(0.5)


def test_calibration_with_a_precision_floor():
    # scores/outcomes: .9 C, .8 W, .7 C, .6 C, .5 W, .4 C -> best plain ATS 2/6 at .6 (precision .75)
    items = [SimItem((0.9,), (CORRECT,)), SimItem((0.8,), (WRONG,)), SimItem((0.7,), (CORRECT,)),
             SimItem((0.6,), (CORRECT,)), SimItem((0.5,), (WRONG,)), SimItem((0.4,), (CORRECT,))]
    free = calibrate(items, [GatePolicy("first")], smooth=0)
    assert free.ats == pytest.approx(2 / 6)
    assert simulate(items, free.policy, free.threshold).precision < 0.9
    floored = calibrate(items, [GatePolicy("first")], smooth=0, min_precision=0.9, min_answered=1)
    assert 0.8 < floored.threshold <= 0.9 and floored.ats == pytest.approx(1 / 6)
    assert simulate(items, floored.policy, floored.threshold).precision == 1.0
    impossible = calibrate(items, [GatePolicy("first")], smooth=0, min_precision=0.9, min_answered=3)
    assert impossible.ats == pytest.approx(free.ats)  # no setting qualifies: plain ATS decides


def test_reachable_is_exact_for_mix_and_always_true_otherwise():
    mix = GatePolicy("mix", 0.55)
    threshold = 0.845
    for b in np.linspace(0.0, 1.0, 101):
        can = mix.reachable(float(b), threshold)
        assert can == (mix([float(b)], [1.0], threshold) == 0)  # a perfect validator score is the best case
        if not can:
            assert all(mix([float(b)], [float(v)], threshold) is None for v in np.linspace(0, 1, 11))
    assert GatePolicy("first").reachable(0.0, 0.99) and GatePolicy("best").reachable(-1.0, 0.99)
