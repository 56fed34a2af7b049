"""The validator's ONNX export and its torch-free runtime, on the tiny random model."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from core.errors import ModelLoadError
from validator.config import write_config
from validator.export import export
from validator.export import main as export_main
from validator.files import fingerprint
from validator.inference import OnnxCrossEncoder, onnx_path, open_session, word_embeddings
from validator.model import CrossEncoder, ValidatorConfig, base_network, load_tokenizer, save_validator
from validator.tokenize import PairTokenizer

PAIRS = [("what is the capital of germany", "germany capital ?x"), ("who", "einstein born ulm"),
         ("столица россия", "россия столица москва ?x"), ("德国 首都", "德国 首都 柏林"),
         ("what is the capital of germany", "germany capital ?x"), ("x", "berlin " * 40)]


@pytest.fixture(scope="module")
def exported(tiny_base, tmp_path_factory):
    """A 2-layer tiny validator, its torch encoder and its ONNX export (beside a copy of the base)."""
    root = tmp_path_factory.mktemp("onnx")
    model_dir = root / "v"
    save_validator(base_network(tiny_base, 2).eval(), ValidatorConfig(layers=2, max_length=32, quantize=False),
                   model_dir)
    path = export(model_dir, tiny_base, root / "models" / "validator.onnx")
    return model_dir, path


def test_the_export_scores_as_the_torch_network(tiny_base, exported):
    model_dir, path = exported
    reference = CrossEncoder.load(model_dir, tiny_base)
    runtime = OnnxCrossEncoder(open_session(path, 1),
                               word_embeddings(tiny_base), PairTokenizer.load(tiny_base), max_length=32, path=path)
    torch_scores, onnx_scores = reference.predict(PAIRS), runtime.predict(PAIRS)
    assert onnx_scores == pytest.approx(torch_scores, abs=1e-4)
    assert len(set(onnx_scores)) > 2  # random weights still tell the pairs apart
    assert onnx_scores[0] == onnx_scores[4]  # identical pairs: one score
    assert ([r["corpus_id"] for r in runtime.rank("who", [v for _, v in PAIRS])]
            == [r["corpus_id"] for r in reference.rank("who", [v for _, v in PAIRS])])
    assert runtime.predict([]) == []
    batch = runtime.predict(PAIRS[:3])
    assert [runtime.predict([p])[0] for p in PAIRS[:3]] == pytest.approx(batch, abs=1e-5)  # padding changes nothing


def test_the_pair_tokenizer_is_the_fast_tokenizer(tiny_base):
    hf = load_tokenizer(tiny_base)
    firsts, seconds = [q for q, _ in PAIRS], [v * 9 for _, v in PAIRS]
    assert PairTokenizer.load(tiny_base)(firsts, seconds, max_length=16)["input_ids"] == hf(
        firsts, seconds, truncation=True, max_length=16)["input_ids"]


def test_the_word_embeddings_are_read_from_the_base_weights_row_by_row(tiny_base):
    """Indexing gives the matrix's rows (one id, or a batch of them), and nothing of the file
    stays mapped in the process (a map held ~120 MB per worker, pulled in by read-ahead)."""
    import numpy as np
    from safetensors.numpy import load_file

    matrix = load_file(str(tiny_base / "model.safetensors"))["embeddings.word_embeddings.weight"]
    maps, name = Path("/proc/self/maps"), str((tiny_base / "model.safetensors").resolve())
    mapped_before = maps.read_text().count(name) if maps.exists() else 0
    rows = word_embeddings(tiny_base)
    assert rows.shape == matrix.shape
    assert (rows[5] == matrix[5]).all()
    ids = np.array([[3, 5, 3, 0], [matrix.shape[0] - 1, 1, 1, 1]])
    assert rows[ids].shape == (2, 4, matrix.shape[1]) and (rows[ids] == matrix[ids]).all()
    with pytest.raises(IndexError):
        rows[np.array([0, matrix.shape[0]])]
    if maps.exists():
        assert maps.read_text().count(name) == mapped_before


def test_the_runtime_loads_and_scores_without_torch_or_transformers(tiny_base, tmp_path):
    base = tmp_path / "models" / "base"
    base.mkdir(parents=True)
    for f in tiny_base.iterdir():
        (base / f.name).symlink_to(f)
    model_dir = tmp_path / "v"
    save_validator(base_network(tiny_base, 1).eval(), ValidatorConfig(layers=1, max_length=32, quantize=False),
                   model_dir)
    assert export_main(["--validator-dir", str(model_dir), "--base-dir", str(base)]) == 0
    assert onnx_path(model_dir, base).is_file()
    probe = ("import sys; from pathlib import Path; from validator.runtime import load_encoder; "
             f"e, _ = load_encoder(Path({str(model_dir)!r}), Path({str(base)!r})); s = e.predict([('a', 'b')]); "
             "print(0 <= s[0] <= 1, sorted(m for m in ('torch', 'transformers') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "[]"]


def test_the_fingerprint_follows_the_network_not_the_threshold(tiny_base, tmp_path):
    model_dir = tmp_path / "v"
    config = ValidatorConfig(layers=1, max_length=32, quantize=False)
    save_validator(base_network(tiny_base, 1).eval(), config, model_dir)
    first = fingerprint(model_dir, tiny_base)
    write_config(replace(config, threshold=0.9, gate="mix"), model_dir)
    assert fingerprint(model_dir, tiny_base) == first  # recalibrated: the export still fits
    save_validator(base_network(tiny_base, 1).eval(), replace(config, layers=1, quantize=True), model_dir)
    assert fingerprint(model_dir, tiny_base) != first


def test_a_missing_or_broken_export_is_named_with_its_rebuild_command(tiny_base, tmp_path):
    from core.settings import Settings
    from validator.files import check_validator_files
    from validator.runtime import load_encoder

    base = tmp_path / "models" / "base"
    base.mkdir(parents=True)
    for f in tiny_base.iterdir():
        (base / f.name).symlink_to(f)
    model_dir = tmp_path / "v"
    save_validator(base_network(tiny_base, 1).eval(), ValidatorConfig(layers=1, max_length=32, quantize=False),
                   model_dir)
    settings = Settings(base_model_dir=base, validator_dir=model_dir)
    with pytest.raises(ModelLoadError) as missing:
        check_validator_files(settings)
    assert str(missing.value.path).endswith(".onnx") and "python -m validator.export" in str(missing.value)
    onnx_path(model_dir, base).write_bytes(b"\x08\x07garbage, not a network")
    check_validator_files(settings)  # present: whether it loads is found when it loads
    with pytest.raises(ModelLoadError) as broken:
        load_encoder(model_dir, base)
    assert broken.value.path == onnx_path(model_dir, base) and "python -m validator.export" in str(broken.value)
    assert export_main(["--if-missing", "--validator-dir", str(model_dir), "--base-dir", str(base)]) == 0
    encoder, _ = load_encoder(model_dir, base)  # --if-missing rebuilt the broken file
    assert 0.0 <= encoder.predict([("a", "b")])[0] <= 1.0


def test_int8_export_stays_close(tiny_base, tmp_path):
    model_dir = tmp_path / "v"
    save_validator(base_network(tiny_base, 2).eval(), ValidatorConfig(layers=2, max_length=32, quantize=True,
                                                                      int8_per_channel=True), model_dir)
    path = export(model_dir, tiny_base, tmp_path / "m" / "v.onnx")  # checked against torch fp32 within 0.05
    assert path.stat().st_size > 0


def test_old_exports_are_pruned(tiny_base, tmp_path):
    from validator.inference import prune_exports

    for age, name in enumerate(("validator-old1.onnx", "validator-old2.onnx", "validator-new.onnx")):
        (tmp_path / name).write_bytes(b"x")
        os.utime(tmp_path / name, (time.time() - 3600 * (3 - age), time.time() - 3600 * (3 - age)))
    keep = tmp_path / "validator-keep.onnx"
    keep.write_bytes(b"x")
    gone = prune_exports(tmp_path, keep=keep)
    assert {p.name for p in gone} == {"validator-old1.onnx", "validator-old2.onnx"}
    assert {p.name for p in tmp_path.iterdir()} == {"validator-new.onnx", "validator-keep.onnx"}


def test_the_runtime_paths_import_neither_torch_nor_transformers_and_ask_no_web_stack():
    probe = ("import sys, cli.main, cli.ask, cli.ask_here; ask = set(sys.modules); "
             "import cli.serve, service.workers, validator.runtime, validator.inference; "
             "heavy = ('torch', 'transformers'); "
             "web = ('gradio', 'fastapi', 'uvicorn', 'starlette', 'pydantic', 'tqdm'); "
             "print(sorted(m for m in heavy if m in sys.modules), sorted(m for m in web if m in ask))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["[]", "[]"]
