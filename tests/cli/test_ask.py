"""``kgqa ask`` records its turn in the session log (``--no-log`` skips it)."""

from __future__ import annotations

import json
from pathlib import Path

from cli.main import main
from service.session_log import SessionLog


def _ask(tiny_nt: Path, tmp_path: Path, *extra: str) -> list[str]:
    return ["ask", "Where was Albert Einstein born?", "--kg-source", str(tiny_nt), "--cache-dir",
            str(tmp_path / "cache"), "--no-validator", "--log-path", str(tmp_path / "log.sqlite"), *extra]


def test_ask_logs_the_turn_it_prints_and_no_log_skips_it(tiny_nt: Path, tmp_path: Path, capsys) -> None:
    assert main(_ask(tiny_nt, tmp_path, "--json")) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["answered"] and [a["id"] for a in printed["answers"]] == ["Q3012"]
    with SessionLog(tmp_path / "log.sqlite") as log:
        (row,) = list(log.turns())
    assert row["source"] == "cli" and row["question"] == printed["question"]
    assert row["chosen_sparql"] == printed["sparql"] and row["threshold"] is None  # validator off
    assert "render" in row["latency_ms"]

    assert main(_ask(tiny_nt, tmp_path, "--no-log")) == 0
    assert "Ulm" in capsys.readouterr().out
    with SessionLog(tmp_path / "log.sqlite") as log:
        assert log.count() == 1


def test_ask_withholds_the_answer_when_the_log_cannot_be_opened(tiny_nt: Path, tmp_path: Path, capsys) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    args = _ask(tiny_nt, tmp_path)
    args[args.index("--log-path") + 1] = str(blocker / "log.sqlite")
    assert main(args) == 4
    out = capsys.readouterr()
    assert "Ulm" not in out.out and "--no-log" in out.err


def test_asking_a_running_server_loads_no_pipeline() -> None:
    """What ``kgqa ask`` imports before it knows whether a ``kgqa serve`` answers: no
    pipeline, KG client, SPARQL parser or model (the pipeline is imported only when the
    question is answered here, by ``cli.ask_here``)."""
    import subprocess
    import sys

    heavy = ("qa.pipeline", "kg.client", "rdflib", "httpx", "torch", "lingua", "gradio", "cli.ask_here")
    probe = f"import sys, cli.main, cli.ask; print([m for m in {heavy!r} if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.strip() == "[]"


def test_answering_over_the_embedded_store_loads_no_http_client(tiny_nt: Path, tmp_path: Path) -> None:
    """A cold ``kgqa ask`` over the embedded store (the default) sends no HTTP request, so it
    never imports httpx (nor rich and click, which httpx pulls in): only the clients that
    speak HTTP (:mod:`core.http`) load it, when one is configured."""
    import subprocess
    import sys

    args = _ask(tiny_nt, tmp_path, "--no-log", "--local")
    probe = ("import sys; from cli.main import main; status = main(sys.argv[1:]); "
             "print([m for m in ('httpx', 'httpcore', 'core.http', 'backends.qanswer') if m in sys.modules], status)")
    out = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2])
    assert "Ulm" in out.stdout and out.stdout.strip().endswith("[] 0")
