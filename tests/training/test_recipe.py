"""(slow) ``kgqa train``'s recipe end to end on the tiny KG and the tiny model: every step in
dependency order (ranker, validator, records, gate, probability) writes its asset, and
the recipe file is checked before anything runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from backends.local.generator import LocalBackend
from backends.local.ranker import Ranker
from core.settings import Settings
from kg.client import EmbeddedKG
from kg.labels import LabelIndex, build_label_index
from qa.reading.lexicon import default_lexicon
from tests import tiny_kg
from tests.validator.tiny_bench import one_hop_backend, questions
from training.recipe import RECIPE_PATH, STEPS, RecipeError, load_recipe
from training.run import Workspace, run_recipe
from validator.model import read_config

TINY_RECIPE = """
steps = ["ranker", "validator", "records", "gate", "probability"]

[ranker]
model = "trees"
per_question = 40

[validator]
layers = 1
epochs = 2
batch_size = 8
max_length = 32
threads = 1
synthetic = false
onehop = false

[records]
synthetic = false

[gate]
target_precision = 0.92

[probability]
"""


def _bench(folder: Path) -> list[Path]:
    """The tiny bench as two sources (so the gate can leave one out)."""
    folder.mkdir(parents=True)
    rows = questions()
    paths = []
    for name, part in (("alpha", rows[::2]), ("beta", rows[1::2])):
        for row in part:
            row["id"] = row["id"].replace("tiny", name)
        path = folder / f"{name}.json"
        path.write_text(json.dumps({"dataset": {"id": name}, "questions": part}, ensure_ascii=False), "utf-8")
        paths.append(path)
    return paths


def test_the_shipped_recipe_reads_and_names_every_step_in_order() -> None:
    recipe = load_recipe(RECIPE_PATH)
    assert recipe.steps == STEPS
    assert recipe.validator.train_config().layers == recipe.validator.layers


def test_a_recipe_with_an_unknown_step_key_or_type_is_refused(tmp_path: Path) -> None:
    for text, what in (('steps = ["validator", "polish"]', "polish"), ("[validator]\nlayer = 4", "layer"),
                       ('[validator]\nepochs = "two"', "epochs"), ("[extra]\na = 1", "extra")):
        path = tmp_path / "bad.toml"
        path.write_text(text, encoding="utf-8")
        with pytest.raises(RecipeError, match=what):
            load_recipe(path)


def test_the_validator_device_comes_from_the_recipe_and_is_checked(tmp_path: Path) -> None:
    assert load_recipe(RECIPE_PATH).validator.train_config().device == "cpu"
    path = tmp_path / "gpu.toml"
    path.write_text('[validator]\ndevice = "auto"', encoding="utf-8")
    assert load_recipe(path).validator.train_config().device == "auto"
    path.write_text('[validator]\ndevice = "tpu"', encoding="utf-8")
    with pytest.raises(RecipeError, match="device"):
        load_recipe(path)


@pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has a CUDA device")
def test_kgqa_train_on_a_device_that_is_not_there_says_so_before_any_step_runs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from cli.main import main

    common = ["--cache-dir", str(tmp_path / "cache"), "--work-dir", str(tmp_path / "work")]
    assert main(["train", "--device", "cuda", "--quiet", *common]) == 2
    err = capsys.readouterr().err
    assert "kgqa train: error: device='cuda': torch sees no CUDA device here" in err and "Traceback" not in err
    assert main(["train", "validator", "--device", "cuda", "--quiet", *common]) == 2
    assert "kgqa train validator: error: device='cuda'" in capsys.readouterr().err
    assert not (tmp_path / "work").exists() and not (tmp_path / "cache").exists()  # no step ran


@pytest.mark.slow
def test_the_recipe_rebuilds_every_asset_in_order(tmp_path: Path, tiny_base: Path) -> None:
    store = tiny_kg.memory_store()
    kg = EmbeddedKG(store)
    build_label_index(store, tmp_path / "labels")
    local = LocalBackend(kg, LabelIndex.open(tmp_path / "labels"), lexicon=default_lexicon(),
                         ranker=Ranker.heuristic())
    settings = Settings(cache_dir=tmp_path / "cache", base_model_dir=tiny_base, validator_dir=tmp_path / "assets",
                        ranker_path=tmp_path / "ranker.json")
    recipe_path = tmp_path / "recipe.toml"
    recipe_path.write_text(TINY_RECIPE, encoding="utf-8")
    lines: list[str] = []
    ws = Workspace(settings, bench_files=_bench(tmp_path / "bench"), work_dir=tmp_path / "work",
                   backend=one_hop_backend(), kg=kg, ranker_backend=local, progress=False, log=lines.append)
    reports = run_recipe(load_recipe(recipe_path), ws)

    assert list(reports) == list(STEPS)
    assert [line for line in lines if line.startswith("== ")] == [f"== {step}" for step in STEPS]
    ranker = Ranker.load(settings.ranker_path)
    assert ranker.info["train_items"] == reports["ranker"]["train_items"] > 0
    config = read_config(settings.validator_dir)
    assert any(settings.validator_dir.glob("*.safetensors")) and config.layers == 1
    records = Path(reports["records"]["path"]).read_text(encoding="utf-8").splitlines()
    assert reports["records"]["records"] == len(records) > 0
    gate = reports["gate"]
    assert config.threshold == pytest.approx(gate["threshold"]) and config.rank_weight == gate["rank_weight"]
    if gate["chosen"] is not None:
        assert config.extra["transfer"] == gate["chosen"]
    answer_model = settings.validator_dir / "gate.json"
    assert answer_model.is_file() == (reports["probability"]["threshold"] is not None)
