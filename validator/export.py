"""Export the shipped validator to ONNX for the torch-free runtime (:mod:`validator.inference`).

The exported graph is the cross-encoder's padded forward pass written out in plain torch
operations (:class:`ExportNet`): word-embedding rows in (the runtime gathers them from the
memory-mapped base model), position and token-type embeddings, the encoder layers with the
attention mask, mean pooling over the real tokens, the linear logit.  After writing, the
export is checked against the torch network it came from on a few pairs (max |score
difference| below :data:`EXPORT_TOLERANCE`), and written atomically into the cache.  A
validator configured with ``quantize`` is exported with ONNX Runtime's int8 dynamic
quantization of its matrix products.

Usage: ``python -m validator.export [--if-missing] [--validator-dir DIR] [--base-dir DIR]``
(the set-up, ``scripts/bootstrap.sh``, runs it with ``--if-missing``).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import warnings
from pathlib import Path

import torch
from torch import nn

from core.errors import ModelLoadError
from core.settings import load_settings
from validator.config import read_config
from validator.inference import OnnxCrossEncoder, onnx_path, open_session, prune_exports, word_embeddings
from validator.model import CrossEncoder, CrossEncoderNet, load_network
from validator.tokenize import PairTokenizer

OPSET = 17
EXPORT_TOLERANCE = 1e-3
CHECK_PAIRS = [("Where was Albert Einstein born?", "Albert Einstein place of birth ?x"),
               ("Wo wurde Albert Einstein geboren?", "Ulm country ?x"),
               ("Какая столица у России?", "Россия столица ?x"), ("法国的首都是哪里？", "法国 首都 ?x"),
               ("Who wrote Faust?", "Faust author ?x"), ("?", "x")]


class ExportNet(nn.Module):
    """The cross-encoder's padded forward pass from word-embedding rows (what ONNX runs)."""

    def __init__(self, net: CrossEncoderNet) -> None:
        super().__init__()
        bert = net.bert
        self.embeddings = bert.embeddings
        self.layers = bert.encoder.layer
        self.heads = bert.config.num_attention_heads
        self.head = net.head
        if bert.config.hidden_act != "gelu":
            raise ValueError(f"no export for activation {bert.config.hidden_act!r}")

    def forward(self, inputs_embeds: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """Logits ``(pairs,)`` of ``inputs_embeds`` ``(pairs, tokens, hidden)``."""
        emb = self.embeddings
        n, width, hidden = inputs_embeds.shape
        x = inputs_embeds + emb.position_embeddings.weight[:width].unsqueeze(0) + emb.token_type_embeddings.weight[0]
        x = emb.LayerNorm(x)
        mask = attention_mask.to(x.dtype)
        bias = ((1.0 - mask) * -1e9)[:, None, None, :]  # padded keys get no attention
        dim = hidden // self.heads
        for layer in self.layers:
            sa = layer.attention.self

            def split(t: torch.Tensor, dim: int = dim) -> torch.Tensor:
                return t.view(n, width, self.heads, dim).transpose(1, 2)

            q, k, v = split(sa.query(x)), split(sa.key(x)), split(sa.value(x))
            probs = (torch.matmul(q, k.transpose(-1, -2)) * dim ** -0.5 + bias).softmax(-1)
            ctx = torch.matmul(probs, v).transpose(1, 2).reshape(n, width, hidden)
            out = layer.attention.output
            x = out.LayerNorm(out.dense(ctx) + x)
            h = nn.functional.gelu(layer.intermediate.dense(x))
            x = layer.output.LayerNorm(layer.output.dense(h) + x)
        weights = mask.unsqueeze(-1)
        pooled = (x * weights).sum(1) / weights.sum(1).clamp(min=1.0)
        return self.head(pooled).squeeze(-1)


def export(model_dir: Path, base_dir: Path, out: Path | None = None) -> Path:
    """Write the ONNX export of the validator in ``model_dir`` over ``base_dir`` (default
    path: :func:`validator.inference.onnx_path`), checked against torch; returns its path."""
    model_dir, base_dir = Path(model_dir), Path(base_dir)
    config = read_config(model_dir)
    out = Path(out) if out else onnx_path(model_dir, base_dir, config)
    net = load_network(model_dir, base_dir, config).eval()
    wrapper = ExportNet(net).eval()
    hidden = net.bert.config.hidden_size
    sample = (torch.randn(2, 7, hidden), torch.ones(2, 7, dtype=torch.long))
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out.parent, prefix=".export-") as tmp:
        raw = Path(tmp) / "validator.onnx"
        with warnings.catch_warnings(), torch.inference_mode():
            warnings.simplefilter("ignore")
            torch.onnx.export(wrapper, sample, str(raw), input_names=["inputs_embeds", "attention_mask"],
                              output_names=["logits"], opset_version=OPSET, dynamo=False,
                              dynamic_axes={"inputs_embeds": {0: "pairs", 1: "tokens"},
                                            "attention_mask": {0: "pairs", 1: "tokens"}, "logits": {0: "pairs"}})
        final = raw
        if config.quantize:
            from onnxruntime.quantization import QuantType, quantize_dynamic

            final = Path(tmp) / "validator-int8.onnx"
            quantize_dynamic(str(raw), str(final), weight_type=QuantType.QInt8,
                             per_channel=config.int8_per_channel)
        check(CrossEncoder(net, PairTokenizer.load(base_dir), max_length=config.max_length),
              OnnxCrossEncoder(open_session(final, 1), word_embeddings(base_dir), PairTokenizer.load(base_dir),
                               max_length=config.max_length, path=final),
              tolerance=0.05 if config.quantize else EXPORT_TOLERANCE)
        partial = out.with_suffix(f".{os.getpid()}.tmp")
        os.replace(final, partial)
        os.replace(partial, out)
    prune_exports(out.parent, keep=out)
    return out


def check(reference: CrossEncoder, exported: OnnxCrossEncoder, tolerance: float = EXPORT_TOLERANCE) -> float:
    """The largest |score difference| of the two on :data:`CHECK_PAIRS`; raises
    :class:`ModelLoadError` above ``tolerance``."""
    pairs = CHECK_PAIRS + [(q, v * 12) for q, v in CHECK_PAIRS[:2]]  # and pairs past max_length
    diff = max(abs(a - b) for a, b in zip(reference.predict(pairs), exported.predict(pairs), strict=True))
    if diff > tolerance:
        raise ModelLoadError(exported.path or "validator.onnx", f"export differs from torch by {diff:.4f}")
    return diff


def _usable(path: Path) -> bool:
    """Whether ``path`` is an ONNX network that opens (a torn or corrupt one is rebuilt)."""
    try:
        open_session(path, 1)
    except ModelLoadError:
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    """``python -m validator.export``: write the validator's ONNX network into the cache."""
    parser = argparse.ArgumentParser(prog="python -m validator.export", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--validator-dir", type=Path, help="shipped validator (default: settings.validator_dir)")
    parser.add_argument("--base-dir", type=Path, help="converted base model (default: settings.model_dir)")
    parser.add_argument("--if-missing", action="store_true",
                        help="do nothing when the export is already built and opens")
    args = parser.parse_args(argv)
    settings = load_settings(os.environ)
    model_dir = args.validator_dir or settings.validator_dir
    base_dir = args.base_dir or settings.model_dir
    try:
        target = onnx_path(model_dir, base_dir)
        if args.if_missing and _usable(target):
            return 0
        path = export(model_dir, base_dir, target)
    except ModelLoadError as exc:
        print(f"validator.export: error: {exc}", file=sys.stderr)
        return 2
    print(f"validator exported to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
