"""The validator's Python Unigram tokenizer (:mod:`validator.unigram`) against ``tokenizers``
on the real model's ``tokenizer.json``: identical token ids, string for string.

Compared, as the validator encodes them (``<s> A </s></s> B </s>``, ``longest_first``):

* every question string of the shared bench files (every language), paired with itself at
  the validator's ``max_length`` (80), and paired with the next string at ``max_length`` 24
  (so ``longest_first`` truncation cuts most pairs);
* with ``--verbalized N``: the (question, verbalization) pairs the real pipeline scores for
  N bench strings spread over the files (the validator's own inputs).

Prints the counts identical and the first differences; also the mean time per pair each
way and the time to load each.  Nothing is written to disk.

    .venv/bin/python benchmarks/tokenizer_identity.py [--verbalized 60] [--limit N]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.settings import DEFAULT_BENCH_DIR, load_settings
from validator.tokenize import TOKENIZER_FILE, PairTokenizer
from validator.unigram import UnigramPairTokenizer, table_from_json


def bench_strings(bench_dir: Path) -> list[str]:
    """Every question string of every bench file, first occurrence order."""
    out: dict[str, None] = {}
    for path in sorted(bench_dir.glob("*.json")):
        for question in json.loads(path.read_text(encoding="utf-8")).get("questions", []):
            for entry in question.get("question", []):
                if entry.get("string"):
                    out[entry["string"]] = None
    return list(out)


def compare(fast: UnigramPairTokenizer, slow: PairTokenizer, pairs: list[tuple[str, str]], max_length: int,
            label: str) -> tuple[int, int]:
    """Pairs encoded alike, and the number compared; prints the first differences and timings."""
    same = 0
    shown = 0
    t_fast = t_slow = 0.0
    for first, second in pairs:
        started = time.perf_counter()
        mine = fast([first], [second], truncation=True, max_length=max_length)["input_ids"][0]
        t_fast += time.perf_counter() - started
        started = time.perf_counter()
        theirs = slow([first], [second], truncation=True, max_length=max_length)["input_ids"][0]
        t_slow += time.perf_counter() - started
        if mine == theirs:
            same += 1
        elif shown < 5:
            shown += 1
            print(f"  DIFFER {first!r} / {second!r}\n    python {mine}\n    rust   {theirs}")
    n = max(len(pairs), 1)
    print(f"{label}: {same}/{len(pairs)} identical  (per pair: python {1e6 * t_fast / n:.0f} us, "
          f"tokenizers {1e6 * t_slow / n:.0f} us)", flush=True)
    return same, len(pairs)


def verbalized_pairs(strings: list[str], count: int) -> list[tuple[str, str]]:
    """The (question, verbalization) pairs the real pipeline builds for ``count`` strings."""
    from service.factory import build_pipeline

    pipeline = build_pipeline(load_settings(os.environ), require_validator=True)
    step = max(len(strings) // max(count, 1), 1)
    pairs: dict[tuple[str, str], None] = {}
    for text in strings[::step][:count]:
        turn = pipeline.answer(text)
        for candidate in turn.candidates:
            if candidate.verbalization:
                pairs[(turn.question, candidate.verbalization)] = None
    return list(pairs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--verbalized", type=int, default=0, help="bench strings answered for verbalizations")
    parser.add_argument("--limit", type=int, default=0, help="at most N bench strings (0: all)")
    args = parser.parse_args(argv)
    settings = load_settings(os.environ)
    path = settings.model_dir / TOKENIZER_FILE
    started = time.perf_counter()
    slow = PairTokenizer.load_file(path)
    slow_load = time.perf_counter() - started
    table = table_from_json(json.loads(path.read_text(encoding="utf-8")))
    if table is None:
        print(f"{path}: not a tokenizer validator.unigram replicates")
        return 1
    fallbacks = []

    def fallback() -> PairTokenizer:
        fallbacks.append(1)
        return slow

    started = time.perf_counter()
    fast = UnigramPairTokenizer(table, fallback)
    fast_build = time.perf_counter() - started
    print(f"load: tokenizers {slow_load:.2f} s; python tokenizer from its table {fast_build:.2f} s (after reading)")
    strings = bench_strings(DEFAULT_BENCH_DIR)
    if args.limit:
        strings = strings[:args.limit]
    total_same = total = 0
    for pairs, max_length, label in (
            ([(s, s) for s in strings], 80, "bench strings, (s, s), max_length 80"),
            (list(zip(strings, strings[1:] + strings[:1], strict=True)), 24,
             "bench strings, (s, next), max_length 24")):
        same, n = compare(fast, slow, pairs, max_length, label)
        total_same, total = total_same + same, total + n
    if args.verbalized:
        pairs = verbalized_pairs(strings, args.verbalized)
        for max_length in (80, 24):
            label = f"pipeline (question, verbalization), max_length {max_length}"
            same, n = compare(fast, slow, pairs, max_length, label)
            total_same, total = total_same + same, total + n
    print(f"all: {total_same}/{total} identical; texts sent to tokenizers (added tokens): {len(fallbacks) > 0}")
    return 0 if total_same == total else 1


if __name__ == "__main__":
    raise SystemExit(main())
