"""Start-up time and memory of the chat app, ``kgqa serve`` and ``kgqa ask``.

Prints, each with the box's load average (the machine may be shared):

* ``phases``: where a cold start spends its time, for each of ``app.py``, ``kgqa serve``
  and ``kgqa ask``: a fresh interpreter replays the command's loading steps one by one
  and times each: ``imports`` (the command's modules; the app's include gradio and its
  UI), ``kg_open`` (the embedded store), ``label_index`` (the backend over the label
  index), ``encoder`` (the validator's network), ``language_id`` (the first detection,
  Latin and Cyrillic), ``first_question`` (the rest of the pipeline and one answer);
  median of ``--repeat`` runs.
* ``app``: ``python app.py`` (real model and KG, 2 workers) from process start to the
  first page served (``ui_served_s``), to the first answer on it (``first_answer_s``: the
  page that answers while the chat loads), to the full chat open (``chat_open_s``) and to
  its first answer (``chat_first_answer_s``, Gradio's ``/ask``); then RSS and PSS
  (``/proc/PID/smaps_rollup``) of every process of the app, and their sum, after
  ``--questions`` questions (targets: first answer <= 3 s, PSS sum <= 1.0 GB).
* ``serve``: ``kgqa serve`` from process start to its first answer (through ``kgqa ask``).
* ``ask_cold``: ``kgqa ask`` with no server running: wall time and peak RSS of the
  process (target <= 2 s), median of ``--repeat`` runs.
* ``ask_served``: ``kgqa ask`` while ``kgqa serve`` runs (target <= 0.5 s).

    .venv/bin/python benchmarks/startup.py [--root DIR] [--questions 20] [--repeat 3] [--only phases,app,...]

``--root`` runs another checkout's code (e.g. an exported older commit) with this script,
so before/after figures come from the same measurement.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


from core.settings import DEFAULT_KG_SOURCE  # noqa: E402
from service.loadgen import ChatClient, LoadError, free_port, wait_until_up  # noqa: E402

QUESTIONS = [
    ("Where was Albert Einstein born?", "auto"), ("Wo wurde Albert Einstein geboren?", "auto"),
    ("What is the capital of Germany?", "auto"), ("Какая столица у России?", "auto"),
    ("法国的首都是哪里？", "auto"), ("¿Dónde nació Pablo Picasso?", "auto"), ("Who wrote Faust?", "auto"),
    ("Quelle est la capitale de l'Italie ?", "auto"), ("Хто написав Кобзар?", "auto"),
    ("日本の首都はどこですか？", "auto"), ("Chi ha scritto la Divina Commedia?", "auto"),
    ("Qual é a capital do Brasil?", "auto"), ("How many children did Johann Sebastian Bach have?", "auto"),
    ("Who directed Pulp Fiction?", "auto"), ("Is Berlin the capital of Germany?", "auto"),
    ("Which river is the longest in Europe?", "auto"), ("When was Angela Merkel born?", "auto"),
    ("Wer hat die Relativitätstheorie entwickelt?", "auto"), ("Где родился Лев Толстой?", "auto"),
    ("What is the population of Paris?", "auto"),
]


def load_average() -> str:
    """The 1-minute load average and the core count, as ``load 1.23/2``."""
    return f"load {os.getloadavg()[0]:.2f}/{os.cpu_count()}"


def descendants(pid: int) -> list[int]:
    """``pid`` and every process below it."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        current = todo.pop()
        out.append(current)
        todo.extend(children.get(current, []))
    return out


def memory(pid: int) -> dict[str, float] | None:
    """RSS and PSS in MB from ``/proc/PID/smaps_rollup``."""
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return None
    values = {line.split(":")[0]: int(line.split()[1]) for line in text.splitlines()[1:] if line.split()}
    return {"rss_mb": round(values.get("Rss", 0) / 1024, 1), "pss_mb": round(values.get("Pss", 0) / 1024, 1)}


def _name(pid: int) -> str:
    try:
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        comm = Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return "?"
    return comm if comm not in ("python", "python3") else cmd[-60:]


def bench_app(root: Path, env: dict[str, str], questions: int) -> dict[str, object]:
    """Start the app; time the first page served, the first answer a person gets on it, the
    full chat open and its first answer; ask ``questions``; measure memory.

    The first page is the one that answers while the chat loads (``chat.starting``: its
    answers come from ``/start/ask``); a checkout without it serves the chat at once, and
    its first answer comes from the chat."""
    port = free_port()
    log = Path(tempfile.mkdtemp()) / "sessions.sqlite"
    started = time.monotonic()
    app = subprocess.Popen([sys.executable, "app.py", "--port", str(port), "--log-path", str(log)], cwd=root,
                           env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    out: dict[str, object] = {}
    try:
        wait_until_up(url + "/", 300, app, every_s=0.05, request_timeout_s=1)
        out["ui_served_s"] = round(time.monotonic() - started, 2)
        out["ui_load"] = load_average()
        if httpx.get(url + "/start/status", timeout=10).status_code == 200:  # the page that answers at once
            reply = httpx.post(url + "/start/ask", json={"question": QUESTIONS[0][0], "lang": "auto"}, timeout=300)
            reply.raise_for_status()
            out["first_answer_s"] = round(time.monotonic() - started, 2)
            out["first_answer_load"] = load_average()
            wait_until_up(url + "/config", 300, app, every_s=0.05, request_timeout_s=1)
            out["chat_open_s"] = round(time.monotonic() - started, 2)
        client = ChatClient(url, timeout_s=300)
        client.ask(*QUESTIONS[1])
        out["chat_first_answer_s"] = round(time.monotonic() - started, 2)
        out.setdefault("first_answer_s", out["chat_first_answer_s"])
        for i in range(2, questions + 1):
            try:
                client.ask(*QUESTIONS[i % len(QUESTIONS)])
            except LoadError as exc:
                out.setdefault("errors", []).append(str(exc))
        client.close()
        processes = {}
        for pid in descendants(app.pid):
            mem = memory(pid)
            if mem is not None:
                processes[f"{pid} {_name(pid)}"] = mem
        out["processes"] = processes
        out["rss_sum_mb"] = round(sum(m["rss_mb"] for m in processes.values()), 1)
        out["pss_sum_mb"] = round(sum(m["pss_mb"] for m in processes.values()), 1)
        out["memory_load"] = load_average()
    finally:
        os.killpg(app.pid, signal.SIGTERM)
        app.wait(timeout=30)
    return out


def _timed_ask(root: Path, env: dict[str, str], extra: list[str]) -> tuple[float, float, float, int]:
    """Wall seconds, CPU seconds (user + system: what a busy box does not inflate) and peak
    RSS (MB) of one ``kgqa ask``, and its exit status."""
    started = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "cli.main", "ask", "Where was Albert Einstein born?", *extra],
                            cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return (time.monotonic() - started, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024,
            proc.returncode)


def bench_ask(root: Path, env: dict[str, str], repeat: int, extra: list[str]) -> dict[str, object]:
    """Median wall time, CPU time and peak RSS of ``repeat`` runs of ``kgqa ask``."""
    runs = []
    for _ in range(repeat):
        wall, cpu, rss, status = _timed_ask(root, env, extra)
        runs.append({"wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "max_rss_mb": round(rss), "exit": status,
                     "load": load_average()})
    return {"median_wall_s": statistics.median(r["wall_s"] for r in runs),
            "median_cpu_s": statistics.median(r["cpu_s"] for r in runs),
            "median_max_rss_mb": statistics.median(r["max_rss_mb"] for r in runs), "runs": runs}


def bench_ask_served(root: Path, env: dict[str, str], repeat: int) -> dict[str, object]:
    """``kgqa ask`` while ``kgqa serve`` runs on a free port; and the serve's start-up: from
    its process start to its first answer."""
    port = free_port()
    served_env = {**env, "KGQA_SERVE_PORT": str(port)}
    started = time.monotonic()
    serve = subprocess.Popen([sys.executable, "-m", "cli.main", "serve", "--port", str(port)], cwd=root,
                             env=served_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
    try:
        wait_until_up(f"http://127.0.0.1:{port}/health", 300, serve, every_s=0.05)
        up = time.monotonic() - started
        _timed_ask(root, served_env, [])  # the server's first question
        first = time.monotonic() - started
        return {"serve_up_s": round(up, 2), "serve_first_answer_s": round(first, 2), "load": load_average(),
                **bench_ask(root, served_env, repeat, [])}
    finally:
        os.killpg(serve.pid, signal.SIGTERM)
        serve.wait(timeout=30)


def bench_phases(root: Path, env: dict[str, str], repeat: int) -> dict[str, object]:
    """Median seconds of each phase of each command over ``repeat`` fresh interpreters."""
    out: dict[str, object] = {}
    for command in ("app", "serve", "ask"):
        runs = []
        for _ in range(repeat):
            done = subprocess.run([sys.executable, str(Path(__file__).resolve().parent / "startup_phases.py"), command],
                                  cwd=root, env=env, capture_output=True, text=True, timeout=600)
            if done.returncode != 0:
                raise RuntimeError(f"phases of {command} failed: {done.stderr.strip()[-2000:]}")
            runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
        out[command] = {name: statistics.median(r[name] for r in runs) for name in runs[0]}
        out[command]["load"] = load_average()
    return out


RUNTIME_CODE = ("app.py", "backends", "chat", "cli", "core", "kg", "lang", "qa", "service", "validator")


def byte_compile(root: Path, env: dict[str, str]) -> None:
    """Write the measured checkout's byte-code first, as a user's second start finds it (with
    ``PYTHONDONTWRITEBYTECODE`` set, every cold start would compile the sources again)."""
    targets = [str(root / name) for name in RUNTIME_CODE if (root / name).exists()]
    subprocess.run([sys.executable, "-m", "compileall", "-q", *targets], cwd=root, env=env,
                   stdout=subprocess.DEVNULL, check=False, timeout=600)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", type=Path, default=ROOT, help="checkout whose code is measured")
    parser.add_argument("--questions", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", default="phases,app,ask_cold,ask_served")
    args = parser.parse_args()
    env = {**os.environ, "GRADIO_ANALYTICS_ENABLED": "False", "PYTHONPATH": str(args.root)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # measured with byte-code cached (byte_compile)
    env.setdefault("KGQA_CACHE_DIR", str(ROOT / ".cache"))
    env.setdefault("KGQA_KG_SOURCE", str(DEFAULT_KG_SOURCE))  # relative to this checkout, not --root
    byte_compile(args.root, env)
    results: dict[str, object] = {"root": str(args.root), "start": load_average()}
    wanted = args.only.split(",")
    if "phases" in wanted:
        results["phases"] = bench_phases(args.root, env, args.repeat)
        for command, phases in results["phases"].items():
            print(json.dumps({f"phases_{command}": phases}), flush=True)
    if "app" in wanted:
        results["app"] = bench_app(args.root, env, args.questions)
        print(json.dumps({"app": results["app"]}, ensure_ascii=False), flush=True)
    if "ask_cold" in wanted:  # a port nothing listens on: no kgqa serve to use
        results["ask_cold"] = bench_ask(args.root, {**env, "KGQA_SERVE_PORT": str(free_port())}, args.repeat, [])
        print(json.dumps({"ask_cold": results["ask_cold"]}), flush=True)
    if "ask_served" in wanted or "serve" in wanted:
        results["ask_served"] = bench_ask_served(args.root, env, args.repeat)
        print(json.dumps({"serve_and_ask_served": results["ask_served"]}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
