"""Language-detection accuracy on the multilingual bench strings (which carry their language).

Usage::

    .venv/bin/python benchmarks/language_detection.py [--bench-dir DIR] [--compare] [--errors N]
    .venv/bin/python benchmarks/language_detection.py --written   # the seed languages' short questions

Prints accuracy per language for ``qa.reading.detect.detect_language`` (and, with
``--compare``, for plain seeded langdetect and for script rules + langdetect, the old
method), the mean time per call and the errors.  Nothing is written to disk.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.settings import DEFAULT_BENCH_DIR
from qa.reading.detect import DETECTABLE_LANGUAGES, SUPPORTED_LANGUAGES, detect_language, script_language


def bench_strings(bench_dir: Path) -> Iterator[tuple[str, str, str]]:
    """``(source file, language, string)`` for every question string of every bench file."""
    for path in sorted(bench_dir.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for question in data.get("questions", []):
            for entry in question.get("question", []):
                if entry.get("string"):
                    yield path.stem, entry["language"], entry["string"]


WRITTEN = Path(__file__).resolve().parent / "data" / "short_questions.json"
"""Short questions written for the seed languages (be, lt, hy, ba, ar, hi, bn, am, nl) plus ru/uk."""


def written_strings(path: Path = WRITTEN) -> Iterator[tuple[str, str, str]]:
    """``("written", language, question)`` for every written short question."""
    data = json.loads(path.read_text(encoding="utf-8"))
    for lang, questions in data.items():
        if not lang.startswith("_"):
            for text in questions:
                yield "written", lang, text


def plain_langdetect(text: str) -> str:
    """Seeded langdetect alone (its own code set)."""
    from langdetect import DetectorFactory, detect
    from langdetect.lang_detect_exception import LangDetectException

    DetectorFactory.seed = 0
    try:
        code = detect(text)
    except LangDetectException:
        return "en"
    return {"zh-cn": "zh", "zh-tw": "zh"}.get(code, code)


def script_plus_langdetect(text: str) -> str:
    """The previous method: script rules, then the first supported langdetect guess."""
    from langdetect import DetectorFactory, detect_langs
    from langdetect.lang_detect_exception import LangDetectException

    by_script = script_language(text)
    if by_script:
        return by_script
    DetectorFactory.seed = 0
    try:
        for guess in detect_langs(text):
            if guess.lang in SUPPORTED_LANGUAGES:
                return guess.lang
    except LangDetectException:
        return "en"
    return "en"


def evaluate(name: str, detector: Callable[[str], str], items: list[tuple[str, str, str]], show_errors: int) -> None:
    """Print per-language accuracy of ``detector`` over ``items``."""
    detector(items[0][2])  # load models outside the timing
    total: Counter[str] = Counter()
    correct: Counter[str] = Counter()
    errors: dict[str, list[tuple[str, str]]] = defaultdict(list)
    started = time.perf_counter()
    for _source, lang, text in items:
        guess = detector(text)
        total[lang] += 1
        if guess == lang:
            correct[lang] += 1
        else:
            errors[lang].append((guess, text))
    elapsed = time.perf_counter() - started
    print(f"\n== {name}: {len(items)} strings, {elapsed / len(items) * 1000:.2f} ms per call")
    print(f"{'lang':<6}{'n':>6}{'correct':>9}{'accuracy':>10}  target>=97%  confused with")
    target_n = target_ok = 0
    for lang in sorted(total, key=lambda c: (c not in SUPPORTED_LANGUAGES, c)):
        acc = correct[lang] / total[lang] * 100
        in_target = lang in SUPPORTED_LANGUAGES
        if in_target:
            target_n += total[lang]
            target_ok += correct[lang]
        mark = ("ok" if acc >= 97 else "BELOW") if in_target else "(not a UI language)"
        confused = Counter(guess for guess, _ in errors[lang])
        print(f"{lang:<6}{total[lang]:>6}{correct[lang]:>9}{acc:>9.1f}%  {mark}  {dict(confused) or ''}")
    if target_n:
        print(f"{'all':<6}{target_n:>6}{target_ok:>9}{target_ok / target_n * 100:>9.1f}%  (micro, UI languages)")
    missing = [c for c in SUPPORTED_LANGUAGES if c not in total]
    if missing:
        print(f"no bench strings for: {', '.join(missing)} (covered by script rules + tests/qa/test_detect.py)")
    if show_errors:
        for lang in sorted(errors):
            for guess, text in errors[lang][:show_errors]:
                print(f"  {lang}->{guess}: {text}")


def main() -> int:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench-dir", type=Path, default=DEFAULT_BENCH_DIR)
    parser.add_argument("--compare", action="store_true", help="also run plain langdetect and the old method")
    parser.add_argument("--errors", type=int, default=5, help="errors to print per language")
    parser.add_argument("--written", action="store_true", help="the written short questions instead of the bench")
    args = parser.parse_args()
    items = list(written_strings() if args.written else bench_strings(args.bench_dir))
    if not items:
        print(f"no bench strings under {args.bench_dir}", file=sys.stderr)
        return 1
    assert all(lang for _, lang, _ in items)
    sources = Counter(f"{src}:{lang}" for src, lang, _ in items)
    print("strings per source:language:", dict(sorted(sources.items())))
    print("detectable languages:", ", ".join(DETECTABLE_LANGUAGES))
    if args.compare:
        evaluate("langdetect alone (seeded)", plain_langdetect, items, 0)
        evaluate("script rules + langdetect (old)", script_plus_langdetect, items, 0)
    evaluate("qa.reading.detect.detect_language", detect_language, items, args.errors)
    return 0


if __name__ == "__main__":
    sys.exit(main())
