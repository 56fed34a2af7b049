"""The ``kgqa`` command line itself: a usage error is one line and exit status 2, ``kgqa
ask --json`` prints the turn's JSON contract, and every training job is a sub-command of
``kgqa train`` that hands its words to the job's own flags."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli.main import build_parser, main
from cli.train import JOBS


@pytest.mark.parametrize("argv", [
    [],  # no sub-command
    ["no-such-command"],
    ["ask"],  # no question
    ["ask", "Where?", "--backend", "nope"],
    ["train", "--only", "nope"],
    ["evaluate", "--split", "nope"],
])
def test_a_usage_error_is_one_line_and_exit_2(argv: list[str], capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("kgqa") and "error:" in err


def test_ask_json_answers_on_the_tiny_kg(tiny_nt: Path, tmp_path: Path, capsys) -> None:
    argv = ["ask", "Wo wurde Albert Einstein geboren?", "--json", "--local", "--no-log", "--no-validator",
            "--kg-source", str(tiny_nt), "--cache-dir", str(tmp_path / "cache")]
    assert main(argv) == 0
    turn = json.loads(capsys.readouterr().out)
    assert turn["lang"] == "de" and turn["answered"]
    assert [a["id"] for a in turn["answers"]] == ["Q3012"]
    assert "P19" in turn["sparql"]  # place of birth


def test_every_training_job_is_a_sub_command_of_train() -> None:
    parser = build_parser(("cli.train",))
    for job in JOBS:
        args = parser.parse_args(["train", job, "--anything", "x", "--help"])
        assert args.job == job and args.argv == ["--anything", "x", "--help"]  # the job's own parser reads them
    args = parser.parse_args(["train", "--only", "records", "gate"])
    assert args.job is None and list(args.only) == ["records", "gate"]  # the recipe's steps, not a job


def test_a_job_reads_its_own_flags(capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["train", "probability", "--help"])
    assert stop.value.code == 0
    assert "kgqa train probability" in capsys.readouterr().out
    with pytest.raises(SystemExit) as stop:
        main(["train", "ranker", "--no-such-flag"])
    assert stop.value.code == 2
    assert "kgqa train ranker" in capsys.readouterr().err


def test_a_job_without_its_records_says_how_to_make_them(tmp_path: Path, capsys) -> None:
    assert main(["train", "probability", "--records", str(tmp_path / "none.jsonl")]) == 1
    assert "kgqa train probability collect" in capsys.readouterr().err
