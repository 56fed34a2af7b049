"""Training on a lent accelerator: the payload carries the base model exactly, the device
script trains from it alone, and the weights it returns load as a validator."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from core.settings import Settings
from training.data import CandidateRecord, write_records
from training.device import blocks, pack, unpack
from validator.convert import is_complete
from validator.model import CrossEncoder

pytestmark = pytest.mark.slow

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


def test_the_device_script_trains_from_the_payload_and_its_weights_load_as_a_validator(
        base: Path, tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    _records(work / "train.jsonl", "train")
    _records(work / "valid.jsonl", "dev")
    _records(work / "candidates.jsonl", "test")
    payload = tmp_path / "payload"
    sizes = pack(payload, work, base)
    assert {"base.npz", "pairs.json.gz", "tokenizer.json.gz", "config.json", "device_train.py"} <= set(sizes)
    out = tmp_path / "out"
    run = subprocess.run([sys.executable, "device_train.py", "--layers", "1", "--epochs", "1", "--name", "v",
                          "--out", str(out)], cwd=payload, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    scores = json.loads((out / "scores.json").read_text(encoding="utf-8"))
    validator = tmp_path / "validator"
    validator.mkdir()
    shutil.copy(Path("assets/validator/config.json"), validator / "config.json")
    assert unpack(out, "v", validator) == 1
    encoder = CrossEncoder.load(validator, base)
    again = encoder.predict([(q, v) for q, v, _ in PAIRS * 3])
    assert again == pytest.approx(scores["valid_scores"], abs=1e-3)
