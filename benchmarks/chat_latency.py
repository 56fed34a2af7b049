"""Chat latency: time from submit to a visible answer (target p50 <= 1 s).

Usage::

    # start the real app (python app.py) on the full embedded KG and measure in the browser
    .venv/bin/python benchmarks/chat_latency.py --start --mode browser -n 40
    # the same over the tiny test KG, or against an app that is already running
    .venv/bin/python benchmarks/chat_latency.py --start --tiny --mode both
    .venv/bin/python benchmarks/chat_latency.py --url http://127.0.0.1:7860/ --mode client

Modes: ``browser`` (Debian Chromium via Playwright: Enter pressed -> the answer message is
in the DOM; includes the two Gradio round trips and rendering), ``client`` (gradio_client
calling the app's ``/ask`` endpoint: pipeline + render + committed log row + HTTP).
Questions are drawn (seeded) from the multilingual bench strings; the first ``--warmup``
are not measured.  With ``--start`` the per-stage server timings are read back from the
session log.  Prints figures only; writes nothing outside a temporary directory.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.settings import DEFAULT_BENCH_DIR  # noqa: E402
from service.loadgen import LoadError, free_port, wait_until_up  # noqa: E402

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def bench_questions(bench_dir: Path, n: int, seed: int) -> list[tuple[str, str]]:
    """``n`` (language, question) pairs, spread over the bench files' languages."""
    by_lang: dict[str, list[str]] = defaultdict(list)
    for path in sorted(bench_dir.glob("*.json")):
        for q in json.loads(path.read_text(encoding="utf-8")).get("questions", []):
            for entry in q.get("question", []):
                by_lang[entry["language"]].append(entry["string"])
    rng = random.Random(seed)
    langs = sorted(by_lang)
    picks = []
    for i in range(n):
        lang = langs[i % len(langs)]
        picks.append((lang, rng.choice(by_lang[lang])))
    rng.shuffle(picks)
    return picks


def tiny_questions(n: int) -> list[tuple[str, str]]:
    """Questions over the tiny test graph (for ``--tiny``)."""
    base = [("en", "Where was Albert Einstein born?"), ("ru", "Где родился Альберт Эйнштейн?"),
            ("zh", "阿尔伯特·爱因斯坦出生在哪里？"), ("de", "Was ist die Hauptstadt von Russland?"),
            ("fr", "Quelle est la capitale de la France ?"), ("en", "What is the meaning of life?")]
    return [base[i % len(base)] for i in range(n)]


def start_app(tmp: Path, tiny: bool, timeout_s: float) -> tuple[subprocess.Popen, str, Path]:
    """``python app.py`` on a free port; returns (process, url, session log path)."""
    port = free_port()
    log_path = tmp / "sessions.sqlite"
    env = {k: v for k, v in os.environ.items() if not (tiny and k.startswith("KGQA_"))}
    env["GRADIO_ANALYTICS_ENABLED"] = "False"
    if tiny:
        from tests import tiny_kg

        source = tmp / "tiny.nt"
        source.write_text(tiny_kg.ntriples(), encoding="utf-8")
        env.update(KGQA_KG_SOURCE=str(source), KGQA_CACHE_DIR=str(tmp / "cache"))
    out = (tmp / "app.out").open("wb")
    proc = subprocess.Popen([sys.executable, "app.py", "--port", str(port), "--log-path", str(log_path)],
                            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    started = time.monotonic()
    try:
        up = wait_until_up(url, timeout_s, proc, every_s=0.5)
    except LoadError as exc:
        raise SystemExit(f"app exited: {(tmp / 'app.out').read_text(errors='replace')[-2000:]}") from exc
    if up:
        print(f"app up after {time.monotonic() - started:.1f}s at {url}")
        return proc, url, log_path
    proc.send_signal(signal.SIGTERM)
    raise SystemExit("app did not start in time")


def measure_browser(url: str, questions: list[tuple[str, str]], warmup: int) -> list[float]:
    """Seconds from pressing Enter to the new answer being in the DOM, per question."""
    from playwright.sync_api import sync_playwright

    times = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        page = browser.new_page()
        page.goto(url)
        page.wait_for_selector("#kgqa-question textarea", timeout=60_000)
        time.sleep(1.0)
        box = page.locator("#kgqa-question textarea")
        for i, (_lang, question) in enumerate(questions):
            before = page.locator(".kgqa-answer").count()
            box.fill(question)
            t0 = time.perf_counter()
            box.press("Enter")
            page.wait_for_function(f"document.querySelectorAll('.kgqa-answer').length > {before}",
                                   timeout=120_000, polling="raf")
            if i >= warmup:
                times.append(time.perf_counter() - t0)
        browser.close()
    return times


def measure_client(url: str, questions: list[tuple[str, str]], warmup: int) -> list[float]:
    """Seconds per ``/ask`` call through gradio_client."""
    from gradio_client import Client

    client = Client(url, verbose=False)
    times = []
    for i, (_lang, question) in enumerate(questions):
        t0 = time.perf_counter()
        client.predict(question, "auto", api_name="/ask")
        if i >= warmup:
            times.append(time.perf_counter() - t0)
    return times


def summarize(name: str, times: list[float]) -> None:
    """Print p50/p90/p95/mean/max in seconds."""
    if not times:
        print(f"{name}: no measurements")
        return
    ordered = sorted(times)

    def pct(p: float) -> float:
        return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]

    p50 = statistics.median(ordered)
    verdict = "meets" if p50 <= 1.0 else "MISSES"
    print(f"{name}: n={len(times)} p50={p50:.3f}s p90={pct(90):.3f}s p95={pct(95):.3f}s "
          f"mean={statistics.fmean(times):.3f}s max={ordered[-1]:.3f}s  ({verdict} p50 <= 1 s)")


def stage_summary(log_path: Path) -> None:
    """Median per pipeline stage, from the session log's latency column."""
    if not log_path.exists():
        return
    with sqlite3.connect(log_path) as db:
        rows = [json.loads(r[0]) for r in db.execute("SELECT latency_ms FROM turns")]
    stages: dict[str, list[float]] = defaultdict(list)
    for row in rows:
        for stage, ms in row.items():
            stages[stage].append(float(ms))
    parts = [f"{s}={statistics.median(v):.0f}ms" for s, v in sorted(stages.items())]
    print(f"server stages (median over {len(rows)} logged turns, incl. warm-up): " + " ".join(parts))


def main() -> int:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--url", help="an already running chat app")
    where.add_argument("--start", action="store_true", help="start python app.py on a free port")
    parser.add_argument("--tiny", action="store_true", help="with --start: the tiny test KG instead of the full one")
    parser.add_argument("--mode", choices=["browser", "client", "both"], default="browser")
    parser.add_argument("-n", type=int, default=40, help="measured questions")
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bench-dir", type=Path, default=DEFAULT_BENCH_DIR)
    parser.add_argument("--start-timeout", type=float, default=900)
    args = parser.parse_args()

    total = args.n + args.warmup
    questions = tiny_questions(total) if args.tiny else bench_questions(args.bench_dir, total, args.seed)
    print(f"{len(questions)} questions ({args.warmup} warm-up), languages: "
          + ", ".join(sorted({lang for lang, _ in questions})))
    with tempfile.TemporaryDirectory(prefix="kgqa-latency-") as tmp_name:
        proc = None
        log_path = None
        url = args.url
        if args.start:
            proc, url, log_path = start_app(Path(tmp_name), args.tiny, args.start_timeout)
        try:
            if args.mode in ("browser", "both"):
                summarize("browser submit->visible answer", measure_browser(url, questions, args.warmup))
            if args.mode in ("client", "both"):
                summarize("gradio_client /ask round trip", measure_client(url, questions, args.warmup))
            if log_path:
                stage_summary(log_path)
        finally:
            if proc is not None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
