"""Fine-tune the validator on an accelerator (the device side of :mod:`training.device`).

Runs where the project's virtualenv does not: it imports only torch, transformers,
tokenizers, safetensors, numpy and scikit-learn, and reads everything from the folder
``python -m training.device pack`` wrote beside it (base weights of the used tokens, the
tokenizer, the balanced pairs and the evaluation pairs).  It trains the recipe of
:mod:`training.finetune` (word embeddings frozen, AdamW with a separate head rate, linear
warm-up and decay, length-bucketed batches, the epoch with the best validation ROC AUC
kept) under bf16 autocast, then writes to ``$OUT``: the weights (fp16 safetensors, in
parts small enough to come back) and ``scores.json`` (validation and evaluation scores,
computed in fp32)::

    cd <payload> && python3 device_train.py --layers 8 --epochs 2 --lr 5e-5

The shipped 8-layer validator came from exactly that command on one H200 (129 s).
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import random
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

HERE = Path(__file__).resolve().parent
UNK = 3
PAD = 1
PART_BYTES = 15_000_000  # each returned file stays under the device's 16 MiB limit


def log(started: float, *parts: object) -> None:
    print(f"[{time.time() - started:6.1f}s]", *parts, flush=True)


def load_base(folder: Path) -> tuple[dict[str, torch.Tensor], np.ndarray]:
    """The base weights (4-bit blocks expanded exactly) and the used token ids."""
    z = np.load(folder / "base.npz")
    base: dict[str, torch.Tensor] = {}
    for key in z.files:
        if key.endswith("|q"):
            name = key[:-2]
            w = z[key].astype(np.float32) * z[name + "|s"][:, None]
            bad = z[name + "|bad"]
            if len(bad):
                w[bad] = z[name + "|badv"]
            base[name] = torch.from_numpy(w.reshape(tuple(z[name + "|shape"])))
        elif "|" not in key and key != "used_ids":
            base[key] = torch.from_numpy(z[key])
    return base, z["used_ids"]


class Net(nn.Module):
    """The project's ``CrossEncoderNet``: BERT, mean pooling, dropout, one logit."""

    def __init__(self, config: dict[str, Any], layers: int, vocab: int) -> None:
        from transformers import BertConfig, BertModel

        super().__init__()
        c = {k: v for k, v in config.items() if k != "architectures"}
        c.update(num_hidden_layers=layers, vocab_size=vocab)
        self.bert = BertModel(BertConfig(**c), add_pooling_layer=False)
        self.dropout = nn.Dropout(0.1)
        self.head = nn.Linear(c["hidden_size"], 1)
        nn.init.normal_(self.head.weight, std=0.02)
        nn.init.zeros_(self.head.bias)

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        h = self.bert(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        m = attention_mask.unsqueeze(-1).to(h.dtype)
        return self.head(self.dropout((h * m).sum(1) / m.sum(1).clamp(min=1.0))).squeeze(-1)


def batches(lengths: list[int], size: int, rng: random.Random) -> list[list[int]]:
    """Shuffled batches of similar length (as :func:`training.finetune.length_batches`)."""
    order = list(range(len(lengths)))
    rng.shuffle(order)
    out: list[list[int]] = []
    for start in range(0, len(order), size * 50):
        chunk = sorted(order[start:start + size * 50], key=lengths.__getitem__)
        out.extend(chunk[i:i + size] for i in range(0, len(chunk), size))
    rng.shuffle(out)
    return out


class Trainer:
    """Everything one run needs, on one device."""

    def __init__(self, folder: Path, smoke: bool) -> None:
        from tokenizers import Tokenizer

        self.started = time.time()
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.base, used = load_base(folder)
        self.vocab = len(used)
        self.config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        lookup = np.full(self.config["vocab_size"], UNK, dtype=np.int64)  # base token id -> row of the used ones
        lookup[used] = np.arange(len(used))
        self.pad = int(lookup[PAD])
        with gzip.open(folder / "tokenizer.json.gz", "rt", encoding="utf-8") as f:
            tok = Tokenizer.from_str(f.read())
        tok.enable_truncation(80, strategy="longest_first")
        tok.no_padding()
        with gzip.open(folder / "pairs.json.gz", "rt", encoding="utf-8") as f:
            data = json.load(f)
        if smoke:
            data = {k: v[:200] for k, v in data.items()}

        def ids(pairs: list[list[Any]]) -> list[list[int]]:
            return [lookup[np.asarray(e.ids)].tolist() for e in tok.encode_batch([(p[0], p[1]) for p in pairs])]

        self.train_ids, self.train_y = ids(data["train"]), torch.tensor([float(p[2]) for p in data["train"]])
        self.valid_ids, self.valid_y = ids(data["valid"]), [int(p[2]) for p in data["valid"]]
        self.eval_ids = ids(data["eval"])
        log(self.started, "tokenized", len(self.train_ids), len(self.valid_ids), len(self.eval_ids), self.device)

    def network(self, layers: int) -> Net:
        net = Net(self.config, layers, self.vocab)
        own = net.bert.state_dict()
        missing = [k for k in own if k not in self.base and "position_ids" not in k]
        if missing:
            raise ValueError(f"the base lacks {missing[:3]}")
        net.bert.load_state_dict({k: v for k, v in self.base.items() if k in own}, strict=False)
        return net.to(self.device)

    def padded(self, rows: list[list[int]]) -> tuple[torch.Tensor, torch.Tensor]:
        width = max(len(r) for r in rows)
        ids = torch.full((len(rows), width), self.pad, dtype=torch.long)
        mask = torch.zeros((len(rows), width), dtype=torch.long)
        for i, r in enumerate(rows):
            ids[i, :len(r)] = torch.tensor(r)
            mask[i, :len(r)] = 1
        return ids.to(self.device), mask.to(self.device)

    @torch.no_grad()
    def score(self, net: Net, rows: list[list[int]], size: int = 512) -> list[float]:
        """Probabilities in fp32 (the scores the CPU gives, to about 1e-3)."""
        net.eval()
        out = np.zeros(len(rows), dtype=np.float32)
        order = sorted(range(len(rows)), key=lambda i: len(rows[i]))
        for start in range(0, len(order), size):
            chunk = order[start:start + size]
            out[chunk] = torch.sigmoid(net(*self.padded([rows[i] for i in chunk])).float()).cpu().numpy()
        return [round(float(x), 5) for x in out]

    def train(self, layers: int, epochs: int, lr: float, head_lr: float, size: int, seed: int
              ) -> tuple[Net, list[dict[str, float]]]:
        from sklearn.metrics import roc_auc_score

        random.seed(seed)
        torch.manual_seed(seed)
        net = self.network(layers)
        net.bert.embeddings.word_embeddings.weight.requires_grad_(False)
        groups: dict[str, list[nn.Parameter]] = {"decay": [], "no_decay": [], "head": []}
        for name, p in net.named_parameters():
            if p.requires_grad:
                plain = p.ndim < 2 or "LayerNorm" in name
                groups["head" if name.startswith("head.") else "no_decay" if plain else "decay"].append(p)
        opt = torch.optim.AdamW([{"params": groups["decay"], "lr": lr, "weight_decay": 0.01},
                                 {"params": groups["no_decay"], "lr": lr, "weight_decay": 0.0},
                                 {"params": groups["head"], "lr": head_lr, "weight_decay": 0.0}])
        total = math.ceil(len(self.train_ids) / size) * epochs
        warm = max(1, int(total * 0.1))
        sched = torch.optim.lr_scheduler.LambdaLR(
            opt, lambda s: (s + 1) / warm if s < warm else max(0.0, (total - s) / max(1, total - warm)))
        loss_fn = nn.BCEWithLogitsLoss()
        rng = random.Random(seed)
        lengths = [len(x) for x in self.train_ids]
        best: tuple[float, dict[str, torch.Tensor]] | None = None
        history = []
        cuda = self.device.type == "cuda"
        for epoch in range(epochs):
            net.train()
            running, n = 0.0, 0
            for batch in batches(lengths, size, rng):
                with torch.autocast("cuda", dtype=torch.bfloat16, enabled=cuda):
                    logits = net(*self.padded([self.train_ids[j] for j in batch]))
                loss = loss_fn(logits.float(), self.train_y[batch].to(self.device))
                opt.zero_grad(set_to_none=True)
                loss.backward()
                nn.utils.clip_grad_norm_(net.parameters(), 1.0)
                opt.step()
                sched.step()
                running += float(loss.detach())
                n += 1
            valid = self.score(net, self.valid_ids)
            auc = float(roc_auc_score(self.valid_y, valid)) if len(set(self.valid_y)) > 1 else 0.5
            history.append({"epoch": epoch + 1, "loss": running / max(1, n), "auc": auc})
            log(self.started, history[-1])
            if best is None or auc > best[0]:
                best = (auc, {k: v.detach().clone() for k, v in net.state_dict().items() if "word_embeddings" not in k})
        if best is not None:
            net.load_state_dict(best[1], strict=False)
        return net, history


def save_parts(net: Net, out: Path, name: str) -> list[Path]:
    """The weights without the word embeddings, fp16, in parts under :data:`PART_BYTES`."""
    from safetensors.torch import save_file

    state = {k: v.detach().to(torch.float16).cpu().contiguous() for k, v in net.state_dict().items()
             if "word_embeddings" not in k and "position_ids" not in k}
    parts: list[dict[str, torch.Tensor]] = [{}]
    size = 0
    for key in sorted(state):
        nbytes = state[key].numel() * 2
        if size + nbytes > PART_BYTES and parts[-1]:
            parts.append({})
            size = 0
        parts[-1][key] = state[key]
        size += nbytes
    paths = []
    for i, part in enumerate(parts):
        paths.append(out / f"{name}_part{i}.safetensors")
        save_file(part, str(paths[-1]), metadata={"format": "pt"})
    return paths


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--layers", type=int, default=8)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--lr", type=float, default=5e-5)
    p.add_argument("--head-lr", type=float, default=1e-3)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--seed", type=int, default=13)
    p.add_argument("--name", default="validator")
    p.add_argument("--out", default=os.environ.get("OUT", "out"))
    p.add_argument("--smoke", action="store_true", help="200 pairs of each set (a check that it runs)")
    recipe = Path(__file__).with_name("recipe.json")  # training/recipe.toml's [validator], written by pack
    if recipe.is_file():
        p.set_defaults(**json.loads(recipe.read_text(encoding="utf-8")))
    args = p.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    trainer = Trainer(HERE, args.smoke)
    net, history = trainer.train(args.layers, args.epochs, args.lr, args.head_lr, args.batch_size, args.seed)
    save_parts(net, out, args.name)  # the weights first: they are what the run is for
    log(trainer.started, "weights saved")
    scores = {"name": args.name, "layers": args.layers, "epochs": args.epochs, "lr": args.lr, "history": history,
              "valid_scores": trainer.score(net, trainer.valid_ids),
              "eval_scores": trainer.score(net, trainer.eval_ids)}
    (out / "scores.json").write_text(json.dumps(scores), encoding="utf-8")
    log(trainer.started, "scores saved")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
