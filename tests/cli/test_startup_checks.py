"""``kgqa serve`` with a bad setting, a bad flag or a missing file: one line on stderr
naming the variable, exit status 2, before anything loads (issue 35, items 8 and 9).
Real ``kgqa`` processes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from core.settings import PROJECT_ROOT
from tests.service.faulty_http import free_port

CASES = [
    ({"KGQA_TIMEOUT_S": "abc"}, [], "KGQA_TIMEOUT_S"),
    ({"KGQA_TIMEOUT_S": "0"}, [], "KGQA_TIMEOUT_S"),
    ({"KGQA_TIMEOUT_S": "-1"}, [], "KGQA_TIMEOUT_S"),
    ({"KGQA_TIMEOUT_S": "nan"}, [], "KGQA_TIMEOUT_S"),
    ({"KGQA_RETRIES": "abc"}, [], "KGQA_RETRIES"),
    ({"KGQA_THRESHOLD": "abc"}, [], "KGQA_THRESHOLD"),
    ({"KGQA_VALIDATOR": "ture"}, [], "KGQA_VALIDATOR"),
    ({"KGQA_RATE_LIMIT_PER_MINUTE": "-5"}, [], "KGQA_RATE_LIMIT_PER_MINUTE"),
    ({"KGQA_KG_SOURCE": "/etc/passwd"}, [], "KGQA_KG_SOURCE"),
    ({"KGQA_SERVE_PORT": "70000"}, [], "KGQA_SERVE_PORT"),
    ({}, ["--port", "-1"], "--port"),
    ({}, ["--port", "70000"], "--port"),
    ({}, ["--kg-endpoint", "http://[::1/sparql"], "--kg-endpoint"),
    ({}, ["--kg-endpoint", "localhost:7878"], "--kg-endpoint"),
    ({}, ["--backend", "qanswer"], "--backend"),
    ({}, ["--rate-limit", "-5"], "--rate-limit"),
    ({}, ["--timeout", "nan"], "--timeout"),
]


def _serve(env: dict[str, str], *args: str, timeout_s: float = 60) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("KGQA_")}
    return subprocess.run([sys.executable, "-m", "cli.main", "serve", "--workers", "0", *args], cwd=PROJECT_ROOT,
                          env={**clean, **env}, capture_output=True, text=True, timeout=timeout_s)


@pytest.mark.parametrize("env, args, named", CASES)
def test_a_bad_setting_is_one_line_and_exit_2(env: dict[str, str], args: list[str], named: str,
                                               monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture):
    from cli.main import main

    for key in [k for k in os.environ if k.startswith("KGQA_")]:
        monkeypatch.delenv(key)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    try:
        code = main(["serve", "--workers", "0", *args])
    except SystemExit as exc:  # argparse's usage errors
        code = exc.code
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and named in lines[0] and out == "", err


def test_bad_settings_as_real_processes():
    done = _serve({"KGQA_VALIDATOR": "ture"})
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "KGQA_VALIDATOR" in done.stderr
    done = _serve({}, "--port", "70000")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "--port" in done.stderr


def test_a_missing_kg_source_and_a_missing_validator_stop_the_start(tiny_nt: Path, tmp_path: Path):
    missing = _serve({}, "--kg-source", str(tmp_path / "gone.nt"), "--no-validator")
    assert missing.returncode == 2 and "gone.nt" in missing.stderr and "Traceback" not in missing.stderr
    no_model = _serve({"KGQA_VALIDATOR_DIR": str(tmp_path / "no-validator")}, "--kg-source", str(tiny_nt),
                      "--cache-dir", str(tmp_path / "cache"))
    assert no_model.returncode == 2 and "Traceback" not in no_model.stderr
    last = no_model.stderr.strip().splitlines()[-1]
    assert "ModelLoadError" in last and "--no-validator" in last
    assert not (tmp_path / "cache").exists()  # nothing loaded or built before the check


def _corrupt_copy(source: Path, target: Path, name: str, keep: int) -> Path:
    shutil.copytree(source, target)
    (target / name).write_bytes((source / name).read_bytes()[:keep])
    return target


@pytest.mark.slow
def test_a_corrupt_model_stops_serve_with_exit_2(tiny_nt: Path, tmp_path: Path):
    from core.settings import VALIDATOR_DIR, load_settings

    base = load_settings({}).model_dir
    if not (base / "tokenizer.json").is_file():
        pytest.skip("the base model is not converted (scripts/bootstrap.sh)")
    validator = _corrupt_copy(VALIDATOR_DIR, tmp_path / "validator", "model.safetensors", 1000)
    done = _serve({"KGQA_VALIDATOR_DIR": str(validator), "KGQA_BASE_MODEL_DIR": str(base)}, "--workers", "1",
                  "--kg-source", str(tiny_nt), "--cache-dir", str(tmp_path / "cache"), "--port", str(free_port()),
                  timeout_s=300)
    # serving starts at once; when the workers cannot load the model, serve stops with their error
    assert done.returncode == 2, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("kgqa serve: error: ModelLoadError") and "model.safetensors" in last
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_a_corrupt_tokenizer_makes_kgqa_ask_exit_2(tiny_nt: Path, tmp_path: Path):
    from core.settings import load_settings

    base = load_settings({}).model_dir
    if not (base / "tokenizer.json").is_file():
        pytest.skip("the base model is not converted (scripts/bootstrap.sh)")
    broken = _corrupt_copy(base, tmp_path / "models" / "e5-small", "tokenizer.json", 10)
    _export_beside(base, broken)
    clean = {k: v for k, v in os.environ.items() if not k.startswith("KGQA_")}
    done = subprocess.run([sys.executable, "-m", "cli.main", "ask", "Where was Albert Einstein born?", "--local",
                           "--no-log", "--kg-source", str(tiny_nt), "--cache-dir", str(tmp_path / "cache")],
                          cwd=PROJECT_ROOT, env={**clean, "KGQA_BASE_MODEL_DIR": str(broken)}, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 2 and done.stdout == "", done.stderr  # no "Something went wrong" answer, no exit 0
    last = done.stderr.strip().splitlines()[-1]
    assert "ModelLoadError" in last and "tokenizer.json" in last and "Traceback" not in done.stderr


def _export_beside(base: Path, copy: Path) -> Path:
    """The shipped validator's ONNX export (built by the set-up) beside ``copy`` of the base model."""
    from core.settings import VALIDATOR_DIR
    from validator.inference import onnx_path

    built = onnx_path(VALIDATOR_DIR, base)
    if not built.is_file():
        pytest.skip("the validator is not exported (scripts/bootstrap.sh)")
    target = onnx_path(VALIDATOR_DIR, copy)
    target.symlink_to(built)
    return target


@pytest.mark.slow
def test_a_missing_or_broken_onnx_export_makes_kgqa_ask_exit_2(tiny_nt: Path, tmp_path: Path):
    """No silent unvalidated answer: one line naming the file and how to rebuild it."""
    from core.settings import VALIDATOR_DIR, load_settings
    from validator.inference import onnx_path

    base = load_settings({}).model_dir
    if not (base / "tokenizer.json").is_file():
        pytest.skip("the base model is not converted (scripts/bootstrap.sh)")
    copy = tmp_path / "models" / "e5-small"
    copy.mkdir(parents=True)
    for f in base.iterdir():
        (copy / f.name).symlink_to(f)
    clean = {k: v for k, v in os.environ.items() if not k.startswith("KGQA_")}

    def ask() -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "cli.main", "ask", "Where was Albert Einstein born?", "--local",
                               "--no-log", "--kg-source", str(tiny_nt), "--cache-dir", str(tmp_path / "cache")],
                              cwd=PROJECT_ROOT, env={**clean, "KGQA_BASE_MODEL_DIR": str(copy)},
                              capture_output=True, text=True, timeout=300)

    target = onnx_path(VALIDATOR_DIR, copy)
    for content in (None, b"\x08\x01 not a network"):
        if content is not None:
            target.write_bytes(content)
        done = ask()
        assert done.returncode == 2 and done.stdout == "", done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in done.stderr
        assert "ModelLoadError" in lines[0] and target.name in lines[0] and "python -m validator.export" in lines[0]


@pytest.mark.slow
def test_a_corrupt_model_stops_the_chat_with_exit_2(tiny_nt: Path, tmp_path: Path):
    from core.settings import VALIDATOR_DIR, load_settings

    base = load_settings({}).model_dir
    if not (base / "tokenizer.json").is_file():
        pytest.skip("the base model is not converted (scripts/bootstrap.sh)")
    validator = _corrupt_copy(VALIDATOR_DIR, tmp_path / "validator", "model.safetensors", 1000)
    clean = {k: v for k, v in os.environ.items() if not k.startswith("KGQA_")}
    env = {**clean, "KGQA_VALIDATOR_DIR": str(validator), "KGQA_BASE_MODEL_DIR": str(base),
           "GRADIO_ANALYTICS_ENABLED": "False"}
    done = subprocess.run([sys.executable, "app.py", "--workers", "1", "--kg-source", str(tiny_nt), "--cache-dir",
                           str(tmp_path / "cache"), "--port", str(free_port()), "--log-path",
                           str(tmp_path / "s.sqlite")], cwd=PROJECT_ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 2, done.stderr[-2000:]
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("kgqa chat: error: ModelLoadError") and "model.safetensors" in last
