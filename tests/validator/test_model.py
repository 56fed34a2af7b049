"""The converter and the cross-encoder on a tiny random model."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from core.errors import ModelLoadError
from validator.convert import is_complete, parse_e5, read_tensor
from validator.convert import main as convert_main
from validator.model import (
    WORD_EMBEDDINGS,
    CrossEncoder,
    ValidatorConfig,
    base_network,
    load_network,
    load_tokenizer,
    quantize,
    read_config,
    save_validator,
    trainable_state,
)

PAIRS = [("what is the capital of germany", "germany capital ?x"), ("who", "einstein born ulm"),
         ("столица россия", "россия столица москва ?x"), ("德国 首都", "德国 首都 柏林"),
         ("what is the capital of germany", "germany capital ?x")]


def test_converter_builds_a_bert_directory(tiny_base):
    assert is_complete(tiny_base)
    config = json.loads((tiny_base / "config.json").read_text())
    assert config["model_type"] == "bert" and config["num_hidden_layers"] == 2 and config["hidden_size"] == 32
    tok = load_tokenizer(tiny_base)
    ids = tok("what is", "berlin")["input_ids"]
    assert ids[0] == 0 and ids[-1] == 2 and ids.count(2) == 3  # <s> A </s></s> B </s>


def test_q4_dequantization_is_close(tmp_path):
    from tests.validator.tiny_model import write_e5s1

    f = parse_e5(write_e5s1(tmp_path / "m.bin", seed=5))
    w = read_tensor(f, "l0.q.w", (32, 32))
    assert w.dtype == np.float32 and w.shape == (32, 32)
    assert 0.01 < float(np.abs(w).mean()) < 0.2  # de-quantized N(0, 0.05) weights


def test_convert_if_missing_is_a_no_op(tiny_base, tmp_path):
    stamp = (tiny_base / "model.safetensors").stat().st_mtime_ns
    assert convert_main(["--out", str(tiny_base), "--if-missing"]) == 0
    assert (tiny_base / "model.safetensors").stat().st_mtime_ns == stamp


def test_corrupt_e5_source_is_named(tmp_path, capsys):
    bad = tmp_path / "broken.bin"
    bad.write_bytes(b"E5S1" + b"\x00" * 20)
    with pytest.raises(ModelLoadError, match="broken.bin"):
        parse_e5(bad)
    (tmp_path / "other.bin").write_bytes(b"GGUF")
    assert convert_main(["--out", str(tmp_path / "out"), "--source", str(tmp_path / "other.bin")]) == 2
    assert "other.bin" in capsys.readouterr().err


def test_predict_shape_range_and_order(tiny_base):
    enc = CrossEncoder(base_network(tiny_base, 2), load_tokenizer(tiny_base), max_length=32, batch_size=2)
    scores = enc.predict(PAIRS)
    assert len(scores) == len(PAIRS)
    assert all(0.0 <= s <= 1.0 for s in scores)
    assert scores[0] == scores[4]  # duplicates are scored once
    assert enc.predict([]) == []
    # batching and length-sorting do not change the scores
    single = CrossEncoder(enc.net, enc.tokenizer, max_length=32, batch_size=1).predict(PAIRS)
    assert single == pytest.approx(scores, abs=1e-5)
    assert [enc.predict([p])[0] for p in PAIRS] == pytest.approx(scores, abs=1e-5)


def test_rank_orders_verbalizations_best_first_as_sentence_transformers(tiny_base):
    enc = CrossEncoder(base_network(tiny_base, 2), load_tokenizer(tiny_base), max_length=32)
    question = PAIRS[0][0]
    verbalizations = [v for _, v in PAIRS]
    scores = enc.predict([(question, v) for v in verbalizations])
    ranked = enc.rank(question, verbalizations)
    assert sorted(r["corpus_id"] for r in ranked) == list(range(len(verbalizations)))
    assert [r["score"] for r in ranked] == sorted(scores, reverse=True)
    assert all(r["score"] == scores[r["corpus_id"]] for r in ranked)
    assert [r["corpus_id"] for r in enc.rank(question, verbalizations, top_k=2)] == [r["corpus_id"]
                                                                                     for r in ranked[:2]]
    assert enc.rank(question, []) == []


def test_truncation_bounds_tokens(tiny_base):
    enc = CrossEncoder(base_network(tiny_base, 1), load_tokenizer(tiny_base), max_length=16)
    batch = enc.tokenize([("what is the capital " * 20, "germany capital " * 20)])
    assert batch["input_ids"].shape[1] == 16


def test_shipped_weights_exclude_word_embeddings_and_round_trip(tiny_base, tmp_path):
    original = base_network(tiny_base, 1)
    state = trainable_state(original)
    assert WORD_EMBEDDINGS not in state and all(v.dtype == torch.float16 for v in state.values())
    save_validator(original, ValidatorConfig(layers=1, threshold=0.4, quantize=False), tmp_path / "v")
    config = read_config(tmp_path / "v")
    assert config.threshold == 0.4 and config.layers == 1
    net = load_network(tmp_path / "v", tiny_base, config)
    assert len(net.bert.encoder.layer) == 1
    for name, value in net.state_dict().items():
        expected = original.state_dict()[name]
        if name == WORD_EMBEDDINGS:
            assert torch.equal(value, expected)
        else:
            assert torch.allclose(value, expected.half().float())
    tok = load_tokenizer(tiny_base)
    reloaded = CrossEncoder.load(tmp_path / "v", tiny_base).predict(PAIRS)
    assert reloaded == pytest.approx(CrossEncoder(original, tok, max_length=80).predict(PAIRS), abs=2e-3)


def test_int8_scores_stay_close(tiny_base):
    net = base_network(tiny_base, 2)
    tok = load_tokenizer(tiny_base)
    fp32 = CrossEncoder(net, tok).predict(PAIRS)
    int8 = CrossEncoder(quantize(net), tok).predict(PAIRS)
    assert int8 == pytest.approx(fp32, abs=0.05)


def test_corrupt_weights_raise_model_load_error_naming_the_file(tiny_base, tiny_validator):
    weights = tiny_validator / "model.safetensors"
    weights.write_bytes(weights.read_bytes()[:200])
    with pytest.raises(ModelLoadError, match="model.safetensors") as info:
        CrossEncoder.load(tiny_validator, tiny_base)
    assert str(weights) in str(info.value)


def test_missing_or_corrupt_config(tiny_base, tiny_validator):
    (tiny_validator / "config.json").write_text("{not json")
    with pytest.raises(ModelLoadError, match="config.json"):
        CrossEncoder.load(tiny_validator, tiny_base)
    (tiny_validator / "config.json").unlink()
    with pytest.raises(ModelLoadError, match="no such file"):
        read_config(tiny_validator)


def test_weights_from_another_base_do_not_load(tiny_base, tiny_validator, tmp_path):
    from safetensors.torch import load_file, save_file

    path = tiny_validator / "model.safetensors"
    state = load_file(str(path))
    state["head.weight"] = torch.zeros(1, 7, dtype=torch.float16)
    save_file(state, str(path))
    with pytest.raises(ModelLoadError, match="do not fit"):
        CrossEncoder.load(tiny_validator, tiny_base)


def test_selective_quantization_keeps_named_layers_in_fp32(tiny_base, tmp_path):
    net = base_network(tiny_base, 2)
    partial = quantize(net, (r"output\.dense$",))
    int8 = {name for name, m in partial.named_modules() if "quantized" in type(m).__module__}
    assert "bert.encoder.layer.0.intermediate.dense" in int8 and "head" in int8
    assert "bert.encoder.layer.0.output.dense" not in int8
    assert "bert.encoder.layer.0.attention.output.dense" not in int8
    assert "quantized" not in type(net.bert.encoder.layer[0].intermediate.dense).__module__  # original untouched
    ffn_out = r"layer\.\d+\.output\.dense$"
    save_validator(net, ValidatorConfig(layers=2, quantize=True, int8_skip=(ffn_out,)), tmp_path / "v")
    assert read_config(tmp_path / "v").int8_skip == (ffn_out,)
    loaded = CrossEncoder.load(tmp_path / "v", tiny_base)
    assert "quantized" not in type(loaded.net.bert.encoder.layer[1].output.dense).__module__
    assert "quantized" in type(loaded.net.bert.encoder.layer[1].attention.output.dense).__module__


def test_packed_inference_equals_the_padded_forward(tiny_base):
    from validator.model import packed_logits

    net = base_network(tiny_base, 2).eval()
    torch.nn.init.normal_(net.head.weight, std=1.0)  # a head that spreads the logits
    enc = CrossEncoder(net, load_tokenizer(tiny_base), max_length=32)
    ids = enc._token_ids(PAIRS)
    assert len({len(row) for row in ids}) > 1  # pairs of different lengths: padding matters
    with torch.inference_mode():
        padded = net(**enc.tokenize(PAIRS))
        packed = packed_logits(net, ids)
    assert torch.allclose(packed, padded, atol=1e-5)


def test_fused_per_channel_int8_is_close_and_round_trips(tiny_base, tmp_path):
    net = base_network(tiny_base, 2).eval()
    tok = load_tokenizer(tiny_base)
    fp32 = CrossEncoder(net, tok).predict(PAIRS)
    fused = quantize(net, per_channel=True, fuse=True)
    assert not hasattr(net.bert.encoder.layer[0].attention.self, "qkv")  # the original is untouched
    assert "quantized" in type(fused.bert.encoder.layer[0].attention.self.qkv).__module__
    assert CrossEncoder(fused, tok).predict(PAIRS) == pytest.approx(fp32, abs=0.05)
    config = ValidatorConfig(layers=2, quantize=True, int8_per_channel=True, fuse_qkv=True)
    save_validator(net, config, tmp_path / "v")
    assert read_config(tmp_path / "v") == config
    loaded = CrossEncoder.load(tmp_path / "v", tiny_base)
    assert hasattr(loaded.net.bert.encoder.layer[1].attention.self, "qkv")
    assert loaded.predict(PAIRS) == pytest.approx(fp32, abs=0.05)


def test_init_from_a_deeper_validator_drops_its_top_layers(tiny_base, tmp_path):
    from training.finetune import init_from_validator

    deep = base_network(tiny_base, 2)
    torch.nn.init.normal_(deep.head.weight, std=1.0)
    save_validator(deep, ValidatorConfig(layers=2), tmp_path / "deep")
    shallow = base_network(tiny_base, 1)
    init_from_validator(shallow, tmp_path / "deep")
    assert len(shallow.bert.encoder.layer) == 1
    deep_state = deep.state_dict()
    for name, value in shallow.state_dict().items():
        assert torch.allclose(value, deep_state[name].half().float() if name != WORD_EMBEDDINGS else deep_state[name])
    with pytest.raises(ModelLoadError, match="missing"):
        save_validator(base_network(tiny_base, 1), ValidatorConfig(layers=1), tmp_path / "shallow")
        init_from_validator(base_network(tiny_base, 2), tmp_path / "shallow")


def test_grow_starts_a_deeper_validator_from_a_shallower_one_and_the_base_model(tiny_base, tmp_path):
    from training.finetune import init_from_validator

    shallow = base_network(tiny_base, 1)
    torch.nn.init.normal_(shallow.head.weight, std=1.0)
    torch.nn.init.normal_(shallow.bert.encoder.layer[0].intermediate.dense.weight, std=1.0)
    save_validator(shallow, ValidatorConfig(layers=1), tmp_path / "shallow")
    grown = base_network(tiny_base, 2)
    init_from_validator(grown, tmp_path / "shallow", grow=True)
    base, mine, theirs = base_network(tiny_base, 2).state_dict(), grown.state_dict(), shallow.state_dict()
    for name, value in mine.items():
        if name.startswith("bert.encoder.layer.1."):
            assert torch.equal(value, base[name]), name  # the layer the validator lacks: the base model's
        elif name != WORD_EMBEDDINGS:
            assert torch.allclose(value, theirs[name].half().float()), name
    assert not torch.allclose(mine["head.weight"], base["head.weight"])
