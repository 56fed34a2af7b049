"""End-to-end quality on the dev questions of the complex kinds (counts, superlatives,
comparatives, rankings, constraints) plus WikiWebQuestions, through the real pipeline.

Questions: RuBQ tagged ``count`` / ``ranking`` / ``multi-constraint``, Mintaka tagged
``count`` / ``superlative`` / ``comparative`` / ``ordinal``, and every WWQ question.
Every language string of a question is asked (RuBQ: ru + machine-translated en;
Mintaka: nine languages; WWQ: en).

Per string:

* **correct**: an answerable question whose shown answer set equals the gold set (values
  compared with :mod:`evaluation.answers`), or an unanswerable one with an abstention;
* **wrong**: any other shown answer (an answer to an unanswerable question is wrong);
* **abstain**: no answer to an answerable question.

Without a trained validator the top candidate is always shown, so a backend-confidence
gate is calibrated on the ``dev`` split (best ATS with precision >= 0.85) and applied to
``test``; both views are printed.

Printed: correct rate (target >= 40 %), precision of shown answers = correct shown /
shown (target >= 0.85), ATS (+1 correct shown, 0 abstain, -1 wrong, averaged), mean F1
on answerable strings, per source/kind/language, for the held-out ``test`` split
(headline) and for all questions.  Mintaka's count questions carry the counted entities
as gold, not a number, so a number never matches them; ``count≈`` also reports how
often the shown number equals the size of that gold set.

    .venv/bin/python benchmarks/complex_quality.py [--validator] [--split test|all] [--limit N] [--json out.json]
    .venv/bin/python benchmarks/complex_quality.py --written [--validator]   # the written test questions
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.settings import DEFAULT_BENCH_DIR, load_settings
from evaluation.answers import normalize_binding, normalize_value, prf
from evaluation.splits import split_of
from qa.pipeline import Pipeline

KINDS = {"rubq1": {"count", "ranking", "multi-constraint"},
         "mintaka": {"count", "superlative", "comparative", "ordinal"}}


def items(bench_dir: Path) -> Iterator[dict]:
    """The question strings to ask, with their gold."""
    for source in ("rubq1", "mintaka", "wwq"):
        data = json.loads((bench_dir / f"{source}.json").read_text(encoding="utf-8"))
        for q in data["questions"]:
            tags = set(q.get("complexity") or [])
            if source in KINDS and not tags & KINDS[source]:
                continue
            answers = q["answers"][0] if q.get("answers") else {}
            gold = {normalize_binding(next(iter(b.values()))) for b in answers.get("results", {}).get("bindings", [])}
            kind = sorted(tags & KINDS[source])[0] if source in KINDS else "wwq"
            for s in q["question"]:
                yield {"id": q["id"], "source": source, "kind": kind, "lang": s["language"], "text": s["string"],
                       "answerable": q["kind"] == "answerable", "gold": sorted(gold),
                       "split": split_of(q["id"]), "mintaka_count": source == "mintaka" and "count" in tags}


def judge(turn: dict, item: dict) -> dict:
    """correct / wrong / abstain plus F1 for one asked string."""
    if not turn["answered"]:
        verdict = "abstain" if item["answerable"] else "correct"
        return {"verdict": verdict, "f1": 0.0, "count_equiv": False}
    if turn["boolean"] is not None:
        shown = {str(turn["boolean"]).lower()}
    else:
        shown = {normalize_value(a["value"], a["type"], a["datatype"]) for a in turn["answers"]}
    _, _, f1 = prf(shown, item["gold"]) if item["answerable"] else (0.0, 0.0, 0.0)
    exact = item["answerable"] and shown == set(item["gold"])
    count_equiv = bool(item["mintaka_count"] and len(shown) == 1 and next(iter(shown)) == str(len(item["gold"])))
    return {"verdict": "correct" if exact else "wrong", "f1": f1, "count_equiv": count_equiv}


def run(pipeline, todo: Sequence[dict], *, use_validator: bool, progress: bool = True) -> list[dict]:
    """Ask every string; one record each."""
    out = []
    started = time.monotonic()
    for i, item in enumerate(todo):
        t0 = time.perf_counter()
        turn = pipeline.answer(item["text"], item["lang"], use_validator=use_validator,
                               question_lang=item["lang"]).to_json()
        rec = {**item, **judge(turn, item), "ms": (time.perf_counter() - t0) * 1000, "sparql": turn["sparql"],
               "shape": _shape(turn["sparql"]), "confidence": turn["confidence"] if turn["answered"] else None}
        out.append(rec)
        if progress and (i + 1) % 100 == 0:
            print(f"  {i + 1}/{len(todo)} ({time.monotonic() - started:.0f}s)", file=sys.stderr)
    return out


def _shape(sparql: str | None) -> str:
    if not sparql:
        return "-"
    if sparql.startswith("ASK"):
        return "ask"
    if "COUNT(" in sparql:
        return "count"
    if "VALUES ?answer" in sparql:
        return "comparison"
    if "ORDER BY" in sparql:
        return "superlative"
    if "FILTER" in sparql:
        return "filter"
    return "simple"


def figures(records: Sequence[dict]) -> dict:
    """Correct rate, precision of shown answers, ATS, F1 and counts."""
    n = len(records)
    correct = sum(r["verdict"] == "correct" for r in records)
    wrong = sum(r["verdict"] == "wrong" for r in records)
    shown_correct = sum(r["verdict"] == "correct" and not _abstained(r) for r in records)
    shown = shown_correct + wrong
    answerable = [r for r in records if r["answerable"]]
    return {"n": n, "correct_rate": correct / n if n else 0.0,
            "precision": shown_correct / shown if shown else 1.0, "shown": shown, "wrong": wrong,
            "ats": (shown_correct - wrong) / n if n else 0.0,
            "f1": sum(r["f1"] for r in answerable) / len(answerable) if answerable else 0.0,
            "count_equiv": sum(r["count_equiv"] for r in records)}


def gated(records: Sequence[dict], threshold: float) -> list[dict]:
    """The records as if answers below ``threshold`` confidence had been withheld."""
    out = []
    for r in records:
        if r["confidence"] is not None and r["confidence"] < threshold:
            r = {**r, "verdict": "abstain" if r["answerable"] else "correct", "f1": 0.0, "count_equiv": False,
                 "shape": "-", "confidence": None}
        out.append(r)
    return out


def calibrate(records: Sequence[dict]) -> float:
    """The confidence threshold with the best ATS on the ``dev`` split among those whose
    precision reaches 0.85 (the best ATS overall when none does)."""
    dev = [r for r in records if r["split"] == "dev"]
    grid = [round(0.05 * i, 2) for i in range(21)]
    scored = [(figures(gated(dev, t)), t) for t in grid]
    ok = [(f["ats"], t) for f, t in scored if f["precision"] >= 0.85]
    return max(ok or [(f["ats"], t) for f, t in scored])[1]


def _abstained(r: dict) -> bool:
    return r["verdict"] == "correct" and not r["answerable"]


def report(records: Sequence[dict], title: str) -> dict:
    """Print a table by group and return the figures."""
    groups: dict[str, list[dict]] = defaultdict(list)
    for r in records:
        groups["all"].append(r)
        groups[f"source={r['source']}"].append(r)
        groups[f"kind={r['source']}:{r['kind']}"].append(r)
        groups[f"lang={r['lang']}"].append(r)
        groups[f"answerable={r['answerable']}"].append(r)
    print(f"\n== {title} ({len(records)} question strings)")
    print(f"{'group':<34}{'n':>6}{'correct':>9}{'prec':>7}{'shown':>7}{'wrong':>7}{'ATS':>8}{'F1':>7}{'count≈':>8}")
    out = {}
    for name in sorted(groups, key=lambda g: (g != "all", g)):
        f = figures(groups[name])
        out[name] = f
        print(f"{name:<34}{f['n']:>6}{100 * f['correct_rate']:>8.1f}%{f['precision']:>7.2f}{f['shown']:>7}"
              f"{f['wrong']:>7}{f['ats']:>8.3f}{f['f1']:>7.3f}{f['count_equiv']:>8}")
    shapes: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in records:
        if r["shape"] != "-":
            shapes[r["shape"]][0] += 1
            shapes[r["shape"]][1] += r["verdict"] == "correct"
    print("shown answers by kept shape: " + ", ".join(f"{k} {v[1]}/{v[0]} correct" for k, v in sorted(shapes.items())))
    return out


def written(pipeline: Pipeline, *, use_validator: bool) -> int:
    """The written complex questions through the pipeline: verdicts per kind and language."""
    from training.written import judge, load_written, tally

    verdicts = []
    for q in load_written():
        turn = pipeline.answer(q["question"], q["lang"], use_validator=use_validator,
                               question_lang=q["lang"]).to_json()
        verdicts.append((q, judge(turn, q)))
    view = "validator gate" if use_validator else "top candidate always shown"
    print(f"\n== written complex questions, {view}")
    print(f"{'group':<26}{'n':>5}{'correct':>9}{'wrong':>7}{'abstain':>9}")
    for group, counts in tally(verdicts).items():
        n = sum(counts.values())
        print(f"{group:<26}{n:>5}{counts.get('correct', 0):>9}{counts.get('wrong', 0):>7}{counts.get('abstain', 0):>9}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bench-dir", type=Path, default=DEFAULT_BENCH_DIR)
    ap.add_argument("--split", choices=("test", "all"), default="all", help="ask only the test split, or all")
    ap.add_argument("--validator", action="store_true", help="use the trained validator (default: top-1)")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--json", type=Path, help="write per-string records here")
    ap.add_argument("--written", action="store_true",
                    help="instead: the written test questions (tests/data/complex_questions.json)")
    args = ap.parse_args(argv)

    from service.factory import build_pipeline

    settings = load_settings({}, validator=args.validator)
    pipeline = build_pipeline(settings)
    print(f"validator: {pipeline.validator_state}", file=sys.stderr)
    if args.written:
        return written(pipeline, use_validator=args.validator)
    todo = [i for i in items(args.bench_dir) if args.split == "all" or i["split"] == "test"]
    if args.limit:
        todo = todo[: args.limit]
    started = time.monotonic()
    records = run(pipeline, todo, use_validator=args.validator)
    elapsed = time.monotonic() - started
    test = [r for r in records if r["split"] == "test"]
    view = "validator gate" if pipeline.validator_state == "on" else "top candidate always shown"
    headline = " (headline)" if pipeline.validator_state == "on" else ""
    result = {"test": report(test, f"test split{headline}, {view}")}
    if args.split == "all":
        result["all"] = report(records, f"all dev questions (train/dev splits were seen in training), {view}")
    if args.split == "all" and pipeline.validator_state != "on":
        threshold = calibrate(records)
        print(f"\nbackend-confidence gate calibrated on the dev split: {threshold}")
        result["gate"] = threshold
        result["test_gated"] = report(gated(test, threshold), f"test split (headline), gate {threshold}")
        result["all_gated"] = report(gated(records, threshold), f"all dev questions, gate {threshold}")
    ms = sorted(r["ms"] for r in records)
    print(f"\nlatency per question: p50 {ms[len(ms) // 2]:.0f} ms, p95 {ms[int(0.95 * (len(ms) - 1))]:.0f} ms; "
          f"total {elapsed:.0f}s; validator {pipeline.validator_state}")
    if args.json:
        args.json.write_text(json.dumps({"figures": result, "records": records}, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
