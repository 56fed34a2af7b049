"""Training on a lent accelerator: the payload carries the base model exactly, the device
trains from it with the recipe's one loop (training.finetune.train, here on the CPU and the
tiny model), and the weights it returns load as a validator."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from core.errors import SettingsError
from core.settings import Settings
from training.data import CandidateRecord, write_records
from training.device import blocks, expand, pack, unpack
from training.finetune import device_scores, resolve_device
from validator.config import ValidatorConfig, write_config
from validator.convert import is_complete
from validator.model import CrossEncoder, base_network, load_tokenizer

TINY_RECIPE = """
[validator]
layers = 1
epochs = 1
batch_size = 4
max_length = 32
threads = 1
device = "cpu"
"""

PAIRS = [("Where was Albert Einstein born?", "Albert Einstein place of birth ?answer", True),
         ("Where was Albert Einstein born?", "Albert Einstein place of death ?answer", False),
         ("Wo wurde Albert Einstein geboren?", "Albert Einstein Geburtsort ?answer", True),
         ("What is the capital of Germany?", "Germany head of state ?answer", False)]


@pytest.fixture(scope="module")
def base() -> Path:
    settings = Settings()
    if not is_complete(settings.model_dir):
        pytest.skip("base model not built (python -m validator.convert)")
    return settings.model_dir


def _records(path: Path, split: str) -> None:
    write_records([CandidateRecord(f"q{i // 4}", "en", split, "sqwd", "answerable", q, i % 4 + 1, 0.5,
                                   "SELECT ?x WHERE { wd:Q1 wdt:P19 ?x }", v, float(ok), 1, ok)
                   for i, (q, v, ok) in enumerate(PAIRS * 3)], path)


def _work(tmp_path: Path) -> Path:
    """A training work directory with its three record files (train, dev, test)."""
    work = tmp_path / "work"
    work.mkdir()
    for name, split in (("train.jsonl", "train"), ("valid.jsonl", "dev"), ("candidates.jsonl", "test")):
        _records(work / name, split)
    return work


@pytest.mark.slow
def test_four_bit_blocks_expand_to_the_base_weights_exactly(base: Path) -> None:
    from safetensors import safe_open

    with safe_open(str(base / "model.safetensors"), "np") as weights:
        w = weights.get_tensor("encoder.layer.3.intermediate.dense.weight")
        position = weights.get_tensor("embeddings.position_embeddings.weight")
    q, s, bad, values = blocks(w)
    again = q.astype(np.float32) * s[:, None]
    again[bad] = values
    assert np.array_equal(again.reshape(w.shape), w)
    assert q.dtype == np.int8 and q.min() >= -8 and q.max() <= 8
    assert blocks(position) is None  # fp32 tensors travel as they are


@pytest.mark.slow
def test_the_payload_expands_to_the_base_weights_exactly(base: Path, tmp_path: Path) -> None:
    from safetensors import safe_open

    work = _work(tmp_path)
    pack(tmp_path / "payload", work, base)
    expanded = expand(tmp_path / "payload", tmp_path / "base")
    used = np.load(tmp_path / "payload" / "base.npz")["used_ids"]
    with (safe_open(str(base / "model.safetensors"), "np") as a,
          safe_open(str(expanded / "model.safetensors"), "np") as b):
        assert set(a.keys()) == set(b.keys())
        for key in a.keys():  # noqa: SIM118 (safe_open is no mapping)
            original, again = a.get_tensor(key), b.get_tensor(key)
            if key == "embeddings.word_embeddings.weight":
                original, again = original[used], again[used]
            assert np.array_equal(original.astype(np.float32), again), key


def test_the_device_trains_a_payload_with_the_recipe_loop_and_its_weights_load_as_a_validator(
        tiny_base: Path, tmp_path: Path) -> None:
    work = _work(tmp_path)
    payload = tmp_path / "payload"
    sizes = pack(payload, work, tiny_base)
    assert set(sizes) == {"base.npz", "pairs.json.gz", "tokenizer.json.gz", "config.json"}
    recipe = tmp_path / "recipe.toml"
    recipe.write_text(TINY_RECIPE, encoding="utf-8")
    out = tmp_path / "out"
    run = subprocess.run([sys.executable, "-m", "training.device", "train", str(payload), "--recipe", str(recipe),
                          "--device", "cpu", "--name", "v", "--out", str(out)],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "epoch 1: mean loss" in run.stdout
    scores = json.loads((out / "scores.json").read_text(encoding="utf-8"))
    assert scores["device"] == "cpu" and len(scores["history"]) == 1 and len(scores["eval_scores"]) == 4
    validator = tmp_path / "validator"
    validator.mkdir()
    write_config(ValidatorConfig(layers=1, max_length=32, batch_size=4, quantize=False), validator)
    assert unpack(out, "v", validator) == 1
    encoder = CrossEncoder.load(validator, tiny_base)
    again = encoder.predict([(q, v) for q, v, _ in PAIRS * 3])
    assert again == pytest.approx(scores["valid_scores"], abs=1e-3)


def test_the_expanded_base_has_the_used_tokens_embeddings_exactly(tiny_base: Path, tmp_path: Path) -> None:
    work = _work(tmp_path)
    pack(tmp_path / "payload", work, tiny_base)
    again = base_network(expand(tmp_path / "payload", tmp_path / "base"), 1).state_dict()
    original = base_network(tiny_base, 1).state_dict()
    used = np.load(tmp_path / "payload" / "base.npz")["used_ids"]
    key = "bert.embeddings.word_embeddings.weight"
    assert np.array_equal(again[key].numpy()[used], original[key].numpy()[used])
    assert all(np.array_equal(again[k].numpy(), original[k].numpy()) for k in original
               if k.startswith("bert.") and k != key)  # the head starts at random


def test_the_accelerator_scoring_path_gives_the_cpu_scores_and_a_missing_device_is_one_clear_error(
        tiny_base: Path) -> None:
    encoder = CrossEncoder(base_network(tiny_base, 1), load_tokenizer(tiny_base), max_length=32, batch_size=4)
    pairs = [(q, v) for q, v, _ in PAIRS]
    assert device_scores(encoder, pairs, torch.device("cpu"), size=3) == pytest.approx(encoder.predict(pairs), abs=1e-5)
    assert device_scores(encoder, [], torch.device("cpu")) == []
    assert resolve_device("cpu").type == "cpu"
    assert resolve_device("auto").type == ("cuda" if torch.cuda.is_available() else "cpu")
    with pytest.raises(SettingsError, match="tpu"):
        resolve_device("tpu")
    if not torch.cuda.is_available():
        with pytest.raises(SettingsError, match="no CUDA"):
            resolve_device("cuda")


def test_the_device_side_imports_nothing_of_the_kg_backend_or_chat_stack() -> None:
    """A lent GPU gets the working tree, not the virtualenv: training there needs torch,
    transformers, tokenizers, safetensors, numpy and scikit-learn, nothing of the KG (pyoxigraph),
    the backends or the chat."""
    code = ("import sys, training.device, training.finetune, validator.model; "
            "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True)
    loaded = set(run.stdout.split())
    assert {"training", "validator", "core", "torch"} <= loaded
    assert not loaded & {"pyoxigraph", "kg", "qa", "backends", "chat", "lang", "gradio", "lingua", "pymorphy3"}
