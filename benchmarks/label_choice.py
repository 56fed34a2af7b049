"""Label choice on the embedded KG: the name :func:`qa.label.fetch_names` shows, against
the name a native reader expects (``benchmarks/data/label_choice.json``, written by hand:
entities in eight languages, with the names a reader accepts as well).

Usage::

    .venv/bin/python benchmarks/label_choice.py [--old] [--misses]
    .venv/bin/python benchmarks/label_choice.py --codes [--limit 600]   # issue 14's comparison

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
from kg.client import fetch_labels, fetch_values
from kg.sparql import RDFS_LABEL, SKOS_ALT, entity_iri
from qa.label import LABEL_FALLBACKS, fetch_names, is_code_like, pick_label
from qa.reading.detect import SUPPORTED_LANGUAGES
from service.factory import open_kg

SAMPLE = ("SELECT DISTINCT ?o WHERE {{ ?s <http://www.wikidata.org/prop/direct/{p}> ?o . "
          "FILTER(isIRI(?o)) }} LIMIT {n}")
PROPERTIES = ("P27", "P37", "P38", "P26", "P19")


def old_pick(labels: dict[str, list[str]], lang: str) -> tuple[str | None, str | None]:
    """The rule before issue 14: the first label or alias along ``lang -> related -> en -> any``."""
    for code in (*LABEL_FALLBACKS.get(lang, (lang, "en")), "en", *sorted(labels)):
        if labels.get(code):
            return labels[code][0], code or None
    return None, None


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
    parser.add_argument("--codes", action="store_true", help="instead, issue 14's comparison: code-like names "
                        "and fallbacks over the values of P27, P37, P38, P26 and P19")
    parser.add_argument("--limit", type=int, default=600, help="with --codes: values per property")
    args = parser.parse_args()
    if args.codes:
        return codes(args.limit)
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



def codes(limit: int) -> int:
    """The older comparison (issue 14): code-like names, own-language names, CLDR names and
    English fallbacks over the values of common properties, first alias against the rule."""
    kg = open_kg(load_settings(os.environ))
    iris: list[str] = []
    for prop in PROPERTIES:
        iris += [row["o"].value for row in kg.query(SAMPLE.format(p=prop, n=limit)).rows]
    iris = sorted(set(iris))
    print(f"{len(iris)} entities (values of {', '.join(PROPERTIES)})")
    print(f"{'lang':<5}{'old code-like':>14}{'new code-like':>14}{'old own lang':>13}{'new own lang':>13}"
          f"{'new CLDR':>9}{'new en fallback':>16}{'old ms/200':>11}{'new ms/200':>11}")
    for lang in SUPPORTED_LANGUAGES:
        started = time.perf_counter()
        table = fetch_labels(kg, iris)
        old = {iri: old_pick(table.get(iri, {}), lang) for iri in iris}
        old_ms = (time.perf_counter() - started) * 1000 / len(iris) * 200
        started = time.perf_counter()
        new = fetch_names(kg, iris, lang)
        new_ms = (time.perf_counter() - started) * 1000 / len(iris) * 200
        cldr = sum(1 for iri, (name, code) in new.items()  # a name the KG does not have: CLDR's
                   if name and code == lang and name not in table.get(iri, {}).get(lang, []))
        old_code = sum(1 for name, _ in old.values() if name and is_code_like(name))
        new_code = sum(1 for name, _ in new.values() if name and is_code_like(name))
        old_own = sum(1 for _, code in old.values() if code == lang)
        new_own = sum(1 for _, code in new.values() if code == lang)
        fallback = sum(1 for _, code in new.values() if code == "en" and lang != "en")
        print(f"{lang:<5}{old_code:>14}{new_code:>14}{old_own:>13}{new_own:>13}{cldr:>9}{fallback:>16}"
              f"{old_ms:>11.1f}{new_ms:>11.1f}")
    return 0



if __name__ == "__main__":
    sys.exit(main())
