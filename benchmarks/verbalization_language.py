"""Verbalize in the question's language, in English, or both?  (issue 13, item 2)

On the templated one-hop questions' held-out ``dev`` split (every language, subjects never
seen in training; ``<cache>/validator/onehop_candidates.jsonl``, written by
``kgqa train validator``), each question's candidates are scored by a validator with
their verbalization

* ``lang``: labels in the question's language (what the pipeline does),
* ``en``: labels in English,
* ``both``: the two joined (``lang`` / ``en``),
* ``max``: the higher of the ``lang`` and ``en`` scores;
* ``named``: as ``lang``, with properties the KG has no label for in the question's language
  said by the property lexicon's name (:meth:`validator.verbalize.Verbalizer.property_names`);
* ``max-named``: the higher of the ``lang`` and ``named`` scores;

and printed per language:

* ``top1``: the best-scored candidate is a right one (questions with a right candidate),
* ``pairs``: the share of (right, wrong) candidate pairs of a question ordered rightly,
* ``pass``: a right candidate scores at or above the shipped threshold.

    .venv/bin/python benchmarks/verbalization_language.py [--validator DIR] [--records FILE]
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.settings import load_settings
from qa.reading.lexicon import default_lexicon
from service.factory import open_kg
from training.build import ONEHOP_FILE
from training.data import CandidateRecord, grouped, read_records
from validator.model import read_config
from validator.runtime import load_encoder
from validator.verbalize import Verbalizer

MODES = ("lang", "en", "both", "max", "named", "max-named")


def figures(groups: Sequence[Sequence[CandidateRecord]], scores: Sequence[Sequence[float]],
            threshold: float) -> dict[str, float]:
    """top1 / pairs / pass over question groups with at least one right candidate."""
    top1 = passed = n = 0
    ordered = pairs = 0
    for group, s in zip(groups, scores, strict=True):
        right = [i for i, r in enumerate(group) if r.correct]
        if not right:
            continue
        n += 1
        best = max(range(len(s)), key=s.__getitem__)
        top1 += best in right
        passed += any(s[i] >= threshold for i in right)
        for i in right:
            for j, r in enumerate(group):
                if not r.correct:
                    pairs += 1
                    ordered += s[i] > s[j]
    return {"n": n, "top1": top1 / max(n, 1), "pairs": ordered / max(pairs, 1), "pass": passed / max(n, 1)}


def main(argv: Sequence[str] | None = None) -> int:
    settings = load_settings(os.environ)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--validator", type=Path, default=settings.validator_dir)
    parser.add_argument("--records", type=Path, default=settings.cache_dir / "validator" / ONEHOP_FILE)
    parser.add_argument("--split", default="dev")
    args = parser.parse_args(argv)
    if not args.records.exists():
        print(f"no records at {args.records}: run `kgqa train validator` first", file=sys.stderr)
        return 2
    groups = [[r for r in g if r.position > 0 and r.n_answers > 0] for g in grouped(read_records(args.records))
              if g[0].split == args.split]
    groups = [g for g in groups if g]
    encoder, _ = load_encoder(args.validator, settings.model_dir)
    threshold = read_config(args.validator).threshold
    kg = open_kg(settings)
    verbalizer = Verbalizer(kg)
    namer = Verbalizer(kg, names=default_lexicon(Path(settings.lexicon_path)))
    by_lang: dict[str, dict[str, list]] = defaultdict(lambda: {"groups": [], **{m: [] for m in MODES}})
    for group in groups:
        english = verbalizer.many([r.sparql for r in group], "en")
        plain = verbalizer.many([r.sparql for r in group], group[0].lang)
        named = [texts[-1] for texts in namer.readings([r.sparql for r in group], group[0].lang)]
        pairs = {"lang": [(r.question, t) for r, t in zip(group, plain, strict=True)],
                 "named": [(r.question, t) for r, t in zip(group, named, strict=True)],
                 "en": [(r.question, e) for r, e in zip(group, english, strict=True)],
                 "both": [(r.question, r.verbalization if r.verbalization == e else f"{r.verbalization} / {e}")
                          for r, e in zip(group, english, strict=True)]}
        scored = {mode: encoder.predict(p) for mode, p in pairs.items()}
        scored["max"] = [max(a, b) for a, b in zip(scored["lang"], scored["en"], strict=True)]
        scored["max-named"] = [max(a, b) for a, b in zip(scored["lang"], scored["named"], strict=True)]
        for key in (group[0].lang, "all"):
            by_lang[key]["groups"].append(group)
            for mode in MODES:
                by_lang[key][mode].append(scored[mode])
    print(f"validator {args.validator} (threshold {threshold:.4f}), {args.records.name} split {args.split}")
    print(f"{'lang':5s} {'n':>4s}  " + "  ".join(f"{m + ' top1/pairs/pass':>24s}" for m in MODES))
    for lang in sorted(by_lang, key=lambda k: (k == "all", k)):
        row = by_lang[lang]
        cells = []
        for mode in MODES:
            f = figures(row["groups"], row[mode], threshold)
            cells.append(f"{f['top1']:7.3f} {f['pairs']:7.3f} {f['pass']:7.3f}")
        n = figures(row["groups"], row["lang"], threshold)["n"]
        print(f"{lang:5s} {n:4d}  " + "  ".join(f"{c:>24s}" for c in cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
