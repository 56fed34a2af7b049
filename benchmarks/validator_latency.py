"""Validator latency for one question's candidate list (default 60 candidates).

Loads the shipped validator exactly as the pipeline does (its ONNX export, ONNX Runtime;
``--torch``: the torch network it is exported from, int8 if its config says so) and times
``scorer.predict(pairs)`` for real candidate lists: groups from
``<cache>/validator/candidates.jsonl`` when it exists (question + verbalizations the
backend produced), else synthetic lists built from the shared bench questions.  Every
timed list holds ``--n`` DISTINCT pairs (short lists are padded with other questions'
verbalizations, never with repeats, because ``score`` scores identical pairs once); the
number of distinct pairs scored is printed.  With
``--verbalize`` it also times verbalizing the candidates against the embedded KG.

Usage: ``.venv/bin/python benchmarks/validator_latency.py [--n 60] [--runs 30] [--threads 2] [--torch]``
Prints p50/p90/mean in milliseconds; no assertion (speed targets are read, not asserted).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.settings import DEFAULT_BENCH_DIR, load_settings


def real_groups(path: Path, n: int, seed: int = 0) -> list[tuple[str, list[str], list[str]]]:
    """(question, verbalizations, sparqls) for every item with a candidate list, made
    exactly ``n`` DISTINCT (question, verbalization) pairs long: a longer list keeps its
    first ``n`` distinct verbalizations; a shorter one is padded with verbalizations
    taken from other questions' lists (never a repeat, since :meth:`CrossEncoder.score`
    scores identical pairs only once)."""
    groups: dict[tuple[str, str], list[dict]] = {}
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            rec = json.loads(line)
            if rec.get("position", 0) > 0 and rec.get("verbalization"):
                groups.setdefault((rec["id"], rec["lang"]), []).append(rec)
    pool = sorted({r["verbalization"]: r["sparql"] for recs in groups.values() for r in recs}.items())
    rng = random.Random(seed)
    out = []
    for recs in groups.values():
        chosen: dict[str, str] = {}
        for r in recs:
            chosen.setdefault(r["verbalization"], r["sparql"])
        verbs = list(chosen)[:n]
        taken = set(verbs)
        while len(verbs) < n:
            verb, sparql = pool[rng.randrange(len(pool))]
            if verb not in taken:
                taken.add(verb)
                verbs.append(verb)
                chosen.setdefault(verb, sparql)
        out.append((recs[0]["question"], verbs, [chosen[v] for v in verbs]))
    return out


def synthetic_groups(n: int, seed: int = 0) -> list[tuple[str, list[str], list[str]]]:
    """Bench questions paired with n pseudo-verbalizations made of other questions' words."""
    rng = random.Random(seed)
    texts = []
    for path in sorted(DEFAULT_BENCH_DIR.glob("*.json")):
        for q in json.loads(path.read_text(encoding="utf-8"))["questions"]:
            texts.extend(t["string"] for t in q["question"] if t.get("string"))
    out = []
    for question in rng.sample(texts, min(200, len(texts))):
        words = " ".join(rng.sample(texts, 3)).split()
        verbs = list(dict.fromkeys(" ".join(rng.sample(words, min(len(words), rng.randint(3, 9)))) + f" ?x{i}"
                                   for i in range(n)))
        out.append((question, verbs, []))
    return out


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=60, help="candidates per question")
    parser.add_argument("--runs", type=int, default=30, help="timed questions")
    parser.add_argument("--threads", type=int, default=2, help="intra-op threads of the forward pass")
    parser.add_argument("--torch", action="store_true", help="time the torch network instead of the ONNX export")
    parser.add_argument("--fp32", action="store_true", help="--torch: the fp32 network even if the config says int8")
    parser.add_argument("--verbalize", action="store_true", help="also time verbalization on the embedded KG")
    parser.add_argument("--validator-dir", type=Path, help="shipped validator (default: settings)")
    args = parser.parse_args(argv)

    from validator.inference import set_threads
    from validator.runtime import load_encoder, load_torch_encoder

    set_threads(args.threads)
    settings = load_settings(os.environ)
    started = time.perf_counter()
    if args.torch:
        import torch

        torch.set_num_threads(args.threads)
        encoder, config = load_torch_encoder(args.validator_dir or settings.validator_dir, settings.model_dir,
                                             quantized=False if args.fp32 else None)
    else:
        encoder, config = load_encoder(args.validator_dir or settings.validator_dir, settings.model_dir)
    load_s = time.perf_counter() - started
    cache = settings.cache_dir / "validator" / "candidates.jsonl"
    groups = real_groups(cache, args.n) if cache.exists() else []
    source = f"real candidate lists from {cache}" if groups else "synthetic lists from the bench questions"
    groups = groups or synthetic_groups(args.n)
    rng = random.Random(1)
    sample = rng.sample(groups, min(args.runs, len(groups)))
    encoder.predict([(sample[0][0], v) for v in sample[0][1]])  # warm-up
    times, cpu, distinct = [], [], []
    for question, verbs, _ in sample:
        distinct.append(len(set(verbs)))
        t0, c0 = time.perf_counter(), time.process_time()
        encoder.predict([(question, v) for v in verbs])
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    tokens = [len(ids) for q, verbs, _ in sample for ids in encoder._token_ids([(q, v) for v in verbs])]
    int8 = config.quantize and not args.fp32
    kind = "ONNX Runtime " if not args.torch else "torch "
    kind += ("int8" + (" per-channel" if config.int8_per_channel else "") + (" fused qkv" if config.fuse_qkv else "")
            + (f" (fp32: {', '.join(config.int8_skip)})" if config.int8_skip else "")) if int8 else "fp32"
    print(f"validator: {config.layers} layers, {kind}, max_length {config.max_length}, "
          f"batch {config.batch_size}, threads {args.threads}; loaded in {load_s:.2f}s")
    print(f"inputs: {source}")
    print(f"score {args.n} candidates: p50 {statistics.median(times):.1f} ms  p90 {percentile(times, 90):.1f} ms  "
          f"mean {statistics.fmean(times):.1f} ms  (runs {len(times)})")
    print(f"  distinct (question, verbalization) pairs scored per list: min {min(distinct)}, max {max(distinct)}")
    print(f"  CPU time per list (all threads): p50 {statistics.median(cpu):.1f} ms; "
          f"tokens per pair: mean {statistics.fmean(tokens):.1f}, max {max(tokens)}; "
          f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    if args.verbalize and any(s for _, _, s in sample):
        from service.factory import open_kg
        from validator.verbalize import Verbalizer

        kg = open_kg(settings)
        vtimes = []
        for _, _, sparqls in sample:
            verbalizer = Verbalizer(kg)  # cold label cache, as for a new question
            t0 = time.perf_counter()
            for s in sparqls:
                verbalizer(s, "en")
            vtimes.append((time.perf_counter() - t0) * 1000)
        print(f"verbalize {args.n} candidates (cold cache): p50 {statistics.median(vtimes):.1f} ms  "
              f"p90 {percentile(vtimes, 90):.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
