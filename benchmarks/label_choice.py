"""Label choice on the embedded KG: the name :func:`qa.label.fetch_names` shows, against
the name a native reader expects (``benchmarks/data/label_choice.json``, written by hand:
entities in eight languages, with the names a reader accepts as well).

Usage::

    .venv/bin/python benchmarks/label_choice.py [--old] [--misses]

Prints, per language, how many entities get an expected name, with the rule (and, with
``--old``, with the rule before issue 42: the first alias in the language), and the total;
``--misses`` lists the ones it gets wrong.  Nothing is written.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.settings import load_settings
from kg.client import fetch_values
from kg.sparql import RDFS_LABEL, SKOS_ALT, entity_iri
from qa.label import fetch_names, pick_label
from service.factory import open_kg

WRITTEN = Path(__file__).resolve().parent / "data" / "label_choice.json"


def load_set(path: Path = WRITTEN) -> list[tuple[str, str, frozenset[str]]]:
    """``(qid, lang, accepted names)`` of the written set (the expected name first among them)."""
    rows = json.loads(path.read_text(encoding="utf-8"))["entities"]
    return [(qid, lang, frozenset([name, *(also[0] if also else ())])) for qid, lang, name, *also in rows]


def main() -> int:
    """Print the score of the rule on the written set."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", action="store_true", help="also score the first label or alias (the old rule)")
    parser.add_argument("--misses", action="store_true", help="list the entities named otherwise")
    args = parser.parse_args()
    kg = open_kg(load_settings(os.environ))
    rows = load_set()
    langs = sorted({lang for _, lang, _ in rows})
    right: dict[str, list[int]] = {lang: [0, 0, 0] for lang in langs}  # right, old right, total
    misses = []
    started = time.perf_counter()
    old_table = fetch_values(kg, [entity_iri(q) for q, _, _ in rows], (RDFS_LABEL, SKOS_ALT)) if args.old else None
    for lang in langs:
        qids = [q for q, code, _ in rows if code == lang]
        names = fetch_names(kg, [entity_iri(q) for q in qids], lang)
        for qid, code, accepted in rows:
            if code != lang:
                continue
            shown = names.get(entity_iri(qid), (None, None))[0]
            right[lang][0] += shown in accepted
            right[lang][2] += 1
            if shown not in accepted:
                misses.append((lang, qid, shown, sorted(accepted)))
            if old_table is not None:
                labels = old_table[RDFS_LABEL].get(entity_iri(qid), {})
                aliases = old_table[SKOS_ALT].get(entity_iri(qid), {})
                merged = {c: [*labels.get(c, ()), *aliases.get(c, ())] for c in {*labels, *aliases}}
                right[lang][1] += pick_label(merged, lang)[0] in accepted
    elapsed = time.perf_counter() - started
    print(f"{len(rows)} entities, {len(langs)} languages ({WRITTEN.name}); {elapsed:.1f} s")
    print(f"{'lang':<6}{'entities':>9}{'right':>7}{'share':>8}" + (f"{'old rule':>10}" if args.old else ""))
    for lang in langs:
        ok, old, total = right[lang]
        print(f"{lang:<6}{total:>9}{ok:>7}{ok / total:>8.1%}" + (f"{old:>10}" if args.old else ""))
    ok = sum(r[0] for r in right.values())
    old = sum(r[1] for r in right.values())
    print(f"{'all':<6}{len(rows):>9}{ok:>7}{ok / len(rows):>8.1%}" + (f"{old:>10}" if args.old else ""))
    if args.misses:
        for lang, qid, shown, accepted in misses:
            print(f"  {lang} {qid}: shown {shown!r}, expected {' / '.join(accepted)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
