"""Fine-tune the cross-encoder on (question, verbalization) pairs: the one training loop,
on CPU or on an accelerator (``TrainConfig.device``; :mod:`training.device` runs it on a lent
GPU from a small payload).

Only the non-embedding weights learn (the word embeddings stay frozen, as shipped);
batches are bucketed by length so padding stays short; everything is seeded so that a
run is reproducible.  On CUDA the forward pass runs under bf16 autocast and validation
scores are computed in fp32.  :func:`binary_metrics` gives the paper's Table 2 figures (TPR,
TNR, balanced accuracy, precision, F1).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Protocol

import torch
from torch import nn

from core.errors import ModelLoadError, SettingsError
from validator.model import CrossEncoder, CrossEncoderNet, base_network, load_tokenizer


class LabelledPair(Protocol):
    """What training reads of a record (a :class:`training.data.CandidateRecord`, or a
    payload's pair on the accelerator)."""

    @property
    def pair(self) -> tuple[str, str]: ...

    @property
    def correct(self) -> bool: ...


@dataclass(frozen=True)
class TrainConfig:
    """Hyper-parameters of one fine-tuning run."""

    layers: int = 4
    max_length: int = 80
    epochs: int = 2
    batch_size: int = 32
    lr: float = 1e-4
    head_lr: float = 1e-3
    weight_decay: float = 0.01
    warmup: float = 0.1
    seed: int = 13
    max_minutes: float = 22.0
    threads: int = 2
    init_from: str | None = None  # a shipped validator dir whose first ``layers`` layers (and head) start training
    grow: bool = False  # with ``init_from`` shallower than ``layers``: the layers above it start from the base model
    device: str = "cpu"  # one of training.recipe.DEVICES: cpu, cuda, auto (resolve_device)

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return asdict(self)


@dataclass(frozen=True)
class BinaryMetrics:
    """Validation figures of a binary classifier at one threshold."""

    tpr: float
    tnr: float
    balanced_accuracy: float
    precision: float
    f1: float
    n: int

    def to_json(self) -> dict[str, float | int]:
        """A JSON-ready dict."""
        return asdict(self)


def binary_metrics(scores: Sequence[float], labels: Sequence[int], threshold: float = 0.5) -> BinaryMetrics:
    """TPR, TNR, balanced accuracy, precision and F1 at ``threshold``."""
    tp = sum(1 for s, y in zip(scores, labels, strict=True) if y and s >= threshold)
    fn = sum(1 for s, y in zip(scores, labels, strict=True) if y and s < threshold)
    tn = sum(1 for s, y in zip(scores, labels, strict=True) if not y and s < threshold)
    fp = sum(1 for s, y in zip(scores, labels, strict=True) if not y and s >= threshold)
    tpr = tp / (tp + fn) if tp + fn else 0.0
    tnr = tn / (tn + fp) if tn + fp else 0.0
    precision = tp / (tp + fp) if tp + fp else 0.0
    f1 = 2 * precision * tpr / (precision + tpr) if precision + tpr else 0.0
    return BinaryMetrics(tpr, tnr, (tpr + tnr) / 2, precision, f1, len(labels))


def resolve_device(name: str) -> torch.device:
    """The torch device of a name (the recipe's :data:`training.recipe.DEVICES`: ``cpu``,
    ``cuda``, or ``auto`` for CUDA when torch sees one); :class:`SettingsError` for a name torch
    does not know, or for ``cuda`` where torch sees none."""
    if name == "auto":
        name = "cuda" if torch.cuda.is_available() else "cpu"
    try:
        device = torch.device(name)
    except RuntimeError as exc:
        raise SettingsError("device", name, f"not a torch device ({exc})") from exc
    if device.type == "cuda" and not torch.cuda.is_available():
        raise SettingsError("device", name, "torch sees no CUDA device here")
    return device


def seed_everything(seed: int) -> None:
    """Seed Python and torch (CPU) for reproducible runs."""
    random.seed(seed)
    torch.manual_seed(seed)


def length_batches(lengths: Sequence[int], batch_size: int, rng: random.Random) -> list[list[int]]:
    """Shuffled batches of similar length: shuffle, sort within pools of 50 batches,
    cut, shuffle the batches."""
    order = list(range(len(lengths)))
    rng.shuffle(order)
    pool = batch_size * 50
    batches: list[list[int]] = []
    for start in range(0, len(order), pool):
        chunk = sorted(order[start:start + pool], key=lengths.__getitem__)
        batches.extend(chunk[i:i + batch_size] for i in range(0, len(chunk), batch_size))
    rng.shuffle(batches)
    return batches


def _optimizer(net: CrossEncoderNet, cfg: TrainConfig) -> torch.optim.Optimizer:
    net.bert.embeddings.word_embeddings.weight.requires_grad_(False)
    decay, no_decay, head = [], [], []
    for name, param in net.named_parameters():
        if not param.requires_grad:
            continue
        if name.startswith("head."):
            head.append(param)
        elif param.ndim < 2 or "LayerNorm" in name:
            no_decay.append(param)
        else:
            decay.append(param)
    return torch.optim.AdamW([
        {"params": decay, "lr": cfg.lr, "weight_decay": cfg.weight_decay},
        {"params": no_decay, "lr": cfg.lr, "weight_decay": 0.0},
        {"params": head, "lr": cfg.head_lr, "weight_decay": 0.0},
    ])


def _schedule(optimizer: torch.optim.Optimizer, total: int, warmup: float) -> torch.optim.lr_scheduler.LambdaLR:
    warm = max(1, int(total * warmup))

    def factor(step: int) -> float:
        if step < warm:
            return (step + 1) / warm
        return max(0.0, (total - step) / max(1, total - warm))

    return torch.optim.lr_scheduler.LambdaLR(optimizer, factor)


@dataclass
class TrainResult:
    """The trained encoder and how the run went."""

    encoder: CrossEncoder
    seconds: float
    steps: int
    epochs_done: float
    losses: list[float]
    stopped_early: bool
    history: list[dict[str, float]] = field(default_factory=list)
    best_epoch: int = 0


def train(records: Sequence[LabelledPair], base_dir: Path, cfg: TrainConfig, *, progress: bool = True,
          log: Callable[[str], None] | None = None, valid: Sequence[LabelledPair] = ()) -> TrainResult:
    """Fine-tune a fresh network on ``records`` (labels: ``record.correct``), on ``cfg.device``.

    With ``valid`` records, the epoch with the best validation ROC AUC is kept (early
    stopping on the balanced validation set).  The trained network is returned on the CPU.
    """
    from tqdm import tqdm

    device = resolve_device(cfg.device)
    cuda = device.type == "cuda"
    torch.set_num_threads(cfg.threads)
    seed_everything(cfg.seed)
    net = base_network(base_dir, cfg.layers)
    if cfg.init_from:
        init_from_validator(net, Path(cfg.init_from), grow=cfg.grow)
        if log:
            log(f"initialised from {cfg.init_from} (its first {cfg.layers} layers and its head"
                f"{'; layers it lacks from the base model' if cfg.grow else ''})")
    encoder = CrossEncoder(net, load_tokenizer(base_dir), max_length=cfg.max_length, batch_size=cfg.batch_size)
    net.to(device)
    pairs = [r.pair for r in records]
    labels = torch.tensor([float(r.correct) for r in records], device=device)
    ids = encoder._token_ids(pairs)
    lengths = [len(x) for x in ids]
    rng = random.Random(cfg.seed)
    per_epoch = math.ceil(len(pairs) / cfg.batch_size)
    total = per_epoch * cfg.epochs
    optimizer = _optimizer(net, cfg)
    scheduler = _schedule(optimizer, total, cfg.warmup)
    loss_fn = nn.BCEWithLogitsLoss()
    started = time.monotonic()
    losses: list[float] = []
    history: list[dict[str, float]] = []
    best: tuple[float, int, dict[str, torch.Tensor]] | None = None
    step = 0
    stopped = False
    bar = tqdm(total=total, desc="train-validator", unit="batch", disable=not progress)
    net.train()
    for epoch in range(cfg.epochs):
        running = 0.0
        for i, batch in enumerate(length_batches(lengths, cfg.batch_size, rng)):
            inputs = {k: v.to(device) for k, v in encoder._pad([ids[j] for j in batch]).items()}
            with torch.autocast("cuda", dtype=torch.bfloat16, enabled=cuda):
                logits = net(**inputs)
            loss = loss_fn(logits.float(), labels[batch])
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            optimizer.step()
            scheduler.step()
            step += 1
            running += float(loss.detach())
            bar.update(1)
            bar.set_postfix(epoch=epoch + 1, loss=f"{running / (i + 1):.4f}")
            if (time.monotonic() - started) / 60 > cfg.max_minutes:
                stopped = True
                break
        losses.append(running / max(1, i + 1))
        line = f"epoch {epoch + 1}: mean loss {losses[-1]:.4f}"
        if valid:
            scores = predict(encoder, valid) if not cuda else device_scores(encoder, [r.pair for r in valid], device)
            labels_v = [int(r.correct) for r in valid]
            auc = roc_auc(scores, labels_v)
            metrics = binary_metrics(scores, labels_v)
            history.append({"epoch": epoch + 1, "loss": losses[-1], "auc": auc, "ba": metrics.balanced_accuracy})
            line += f", validation AUC {auc:.4f} BA {metrics.balanced_accuracy:.4f}"
            if best is None or auc > best[0]:
                best = (auc, epoch + 1, {k: v.detach().clone() for k, v in net.state_dict().items()
                                         if k != "bert.embeddings.word_embeddings.weight"})
            net.train()
        if log:
            log(f"{line} ({time.monotonic() - started:.0f}s)")
        if stopped:
            break
    bar.close()
    if best is not None:
        net.load_state_dict(best[2], strict=False)
        if log:
            log(f"kept epoch {best[1]} (validation AUC {best[0]:.4f})")
    net.eval()
    net.to("cpu")
    return TrainResult(encoder, time.monotonic() - started, step, step / max(1, per_epoch), losses, stopped,
                       history, best[1] if best else len(losses))


def init_from_validator(net: CrossEncoderNet, model_dir: Path, *, grow: bool = False) -> None:
    """Start from a fine-tuned validator: its weights for every layer ``net`` has (a
    deeper validator is cut to ``net``'s depth: layer dropping), its embeddings and head.
    With ``grow``, a shallower validator starts ``net``'s first layers and the layers above
    them keep the base model's weights (layer stacking); without it, that is an error."""
    from validator.model import WEIGHTS_FILE, _read_safetensors

    shipped = _read_safetensors(Path(model_dir) / WEIGHTS_FILE)
    own = net.state_dict()
    state = {k: v.float() for k, v in shipped.items() if k in own}
    depth = len({k.split(".")[3] for k in state if k.startswith(_LAYER_PREFIX)})
    missing = [k for k in own if k not in state and k != "bert.embeddings.word_embeddings.weight"
               and not (grow and k.startswith(_LAYER_PREFIX) and int(k.split(".")[3]) >= depth)]
    if missing:
        raise ModelLoadError(Path(model_dir) / WEIGHTS_FILE, f"cannot initialise from it: missing {missing[:3]}")
    net.load_state_dict(state, strict=False)


_LAYER_PREFIX = "bert.encoder.layer."


def roc_auc(scores: Sequence[float], labels: Sequence[int]) -> float:
    """Area under the ROC curve (0.5 when one class is missing)."""
    if len(set(labels)) < 2:
        return 0.5
    from sklearn.metrics import roc_auc_score

    return float(roc_auc_score(labels, scores))


def predict(encoder: CrossEncoder, records: Sequence[LabelledPair]) -> list[float]:
    """Validator probabilities for records (in order)."""
    return encoder.predict([r.pair for r in records])


@torch.no_grad()
def device_scores(encoder: CrossEncoder, pairs: Sequence[tuple[str, str]], device: torch.device,
                  size: int = 512) -> list[float]:
    """Probabilities for pairs with the encoder's network on ``device`` (where it must be), in
    fp32 (the CPU's scores to about 1e-3): padded batches of similar length
    (:meth:`CrossEncoder.predict` packs rows, on the CPU)."""
    if not pairs:
        return []
    net = encoder.net
    net.eval()
    ids = encoder._token_ids(list(pairs))
    out = [0.0] * len(ids)
    order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
    for start in range(0, len(order), size):
        chunk = order[start:start + size]
        inputs = {k: v.to(device) for k, v in encoder._pad([ids[i] for i in chunk]).items()}
        for i, p in zip(chunk, torch.sigmoid(net(**inputs).float()).tolist(), strict=True):
            out[i] = p
    return out
