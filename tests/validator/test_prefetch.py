"""``kgqa ask``'s encoder loads in the background (LazyEncoder.prefetch) and scores the same."""

from __future__ import annotations

import shutil

import pytest

from core.errors import ModelLoadError
from validator.export import export
from validator.model import ValidatorConfig, base_network, save_validator
from validator.runtime import LazyEncoder, load_encoder

pytestmark = pytest.mark.slow  # a torch export (~20 s on a busy box)

PAIRS = [("what is the capital of germany", "germany capital ?x"), ("who", "einstein born ulm")]


@pytest.fixture(scope="module")
def validator(tiny_base, tmp_path_factory):
    """A tiny validator and its ONNX export where the runtime looks for it (beside a base copy)."""
    root = tmp_path_factory.mktemp("prefetch")
    base = shutil.copytree(tiny_base, root / "models" / "base")
    model_dir = root / "v"
    save_validator(base_network(base, 1).eval(), ValidatorConfig(layers=1, max_length=32, quantize=False), model_dir)
    export(model_dir, base)
    return model_dir, base


def test_a_prefetched_encoder_scores_as_the_loaded_one(validator):
    model_dir, base = validator
    calls = []
    lazy = LazyEncoder(model_dir, base, before_load=lambda: calls.append(1))
    lazy.prefetch()
    lazy.wait()
    assert lazy._encoder is not None and calls == []  # loaded in the background, nothing released yet
    direct, _ = load_encoder(model_dir, base)
    assert lazy.predict(PAIRS) == direct.predict(PAIRS)
    assert lazy.predict(PAIRS[:1]) == direct.predict(PAIRS[:1])
    assert calls == [1] and lazy.error is None


def test_a_failed_prefetch_raises_where_it_scores(validator, tmp_path):
    model_dir, base = validator
    copy = shutil.copytree(base, tmp_path / "models" / "base")  # no export beside this copy
    calls = []
    lazy = LazyEncoder(model_dir, copy, before_load=lambda: calls.append(1))
    lazy.prefetch()
    with pytest.raises(ModelLoadError) as caught:
        lazy.predict(PAIRS)
    assert ".onnx" in str(caught.value) and lazy.error is caught.value and calls == [1]
