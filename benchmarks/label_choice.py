"""Label choice on the embedded KG: the old rule (first label or alias along the language
chain) against :func:`qa.label.fetch_names` (quality rule + CLDR names).

Usage::

    .venv/bin/python benchmarks/label_choice.py [--limit 600]

Takes the values of citizenship, official language, currency, spouse and place of birth
(the kinds of answers the chat shows most), names them in every chat language both ways and
prints, per language: code-like names shown (``it``, ``Q76346``), names in the user's
language, CLDR names, English fallbacks, and the time per batch of 200.  Nothing is written.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.settings import load_settings
from kg.client import fetch_labels
from qa.detect import SUPPORTED_LANGUAGES
from qa.label import LABEL_FALLBACKS, fetch_names, is_code_like
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


def main() -> int:
    """Print the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=600, help="values per property")
    args = parser.parse_args()
    kg = open_kg(load_settings(os.environ))
    iris: list[str] = []
    for prop in PROPERTIES:
        iris += [row["o"].value for row in kg.query(SAMPLE.format(p=prop, n=args.limit)).rows]
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
