"""How far int8 moves the validator's scores from fp32, on real candidate lists.

Runs N random bench strings through the shipped pipeline (language detected), takes each
one's verbalized candidates (at most ``--n``), and scores every list three ways: fp32, int8
(per-channel, fused q/k/v, feed-forward outputs in fp32: the variant shipped before) with the
whole list in one call as the pipeline scores it, and int8 with each pair alone.  Prints the
absolute differences to fp32 (p50, p99, max) and how many pairs land on the other side of the
gate's threshold (validator score alone, i.e. as if the backend score were ignored).

int8 scales a batch's activations by the batch's largest value, so a pair's int8 score also
depends on the pairs scored with it; fp32 scores do not (checked here too).

Usage: ``.venv/bin/python benchmarks/validator_drift.py [--questions 150] [--n 30]``
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.settings import load_settings
from evaluation.formats import load_datasets
from evaluation.harness import select_items
from evaluation.metrics import percentile
from training.build import bench_paths


def bench_strings(count: int, seed: int = 7) -> list[str]:
    """``count`` random question strings of the shared bench files (every language), drawn
    as ``benchmarks/gate_transfer.py --latency`` draws them."""
    items = select_items(load_datasets(bench_paths()), lang="all")
    random.Random(seed).shuffle(items)
    return [item.text for item in items[:count]]


def quantiles(values: list[float]) -> str:
    return f"p50 {percentile(values, 50):.4f}  p99 {percentile(values, 99):.4f}  max {max(values):.4f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--questions", type=int, default=150)
    parser.add_argument("--n", type=int, default=30, help="candidates per question at most")
    args = parser.parse_args(argv)

    import torch

    from service.factory import build_pipeline
    from validator.model import CrossEncoder, quantize
    from validator.runtime import load_torch_encoder

    torch.set_num_threads(1)
    settings = load_settings(os.environ)
    pipeline = build_pipeline(settings)
    fp32, config = load_torch_encoder(settings.validator_dir, settings.model_dir, quantized=False)
    int8 = CrossEncoder(quantize(fp32.net, (r"layer\.\d+\.output\.dense$",), per_channel=True, fuse=True),
                        fp32.tokenizer, max_length=fp32.max_length)
    threshold = config.threshold
    listed, alone, fp32_alone, crossed, pairs = [], [], [], 0, 0
    for question in bench_strings(args.questions):
        verbs = list(dict.fromkeys(c.verbalization for c in pipeline.answer(question).candidates
                                   if c.verbalization))[:args.n]
        if not verbs:
            continue
        batch = [(question, v) for v in verbs]
        ref, q_list = fp32.predict(batch), int8.predict(batch)
        q_alone = [int8.predict([p])[0] for p in batch]
        f_alone = [fp32.predict([p])[0] for p in batch]
        listed += [abs(a - b) for a, b in zip(q_list, ref, strict=True)]
        alone += [abs(a - b) for a, b in zip(q_alone, ref, strict=True)]
        fp32_alone += [abs(a - b) for a, b in zip(f_alone, ref, strict=True)]
        crossed += sum((a >= threshold) != (b >= threshold) for a, b in zip(q_list, ref, strict=True))
        pairs += len(batch)
    print(f"{pairs} (question, verbalization) pairs from {args.questions} bench strings; "
          f"validator {config.layers} layers, threshold {threshold}")
    print(f"|int8 - fp32|, scored in its candidate list: {quantiles(listed)}")
    print(f"|int8 - fp32|, each pair alone:              {quantiles(alone)}")
    print(f"|fp32 alone - fp32 in its list|:             {quantiles(fp32_alone)}")
    print(f"pairs whose int8 score (in its list) is on the other side of {threshold}: {crossed} "
          f"({crossed / max(pairs, 1):.1%})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
