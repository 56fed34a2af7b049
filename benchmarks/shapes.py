"""The constraint shapes on their dev set: counts, lists with a class and a condition,
intersections of two anchors, several conditions, superlatives within a class and a place,
"still alive" and exclusions (``benchmarks/data/recall/shapes.json``,
written by hand the way people type, gold computed on the project's KG by each item's
``gold_sparql``), asked through the whole pipeline with the validator and its gate.

Per string: **right** (the shown answer set equals the gold set; a count: the shown number
equals the gold number; alive or not: the shown yes/no), **wrong** (any other shown answer) or **abstain**.  Printed per
shape and per language: right / wrong / abstain, the right rate and the precision of shown
answers (right / shown), the kept candidates' shapes, and the latency (mean, p95).  Targets
(issue 40): at least 40 % right at precision >= 0.92; p95 latency <= 600 ms on one core.

    .venv/bin/python benchmarks/shapes.py [--data shapes|paraphrase|fresh|PATH] [--limit N] [--json out.json] [--verify]

``--verify`` recomputes every gold answer from its ``gold_sparql`` on the KG and stops on a
difference (the set's facts are the KG's).  :func:`section` is what another benchmark calls
to print this one's table from a pipeline it already built.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

DATA = Path(__file__).resolve().parent / "data" / "recall" / "shapes.json"
SETS = {"shapes": DATA, "paraphrase": DATA.with_name("shapes_paraphrase.json"),
        "fresh": DATA.with_name("shapes_fresh.json"), "fresh2": DATA.with_name("shapes_fresh2.json"),
        "fresh3": DATA.with_name("shapes_fresh3.json"), "fresh4": DATA.with_name("shapes_fresh4.json")}
"""The sets ``--data`` names: ``shapes`` (the default) and ``paraphrase``, three English and three
Spanish paraphrases of each of 29 complex questions in the style of a public hand-written
benchmark (formal, casual, reordered, imperative); ``fresh``, the same for 25 other complex questions,
written by hand (helper fresh160, 2026-11-29) as a held-out set, never tuned on; ``fresh2``, 22 more
complex questions about other anchors, each written once in English and once in Spanish, written by
hand by helper fresh2_164 on 2026-11-29 as a held-out set, never tuned on; ``fresh3``, 25 more complex
questions about other anchors, each written once in English and once in Spanish, written by hand by helper
shfresh3_173 on 2026-11-29 as a held-out set, never tuned on; ``fresh4``, 25 more complex questions about
other anchors, each written once in English and once in Spanish, written by hand by helper shfresh4_180 on
2026-11-29 as a held-out set, never tuned on; any other value is a path."""


def data_path(value: str) -> Path:
    """``--data``: a set's name (:data:`SETS`) or a path."""
    return SETS.get(value, Path(value))


def load(path: Path = DATA) -> list[dict]:
    """The dev set's items."""
    return json.loads(path.read_text(encoding="utf-8"))["questions"]


def shown_values(turn: dict) -> set[str]:
    """What the turn showed: Wikidata ids of entities, else literal values."""
    if turn["boolean"] is not None:
        return {str(turn["boolean"]).lower()}
    out = {iri.rsplit("/", 1)[-1] for iri in turn.get("unnamed", ())}  # shown in QALD output, not in the chat
    for a in turn["answers"]:
        value = a.get("id") or a.get("value") or ""
        out.add(value.rsplit("/", 1)[-1] if value.startswith("http://www.wikidata.org/entity/") else value)
    return out


def judge(turn: dict, item: dict) -> str:
    """right / wrong / abstain."""
    if not turn["answered"]:
        return "abstain"
    shown = shown_values(turn)
    gold = {str(a) for a in item["answers"]}
    if item["shape"] == "count":
        return "right" if len(shown) == 1 and _number(next(iter(shown))) == _number(next(iter(gold))) else "wrong"
    if len(turn["answers"]) < turn.get("total_answers", len(turn["answers"])):
        return "wrong" if turn["total_answers"] != len(gold) else ("right" if shown <= gold else "wrong")
    return "right" if shown == gold else "wrong"


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def run(pipeline, items: Sequence[dict]) -> list[dict]:
    """Ask every string through ``pipeline`` (validator on); one record each."""
    out = []
    for item in items:
        t0 = time.perf_counter()
        turn = pipeline.answer(item["question"], item["language"], use_validator=True,
                               question_lang=item["language"]).to_json()
        ms = (time.perf_counter() - t0) * 1000
        kept = next((c for c in turn["candidates"] if c.get("kept")), None)
        out.append({**item, "verdict": judge(turn, item), "ms": ms, "kept_shape": kept["shape"] if kept else None,
                    "sparql": turn["sparql"], "shown": sorted(shown_values(turn)) if turn["answered"] else []})
    return out


def table(records: Iterable[dict], key: str) -> list[str]:
    """One line per value of ``key``: right / wrong / abstain, right rate, precision."""
    groups: dict[str, Counter] = defaultdict(Counter)
    for r in records:
        groups[r[key]][r["verdict"]] += 1
        groups["ALL"][r["verdict"]] += 1
    lines = [f"  {key:<14} {'n':>4} {'right':>6} {'wrong':>6} {'abst':>6} {'right%':>7} {'prec':>6}"]
    for name in sorted(groups, key=lambda k: (k == "ALL", k)):
        c = groups[name]
        n, shown = sum(c.values()), c["right"] + c["wrong"]
        prec = f"{c['right'] / shown:.3f}" if shown else "  -  "
        lines.append(f"  {name:<14} {n:>4} {c['right']:>6} {c['wrong']:>6} {c['abstain']:>6} "
                     f"{100 * c['right'] / n:>6.1f}% {prec:>6}")
    return lines


def section(pipeline, items: Sequence[dict] | None = None) -> dict:
    """Run the dev set through ``pipeline`` and print its tables; returns the summary."""
    records = run(pipeline, items if items is not None else load())
    print("\nconstraint shapes (benchmarks/data/recall/shapes.json), validator gate")
    for key in ("shape", "language"):
        print("\n".join(table(records, key)))
    kept = Counter(r["kept_shape"] for r in records if r["verdict"] != "abstain")
    print(f"  kept candidates' shapes: {dict(kept)}")
    ms = sorted(r["ms"] for r in records)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    print(f"  latency: mean {statistics.mean(ms):.0f} ms, p95 {p95:.0f} ms over {len(ms)} questions")
    c = Counter(r["verdict"] for r in records)
    shown = c["right"] + c["wrong"]
    return {"right": c["right"], "wrong": c["wrong"], "abstain": c["abstain"], "n": len(records),
            "precision": c["right"] / shown if shown else None, "p95_ms": p95, "records": records}


def verify(items: Sequence[dict], kg) -> int:
    """Recompute the gold answers on the KG; the number of items that differ."""
    from kg.sparql import local_id

    bad = 0
    for item in {i["id"]: i for i in items}.values():
        result = kg.query(item["gold_sparql"], timeout_s=30, max_rows=1000)
        rows = result.rows
        if result.boolean is not None:  # alive or not: "false" for a person the KG says died
            gold = [str(result.boolean).lower()]
        elif "COUNT" in item["gold_sparql"]:
            gold = [rows[0]["n"].value]
        else:
            gold = sorted(local_id(row["x"].value) for row in rows)
        if gold != item["answers"]:
            bad += 1
            print(f"  {item['id']}: gold {item['answers']} but the KG gives {gold}")
    return bad


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=data_path, default=DATA, help=f"a set ({', '.join(SETS)}) or a path")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--json", type=Path, help="write per-string records here")
    ap.add_argument("--verify", action="store_true", help="recompute the gold answers on the KG, then stop")
    args = ap.parse_args(argv)

    from core.settings import load_settings
    from service.factory import build_pipeline, open_kg

    settings = load_settings({}, validator=True)
    items = load(args.data)
    if args.verify:
        bad = verify(items, open_kg(settings))
        print(f"{len({i['id'] for i in items})} facts checked, {bad} differ")
        return 1 if bad else 0
    if args.limit:
        items = items[: args.limit]
    pipeline = build_pipeline(settings)
    pipeline.answer("warm-up: what is the capital of France?", "en", use_validator=True)
    summary = section(pipeline, items)
    if args.json:
        args.json.write_text(json.dumps(summary["records"], ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
