"""The cross-encoder: (question, verbalization) -> probability that the candidate is right.

Architecture: the first ``layers`` transformer layers of the multilingual-e5-small
``BertModel`` built at setup (:mod:`validator.convert`), mean pooling, one linear
logit.  The 250k x 384 word-embedding matrix is frozen and always comes from the base
model; only the other weights are fine-tuned and shipped (fp16 safetensors).

:class:`CrossEncoder` follows sentence-transformers' ``CrossEncoder`` API:
``predict(pairs)`` returns one probability per (question, verbalization) pair (batched,
under ``torch.inference_mode()``), ``rank(question, verbalizations)`` returns
``{"corpus_id", "score"}`` dicts best first.  ``tokenize(pairs)`` turns pairs into padded
model inputs (sentence-transformers has no ``encode`` on its ``CrossEncoder``; here
nothing is called ``encode``).
"""

from __future__ import annotations

import contextlib
import json
import re
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch
from torch import nn

from core.errors import ModelLoadError
from validator.config import CONFIG_FILE, ValidatorConfig, read_config, write_config
from validator.files import WEIGHTS_FILE

WORD_EMBEDDINGS = "bert.embeddings.word_embeddings.weight"
_SEPARATE_QKV = r"attention\.self\.(query|key|value)$"


class CrossEncoderNet(nn.Module):
    """Truncated BERT encoder + mean pooling + a linear logit."""

    def __init__(self, bert: nn.Module) -> None:
        super().__init__()
        self.bert = bert
        hidden = bert.config.hidden_size
        self.dropout = nn.Dropout(0.1)
        self.head = nn.Linear(hidden, 1)
        nn.init.normal_(self.head.weight, std=0.02)
        nn.init.zeros_(self.head.bias)

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """Logits of shape ``(batch,)``."""
        hidden = self.bert(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
        pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1.0)
        return self.head(self.dropout(pooled)).squeeze(-1)


def load_tokenizer(base_dir: Path) -> Any:
    """The fast XLM-R tokenizer written by :mod:`validator.convert`."""
    from transformers import PreTrainedTokenizerFast

    path = Path(base_dir) / "tokenizer.json"
    try:
        return PreTrainedTokenizerFast(
            tokenizer_file=str(path), bos_token="<s>", eos_token="</s>", sep_token="</s>", cls_token="<s>",
            unk_token="<unk>", pad_token="<pad>", mask_token="<mask>", model_max_length=512)
    except (OSError, ValueError, RuntimeError) as exc:  # tokenizers raises Exception subclasses
        raise ModelLoadError(path, f"cannot load tokenizer: {exc}") from exc


def _bert_config(base_dir: Path, layers: int) -> Any:
    from transformers import BertConfig

    path = Path(base_dir) / CONFIG_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ModelLoadError(path, f"cannot read base config: {exc}") from exc
    data["num_hidden_layers"] = min(layers, int(data.get("num_hidden_layers", layers)))
    return BertConfig(**data)


def _read_safetensors(path: Path, keys: Sequence[str] | None = None) -> dict[str, torch.Tensor]:
    from safetensors import SafetensorError
    from safetensors.torch import safe_open

    if not path.is_file():
        raise ModelLoadError(path, "no such file")
    try:
        with safe_open(str(path), framework="pt") as handle:
            available = set(handle.keys())
            names = sorted(available) if keys is None else list(keys)
            missing = [k for k in names if k not in available]
            if missing:
                raise ModelLoadError(path, f"missing tensors {missing[:3]}")
            return {k: handle.get_tensor(k) for k in names}
    except (SafetensorError, OSError, ValueError, RuntimeError) as exc:
        raise ModelLoadError(path, f"corrupt or unreadable weights: {exc}") from exc


def base_network(base_dir: Path, layers: int) -> CrossEncoderNet:
    """A fresh network initialised from the base model's first ``layers`` layers."""
    from transformers import BertModel

    config = _bert_config(base_dir, layers)
    bert = BertModel(config, add_pooling_layer=False)
    path = Path(base_dir) / WEIGHTS_FILE
    wanted = [k for k in bert.state_dict() if not k.startswith("encoder.layer.") or
              int(k.split(".")[2]) < config.num_hidden_layers]
    state = _read_safetensors(path, wanted)
    bert.load_state_dict(state, strict=True)
    return CrossEncoderNet(bert)


def trainable_state(net: CrossEncoderNet) -> dict[str, torch.Tensor]:
    """Every weight except the frozen word embeddings, in fp16 (what ships)."""
    return {k: v.detach().to(torch.float16).contiguous() for k, v in net.state_dict().items()
            if k != WORD_EMBEDDINGS}


def save_validator(net: CrossEncoderNet, config: ValidatorConfig, out_dir: Path) -> None:
    """Write ``model.safetensors`` (fp16, no word embeddings) and ``config.json``."""
    from safetensors.torch import save_file

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    save_file(trainable_state(net), str(out_dir / WEIGHTS_FILE), metadata={"format": "pt"})
    write_config(config, out_dir)


def load_network(model_dir: Path, base_dir: Path, config: ValidatorConfig) -> CrossEncoderNet:
    """The fine-tuned network: shipped weights on top of the base word embeddings."""
    from transformers import BertModel

    try:
        from transformers.initialization import no_init_weights
    except ImportError:  # another transformers layout: initialize as usual
        no_init_weights = contextlib.nullcontext
    with no_init_weights():  # every weight is loaded below: skip the random initialization (~5 s)
        bert = BertModel(_bert_config(base_dir, config.layers), add_pooling_layer=False)
    net = CrossEncoderNet(bert)
    shipped_path = Path(model_dir) / WEIGHTS_FILE
    shipped = _read_safetensors(shipped_path)
    embeddings = _read_safetensors(Path(base_dir) / WEIGHTS_FILE, ["embeddings.word_embeddings.weight"])
    state = {k: v.float() for k, v in shipped.items()}
    state[WORD_EMBEDDINGS] = embeddings["embeddings.word_embeddings.weight"]
    try:
        net.load_state_dict(state, strict=True)
    except RuntimeError as exc:
        raise ModelLoadError(shipped_path, f"weights do not fit the base model: {exc}") from exc
    return net


def quantize(net: CrossEncoderNet, skip: Sequence[str] = (), *, per_channel: bool = False,
             fuse: bool = False) -> nn.Module:
    """int8 dynamic quantization of the Linear layers (inference only; returns a copy).

    Layers whose name matches one of the ``skip`` regexes stay in fp32 (outlier-heavy
    projections such as the feed-forward output ``layer.N.output.dense`` cost accuracy
    when quantized).  ``per_channel`` gives every output row its own weight scale;
    ``fuse`` first merges each attention's query/key/value into one Linear
    (:func:`fuse_qkv`).
    """
    import copy

    net = fuse_qkv(copy.deepcopy(net)) if fuse else net
    skip = (*skip, _SEPARATE_QKV) if fuse else tuple(skip)  # packed_logits runs the fused qkv only
    names = {name for name, module in net.named_modules()
             if isinstance(module, nn.Linear) and not any(re.search(pattern, name) for pattern in skip)}
    qconfig = (torch.ao.quantization.per_channel_dynamic_qconfig if per_channel
               else torch.ao.quantization.default_dynamic_qconfig)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return torch.ao.quantization.quantize_dynamic(net, dict.fromkeys(names, qconfig), dtype=torch.qint8)


def packed_logits(net: CrossEncoderNet, ids: Sequence[Sequence[int]]) -> torch.Tensor:
    """Inference logits of ``net`` without padding (same math as ``net(**padded)``).

    Every token of every pair is one row of a ``(tokens, hidden)`` matrix, so the Linear
    layers (almost all of the cost) never compute padding; only the attention itself runs
    on a padded ``(pairs, heads, longest, head_dim)`` view, with padded keys masked out.
    Dropout is skipped (inference).  Works on the int8 network as well.
    """
    bert = net.bert
    lengths = torch.tensor([len(row) for row in ids], dtype=torch.long)
    n, width = len(ids), int(lengths.max())
    flat = torch.tensor([t for row in ids for t in row], dtype=torch.long)
    positions = torch.cat([torch.arange(int(k)) for k in lengths])
    emb = bert.embeddings
    x = emb.word_embeddings(flat) + emb.position_embeddings(positions) + emb.token_type_embeddings.weight[0]
    x = emb.LayerNorm(x)
    mask = torch.arange(width)[None, :] < lengths[:, None]  # (pairs, width)
    starts = torch.cumsum(lengths, 0) - lengths
    # padded slot -> packed row (padding reads row `total`, a zero row appended below)
    gather = torch.where(mask, starts[:, None] + torch.arange(width)[None, :], flat.numel()).reshape(-1)
    slots = mask.reshape(-1).nonzero().squeeze(1)  # packed row -> padded slot
    heads = bert.config.num_attention_heads
    hidden = x.shape[1]
    dim = hidden // heads
    bias = torch.zeros(n, 1, 1, width).masked_fill(~mask[:, None, None, :], float("-inf"))
    bias = bias.expand(n, heads, 1, width).reshape(n * heads, 1, width)  # padded keys get no attention

    for layer in bert.encoder.layer:
        sa = layer.attention.self
        fused = getattr(sa, "qkv", None)
        qkv = fused(x) if fused is not None else torch.cat([sa.query(x), sa.key(x), sa.value(x)], dim=1)
        rows = torch.cat([qkv, qkv.new_zeros(1, qkv.shape[1])]).index_select(0, gather)
        q, k, v = rows.view(n, width, 3, heads, dim).permute(2, 0, 3, 1, 4).reshape(3, n * heads, width, dim)
        probs = torch.baddbmm(bias, q, k.transpose(1, 2), alpha=dim ** -0.5).softmax(-1)
        ctx = torch.bmm(probs, v).view(n, heads, width, dim).transpose(1, 2).reshape(n * width, hidden)
        ctx = ctx.index_select(0, slots)
        out = layer.attention.output
        x = out.LayerNorm(out.dense(ctx) + x)
        h = layer.intermediate.intermediate_act_fn(layer.intermediate.dense(x))
        x = layer.output.LayerNorm(layer.output.dense(h) + x)
    segments = (torch.arange(flat.numel())[None, :] >= starts[:, None]) & (
        torch.arange(flat.numel())[None, :] < (starts + lengths)[:, None])
    pooled = (segments.to(x.dtype) @ x) / lengths[:, None].to(x.dtype)
    return net.head(pooled).squeeze(-1)


def fuse_qkv(net: CrossEncoderNet) -> CrossEncoderNet:
    """Add one fused ``qkv`` Linear to every self-attention (inference with
    :func:`packed_logits`: one matrix product instead of three)."""
    for layer in net.bert.encoder.layer:
        sa = layer.attention.self
        parts = (sa.query, sa.key, sa.value)
        fused = nn.Linear(parts[0].in_features, sum(p.out_features for p in parts))
        with torch.no_grad():
            fused.weight.copy_(torch.cat([p.weight for p in parts]))
            fused.bias.copy_(torch.cat([p.bias for p in parts]))
        sa.qkv = fused
    return net


class CrossEncoder:
    """Scores (question, verbalization) pairs.

    The inference API is sentence-transformers' ``CrossEncoder``: :meth:`predict` (one
    probability per pair) and :meth:`rank` (verbalizations of one question, best first);
    :meth:`score` is a deprecated alias of :meth:`predict`.  Unlike sentence-transformers
    it always applies the sigmoid (no ``activation_fn`` argument), scores identical
    pairs once, and takes no ``batch_size``/``show_progress_bar`` arguments (the batch
    size is fixed at construction)."""

    def __init__(self, net: nn.Module, tokenizer: Any, *, max_length: int = 80, batch_size: int = 64) -> None:
        self.net = net.eval()
        self.tokenizer = tokenizer
        self.max_length = max_length
        self.batch_size = batch_size

    @classmethod
    def load(cls, model_dir: Path, base_dir: Path, *, quantized: bool | None = None) -> CrossEncoder:
        """The shipped validator in ``model_dir`` on top of the base in ``base_dir`` (torch:
        training, calibration and the export; the runtime runs the ONNX export,
        :mod:`validator.inference`)."""
        config = read_config(model_dir)
        use_int8 = config.quantize if quantized is None else quantized
        net = load_network(model_dir, base_dir, config)
        if use_int8:
            net = quantize(net, config.int8_skip, per_channel=config.int8_per_channel, fuse=config.fuse_qkv)
        return cls(net, load_tokenizer(base_dir), max_length=config.max_length, batch_size=config.batch_size)

    def tokenize(self, pairs: Sequence[tuple[str, str]]) -> dict[str, torch.Tensor]:
        """Tokenize pairs to ``input_ids``/``attention_mask`` tensors (truncated to
        ``max_length``, padded to the longest); the input of :attr:`net`."""
        return self._pad(self._token_ids(pairs))

    def _token_ids(self, pairs: Sequence[tuple[str, str]]) -> list[list[int]]:
        batch = self.tokenizer([q for q, _ in pairs], [v for _, v in pairs], truncation=True,
                               max_length=self.max_length, return_token_type_ids=False,
                               return_attention_mask=False)
        return batch["input_ids"]

    def _pad(self, ids: Sequence[Sequence[int]]) -> dict[str, torch.Tensor]:
        width = max(len(row) for row in ids)
        pad = self.tokenizer.pad_token_id
        input_ids = torch.full((len(ids), width), pad, dtype=torch.long)
        mask = torch.zeros((len(ids), width), dtype=torch.long)
        for i, row in enumerate(ids):
            input_ids[i, :len(row)] = torch.tensor(row, dtype=torch.long)
            mask[i, :len(row)] = 1
        return {"input_ids": input_ids, "attention_mask": mask}

    def logits(self, pairs: Sequence[tuple[str, str]]) -> torch.Tensor:
        """Raw logits for pairs (one forward pass; gradients follow the caller's mode)."""
        return self.net(**self.tokenize(pairs))

    def rank(self, question: str, verbalizations: Sequence[str], top_k: int | None = None) -> list[dict[str, Any]]:
        """The verbalizations scored against ``question``, best first, as
        sentence-transformers' ``CrossEncoder.rank``: ``{"corpus_id": index into
        verbalizations, "score": probability}``, at most ``top_k`` of them (all when
        ``None``); equal scores keep their input order."""
        scores = self.predict([(question, v) for v in verbalizations])
        ranked = sorted(range(len(scores)), key=lambda i: -scores[i])
        return [{"corpus_id": i, "score": scores[i]} for i in ranked[:top_k]]

    def predict(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """Probabilities in [0, 1] (the sigmoid of the logit), one per pair, in input order.

        Identical pairs are scored once; pairs are sorted by token length and run in
        batches of ``batch_size`` through :func:`packed_logits` (no padding computed).
        """
        if not pairs:
            return []
        unique = list(dict.fromkeys((str(q), str(v)) for q, v in pairs))
        ids = self._token_ids(unique)
        order = sorted(range(len(unique)), key=lambda i: len(ids[i]))
        probs: dict[tuple[str, str], float] = {}
        self.net.eval()
        with torch.inference_mode():
            for start in range(0, len(order), self.batch_size):
                chunk = order[start:start + self.batch_size]
                values = torch.sigmoid(packed_logits(self.net, [ids[i] for i in chunk]).float()).tolist()
                probs.update((unique[i], v) for i, v in zip(chunk, values, strict=True))
        return [probs[(str(q), str(v))] for q, v in pairs]
