"""``kgqa train validator`` end to end on the tiny KG + tiny model, then the runtime in
the real pipeline (validator on, and unavailable when its files are broken)."""

from __future__ import annotations

import json

import pytest

from core.settings import Settings
from kg.client import EmbeddedKG
from qa.reading.detect import release_models
from service.factory import build_pipeline
from tests import tiny_kg
from tests.validator.tiny_bench import one_hop_backend, write_bench
from training.build import BuildOptions, run
from training.finetune import TrainConfig, binary_metrics
from validator.model import read_config
from validator.runtime import load_runtime


@pytest.fixture(scope="module")
def kg():
    return EmbeddedKG(tiny_kg.memory_store())


@pytest.fixture(scope="module")
def built(tmp_path_factory, tiny_base, kg):
    tmp_path = tmp_path_factory.mktemp("build")
    settings = Settings(cache_dir=tmp_path / "cache", base_model_dir=tiny_base, validator_dir=tmp_path / "assets")
    opts = BuildOptions(bench_files=[write_bench(tmp_path / "tiny.json")], work_dir=tmp_path / "work",
                        out_dir=settings.validator_dir, progress=False, backend=one_hop_backend(), kg=kg,
                        train=TrainConfig(layers=1, epochs=2, batch_size=8, max_length=32, threads=1))
    lines: list[str] = []
    report = run(settings, opts, log=lines.append)
    return settings, report, lines


def test_build_writes_data_weights_config_and_report(built):
    settings, report, lines = built
    work = settings.validator_dir.parent / "work"
    for name in ("candidates.jsonl", "train.jsonl", "valid.jsonl", "candidates.ttl"):
        assert (work / name).is_file()
    shipped = settings.validator_dir
    assert {p.name for p in shipped.iterdir()} == {"model.safetensors", "config.json", "report.json"}
    config = read_config(shipped)
    assert config.layers == 1 and 0.0 <= config.threshold <= 1.0
    assert config.threshold == pytest.approx(report["calibration"]["threshold"], abs=1e-6)
    saved = json.loads((shipped / "report.json").read_text())
    for key in ("tpr", "tnr", "balanced_accuracy", "precision", "f1"):
        assert 0.0 <= saved["validation"]["fp32"][key] <= 1.0
    test = saved["test"]
    assert set(test["ranking_before"]["precision_at_k"]) == {str(k) for k in range(1, 11)}
    assert test["before"]["n"] == test["after"]["n"] > 0
    assert any("gate: policy" in line for line in lines)


def test_runtime_in_the_pipeline(built, tiny_kg_client):
    settings, _, _ = built
    runtime = load_runtime(settings, tiny_kg_client)
    assert runtime.verbalize("SELECT ?x WHERE { wd:Q183 wdt:P36 ?x }", "zh") == "德国 首都 ?x"
    pipeline = build_pipeline(settings, kg=tiny_kg_client, backend=one_hop_backend())
    assert pipeline.validator_state == "on" and pipeline.threshold == runtime.threshold
    turn = pipeline.answer("столица Германия?", "ru")
    assert turn.validator == "on"
    assert all(c.validator_score is not None and 0 <= c.validator_score <= 1 for c in turn.candidates)
    assert all(c.verbalization for c in turn.candidates)
    assert sum(c.kept for c in turn.candidates) == (1 if turn.answered else 0)
    off = pipeline.answer("столица Германия?", "ru", use_validator=False)
    assert off.validator == "off" and all(c.validator_score is None for c in off.candidates)


def test_broken_validator_leaves_the_pipeline_usable(built, tiny_kg_client, tmp_path):
    import shutil
    from dataclasses import replace

    settings, _, _ = built
    settings = replace(settings, validator_dir=shutil.copytree(settings.validator_dir, tmp_path / "copy"))
    weights = settings.validator_dir / "model.safetensors"
    weights.write_bytes(b"\x00" * 64)
    pipeline = build_pipeline(settings, kg=tiny_kg_client, backend=one_hop_backend())
    assert pipeline.validator_state == "unavailable"
    turn = pipeline.answer("What is the capital of Germany?", "en")
    assert turn.validator == "unavailable" and turn.answered  # top candidate, validator off


def test_missing_base_model_is_a_model_load_error(built, tiny_kg_client, tmp_path):
    from dataclasses import replace

    from core.errors import ModelLoadError

    settings, _, _ = built
    with pytest.raises(ModelLoadError, match="base model not built"):
        load_runtime(replace(settings, base_model_dir=tmp_path / "nowhere"), tiny_kg_client)


def test_binary_metrics():
    m = binary_metrics([0.9, 0.8, 0.3, 0.2, 0.6], [1, 1, 1, 0, 0])
    assert (m.tpr, m.tnr) == pytest.approx((2 / 3, 1 / 2))
    assert m.balanced_accuracy == pytest.approx((2 / 3 + 1 / 2) / 2)
    assert m.precision == pytest.approx(2 / 3) and m.f1 == pytest.approx(2 / 3)


def test_calibrate_only_rewrites_the_gate_from_fresh_candidates(built, kg, tmp_path):
    import shutil
    from dataclasses import replace

    from training.build import CALIBRATION_FILE, calibrate_only
    from training.data import read_records

    settings, report, _ = built
    settings = replace(settings, validator_dir=shutil.copytree(settings.validator_dir, tmp_path / "copy"))
    before = read_config(settings.validator_dir)
    transfer = {"floor": 0.96, "worst_left_out": 0.95}  # training.transfer's choice of the previous gate
    (settings.validator_dir / "config.json").write_text(json.dumps({**before.to_json(), "threshold": 0.999,
                                                                    "extra": {"transfer": transfer, "note": 1}}))
    opts = BuildOptions(bench_files=[write_bench(tmp_path / "tiny.json")], work_dir=tmp_path / "work",
                        out_dir=settings.validator_dir, progress=False, backend=one_hop_backend(), kg=kg)
    lines: list[str] = []
    fresh = calibrate_only(settings, opts, log=lines.append)
    records = read_records(tmp_path / "work" / CALIBRATION_FILE)
    assert {r.split for r in records} == {"dev", "test"}
    after = read_config(settings.validator_dir)
    assert after.threshold == pytest.approx(fresh["calibration"]["threshold"], abs=1e-6)
    assert after.threshold == pytest.approx(report["calibration"]["threshold"], abs=1e-6)  # same model, same data
    assert (after.layers, after.int8_skip) == (before.layers, before.int8_skip)
    assert after.extra == {"note": 1}  # the left-out figures described the gate it replaced
    assert any("kgqa train --only records gate probability" in line for line in lines)
    saved = json.loads((settings.validator_dir / "report.json").read_text())
    assert saved["calibration"]["recalibrated"] and saved["test"]["after"]["n"] > 0
    assert "epochs" in saved  # the training part of the report is kept
    assert any("gate: policy" in line for line in lines)


def test_a_lazy_validator_loads_onnxruntime_only_when_it_scores_and_never_torch(built, tiny_kg_client):
    """``kgqa ask`` builds the pipeline with ``lazy_validator`` (freeing the language models
    just before the encoder loads): same scores, and a process that never scores never
    loads ONNX Runtime; none imports torch."""
    import subprocess
    import sys

    settings, _, _ = built
    lazy = build_pipeline(settings, kg=tiny_kg_client, backend=one_hop_backend(), lazy_validator=True,
                          before_validator_load=release_models)
    eager = build_pipeline(settings, kg=tiny_kg_client, backend=one_hop_backend())
    assert lazy.validator_state == "on" and lazy.threshold == eager.threshold
    assert ([c.validator_score for c in lazy.answer("столица Германия?", "ru").candidates]
            == [c.validator_score for c in eager.answer("столица Германия?", "ru").candidates])
    probe = ("import sys; from pathlib import Path; from core.settings import Settings; "
             "from validator.runtime import load_runtime; "
             f"s = Settings(base_model_dir=Path({str(settings.model_dir)!r}), "
             f"validator_dir=Path({str(settings.validator_dir)!r})); "
             "seen = []; r = load_runtime(s, None, lazy=True, "
             "before_load=lambda: seen.append('onnxruntime' in sys.modules)); "
             "before = 'onnxruntime' in sys.modules; r.scorer.predict([('a', 'b')]); r.scorer.predict([('a', 'c')]); "
             "print(before, 'onnxruntime' in sys.modules, seen, 'torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True", "[False]", "False"]  # before_load: once, before the model


def _group(source: str, n: int, correct: bool) -> list:
    from training.data import CandidateRecord
    return [CandidateRecord(id=f"{source}:{n}", lang="en", split="dev", dataset=source, kind="answerable",
                            question="q", position=1, backend_score=0.5, sparql="SELECT ?x WHERE { wd:Q1 wdt:P1 ?x }",
                            verbalization="v", f1=1.0 if correct else 0.0, n_answers=1, correct=correct)]


def test_the_shipped_threshold_is_as_strict_as_every_left_out_calibration():
    from training.build import sim_items, transferable
    from training.calibrate import calibrate
    from validator.gate import GatePolicy

    # source "a": right answers score >= 0.5, wrong ones 0.1; source "b": wrong answers score up to 0.8
    scored = [(_group("a", i, True), 0.5 + i / 100) for i in range(20)]
    scored += [(_group("a", 100 + i, False), 0.1) for i in range(20)]
    scored += [(_group("b", i, True), 0.85 + i / 200) for i in range(20)]
    scored += [(_group("b", 100 + i, False), 0.5 + i / 70) for i in range(20)]
    dev = [g for g, _ in scored]
    scores = {(g[0].id, "en", 1): s for g, s in scored}
    cal = calibrate(sim_items(dev, scores), [GatePolicy("first")], min_precision=0.9)
    shipped, figures = transferable(cal, dev, [], scores, 0.9)
    assert set(figures) == {"a", "b"}
    assert shipped.threshold >= max(cal.threshold, *(f["threshold"] for f in figures.values()))
    # calibrated on "a" alone, the threshold lets "b"'s wrong answers through; the shipped one does not
    assert figures["b"]["left_out"]["wrong"] > 0
    assert figures["b"]["shipped"]["precision"] >= 0.9
