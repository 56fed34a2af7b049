"""Load test of the chat app: N concurrent chat sessions x M questions each, over HTTP.

Prints p50 / p95 / max latency per question, errors, throughput, and checks that every
acknowledged turn is in the SQLite session log.  Targets: 0 errors and p95 <= 3 s at
20 concurrent sessions.

    # start the real app (python app.py) on a free port with a fresh log, then load it
    .venv/bin/python benchmarks/load.py [--sessions 20] [--questions 10] [-- APP FLAGS...]
    # or load an app that is already running (and give its log to check)
    .venv/bin/python benchmarks/load.py --url http://127.0.0.1:7860 --log-path .cache/logs/sessions.sqlite
    # also a run with realistic think time (uniform 2..6 s between an answer and the
    # session's next question), after the zero-think stress run on the same app
    .venv/bin/python benchmarks/load.py --think-s 2:6
    # durability: kill -9 the started app after 60 acknowledged turns, then check the log
    .venv/bin/python benchmarks/load.py --kill-after 60

Two load models, printed under separate keys (each with ``app_cpu_cores``, the mean number
of cores the app used with its worker processes, ``app_main_process_cpu_cores`` for its
main (UI) process alone, and how busy the machine was before and after: other work on a
shared machine slows the app down):

* ``zero_think`` (always run): each session asks its next question the moment the
  previous answer arrives - a closed-loop stress test where 20 sessions keep the app
  permanently busy, so latency ~ sessions x service time / concurrency.
* ``think_LO-HIs`` (with ``--think-s LO:HI``): each session waits uniform LO..HI seconds
  (seeded) after every answer, like a person reading it and typing the next question;
  sessions start spread over the first HI seconds.  Latency excludes think time.

Questions are drawn (seeded) from the dev benchmark files in ``../shared/data/bench``
in all their languages, read at run time (nothing derived from them is stored); without
them a small built-in list is used.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


from core.settings import DEFAULT_BENCH_DIR  # noqa: E402
from service.loadgen import (  # noqa: E402
    ChatClient,
    LoadError,
    Script,
    TurnResult,
    free_port,
    missing_turns,
    run_load,
    wait_until_up,
)

FALLBACK_QUESTIONS: list[tuple[str, str]] = [
    ("What is the capital of Germany?", "auto"), ("Wo wurde Albert Einstein geboren?", "auto"),
    ("Какая столица у России?", "auto"), ("法国的首都是哪里？", "auto"), ("¿Dónde nació Pablo Picasso?", "auto"),
    ("Quelle est la population de Paris ?", "auto"), ("Хто написав Кобзар?", "auto"),
    ("Who is the author of War and Peace?", "auto"), ("Qual è la capitale dell'Italia?", "auto"),
    ("東京はどこの国の首都ですか？", "auto"),
]


def bench_questions(bench_dir: Path) -> list[tuple[str, str]]:
    """Every (question string, language) of the dev benchmark files."""
    out = []
    for path in sorted(bench_dir.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for q in data.get("questions", []):
            for entry in q.get("question", []):
                if entry.get("string") and entry.get("note") != "machine translation":
                    out.append((entry["string"], "auto"))
    return out


def make_script(pool: list[tuple[str, str]], sessions: int, questions: int, seed: int) -> Script:
    """``sessions`` lists of ``questions`` questions each, sampled with ``seed``."""
    rng = random.Random(seed)
    return [[rng.choice(pool) for _ in range(questions)] for _ in range(sessions)]


def think_range(text: str) -> tuple[float, float]:
    """``"LO:HI"`` seconds -> ``(lo, hi)`` (argparse type)."""
    try:
        lo, hi = (float(x) for x in text.split(":"))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"expected LO:HI seconds, got {text!r}") from exc
    if not 0 <= lo <= hi:
        raise argparse.ArgumentTypeError(f"need 0 <= LO <= HI, got {text!r}")
    return lo, hi


def _stat(pid: int | str) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command name (state, ppid, ...)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def _cpu_seconds(pid: int, *, tree: bool = False) -> float | None:
    """User + system CPU seconds of process ``pid`` so far (Linux ``/proc``); with ``tree``,
    plus those of its live descendants (the app's worker processes)."""
    fields = _stat(pid)
    if fields is None:
        return None
    total = int(fields[11]) + int(fields[12])
    if tree:
        children: dict[int, list[int]] = {}
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit() and (f := _stat(entry.name)) is not None:
                children.setdefault(int(f[1]), []).append(int(entry.name))
        todo = list(children.get(pid, ()))
        while todo:
            child = todo.pop()
            todo.extend(children.get(child, ()))
            if (f := _stat(child)) is not None:
                total += int(f[11]) + int(f[12])
    return total / os.sysconf("SC_CLK_TCK")


def box_load() -> dict[str, float]:
    """How busy the machine is: 1-minute load average and, where the kernel reports it,
    the share of the last 60 s in which some runnable task waited for a CPU."""
    out = {"loadavg_1m": round(os.getloadavg()[0], 2)}
    try:
        some = Path("/proc/pressure/cpu").read_text().splitlines()[0].split()
        out["cpu_pressure_60s_pct"] = float(dict(kv.split("=") for kv in some[1:])["avg60"])
    except (OSError, IndexError, KeyError, ValueError):
        pass
    return out


def launch_app(port: int, log_path: Path, app_args: list[str], ready_timeout_s: float) -> subprocess.Popen:
    """Start ``python app.py`` on ``port`` with ``log_path`` and wait until Gradio answers
    and, since the workers load after the UI is served, until one question is answered."""
    cmd = [sys.executable, str(ROOT / "app.py"), "--host", "127.0.0.1", "--port", str(port),
           "--log-path", str(log_path), *app_args]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_ready(f"http://127.0.0.1:{port}", ready_timeout_s, proc)
        first = ChatClient(f"http://127.0.0.1:{port}", timeout_s=ready_timeout_s)
        first.ask(*FALLBACK_QUESTIONS[0])
        first.close()
    except SystemExit:
        proc.kill()
        raise
    return proc


def wait_ready(url: str, timeout_s: float, proc: subprocess.Popen | None = None) -> None:
    """Block until the Gradio app at ``url`` answers ``/gradio_api/info``."""
    try:
        up = wait_until_up(f"{url}/gradio_api/info", timeout_s, proc, every_s=1)
    except LoadError as exc:
        raise SystemExit(f"app.py: {exc}") from exc
    if not up:
        raise SystemExit(f"{url} did not come up within {timeout_s:g}s")


def _killer(proc: subprocess.Popen | None, after: int):
    acked = [0]
    lock = threading.Lock()

    def on_result(result: TurnResult) -> None:
        with lock:
            acked[0] += result.ok
            fire = proc is not None and result.ok and acked[0] == after
        if fire:
            os.kill(proc.pid, signal.SIGKILL)
            print(f"killed the app (kill -9) after {after} acknowledged turns", file=sys.stderr)

    return on_result


def main(argv: list[str] | None = None) -> int:
    """Run the load and print the figures as JSON; exit 1 when a turn is missing from the log."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="load an already running app instead of starting one")
    parser.add_argument("--log-path", type=Path, help="the app's session log (to check acknowledged turns)")
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--questions", type=int, default=10, help="questions per session")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--timeout", type=float, default=120.0, help="per-question client timeout (s)")
    parser.add_argument("--ready-timeout", type=float, default=600.0, help="wait for a started app (s)")
    parser.add_argument("--bench-dir", type=Path, default=DEFAULT_BENCH_DIR)
    parser.add_argument("--think-s", type=think_range, metavar="LO:HI",
                        help="after the zero-think run, a second run with uniform LO..HI s think time")
    parser.add_argument("--kill-after", type=int, metavar="N",
                        help="kill -9 the started app after N acknowledged turns (durability check)")
    parser.add_argument("app_args", nargs=argparse.REMAINDER, help="flags for app.py after --")
    args = parser.parse_args(argv)

    pool = bench_questions(args.bench_dir) if args.bench_dir.is_dir() else []
    pool = pool or FALLBACK_QUESTIONS
    script = make_script(pool, args.sessions, args.questions, args.seed)
    proc = None
    startup_s: float | None = None
    if args.url:
        url, log_path = args.url.rstrip("/"), args.log_path
        wait_ready(url, args.ready_timeout)
    else:
        log_path = args.log_path or Path(tempfile.mkdtemp(prefix="kgqa-load-")) / "sessions.sqlite"
        port = free_port()
        app_args = [a for a in args.app_args if a != "--"]
        started = time.perf_counter()
        proc = launch_app(port, log_path, app_args, args.ready_timeout)
        startup_s = time.perf_counter() - started
        print(f"app up on port {port} after {startup_s:.1f}s", file=sys.stderr)
        url = f"http://127.0.0.1:{port}"
    if args.kill_after and proc is None:
        parser.error("--kill-after needs an app started by this script (no --url)")
    runs: list[tuple[str, tuple[float, float] | None]] = [("zero_think", None)]
    if args.think_s:
        runs.append((f"think_{args.think_s[0]:g}-{args.think_s[1]:g}s", args.think_s))
    summary: dict[str, object] = {"sessions": args.sessions, "questions_per_session": args.questions,
                                  "cpus": os.cpu_count()}
    if startup_s is not None:
        summary["app_startup_s"] = round(startup_s, 1)
    missing_any = False
    try:
        for i, (name, think) in enumerate(runs):
            last = i == len(runs) - 1
            on_result = _killer(proc, args.kill_after) if args.kill_after and last else None
            # each run draws its own questions (a repeated question could hit the backend's caches)
            run_script = script if i == 0 else make_script(pool, args.sessions, args.questions, args.seed + i)
            before = box_load()
            cpu0 = [_cpu_seconds(proc.pid, tree=t) for t in (True, False)] if proc is not None else None
            client0 = time.process_time()
            report = run_load(url, run_script, timeout_s=args.timeout, on_result=on_result, think_s=think,
                              seed=args.seed)
            client_cpu = time.process_time() - client0
            cpu1 = [_cpu_seconds(proc.pid, tree=t) for t in (True, False)] if proc is not None else None
            figures = report.summary()
            if cpu0 and cpu1 and None not in cpu0 + cpu1 and report.wall_s:
                # mean cores the app used: all its processes (unknown once some of them are gone,
                # e.g. after --kill-after), and its main (UI) process alone
                if cpu1[0] >= cpu0[0] and not (args.kill_after and last):
                    figures["app_cpu_cores"] = round((cpu1[0] - cpu0[0]) / report.wall_s, 2)
                figures["app_main_process_cpu_cores"] = round((cpu1[1] - cpu0[1]) / report.wall_s, 2)
            if report.wall_s:
                figures["load_client_cpu_cores"] = round(client_cpu / report.wall_s, 2)  # this script's share
            figures["box_before"], figures["box_after"] = before, box_load()
            missing = None
            if log_path is not None and log_path.exists():
                missing = len(missing_turns(report, log_path))
                missing_any = missing_any or bool(missing)
            figures["acknowledged_missing_from_log"] = missing
            if args.kill_after and last:
                figures["killed_after_acknowledged"] = args.kill_after
            if report.errors:
                figures["first_errors"] = sorted({r.error or "" for r in report.errors})[:3]
            summary[name] = figures
            print(f"{name}: {json.dumps(figures, ensure_ascii=False)}", file=sys.stderr)
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=30)
    print(json.dumps(summary, indent=1, ensure_ascii=False))
    return 1 if missing_any else 0


if __name__ == "__main__":
    sys.exit(main())
