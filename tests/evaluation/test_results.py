"""``docs/results.yaml``, the results page's headline rows as data: every row has a command
and checkable figures, and the cheap rows, rerun, print the figures the page gives."""

from __future__ import annotations

import glob
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "docs" / "results.yaml"
COSTS = ("cheap", "minutes", "hours")
FIELDS = {"id", "what", "page", "measured", "cost", "command", "expected"}


def rows() -> list[dict[str, Any]]:
    return yaml.safe_load(RESULTS.read_text(encoding="utf-8"))["rows"]


def argv(command: str, out: Path) -> list[str]:
    """The row's command as this checkout runs it: ``kgqa`` is this tree's ``cli.main`` and
    ``.venv/bin/python`` this interpreter; globs are expanded as a shell would."""
    words = shlex.split(command.replace("{out}", str(out)))
    head = [sys.executable, "-m", "cli.main"] if words[0] == "kgqa" else [sys.executable]
    rest: list[str] = []
    for word in words[1:]:
        rest.extend(sorted(glob.glob(word)) if any(c in word for c in "*?[") else [word])
    return head + rest


def figure(expect: dict[str, Any], stdout: str, out: Path) -> float:
    """The figure an expectation names, from the output or a file the command wrote."""
    if "pattern" in expect:
        found = re.search(expect["pattern"], stdout)
        assert found, f"{expect['pattern']!r} not in the output"
        return float(found.group(1))
    value: Any = json.loads((out / expect["file"]).read_text(encoding="utf-8"))
    for key in expect["key"].split("."):
        value = value[key]
    return float(value)


def test_every_row_names_a_command_and_checkable_figures() -> None:
    seen = set()
    for row in rows():
        assert set(row) == FIELDS, row.get("id")
        assert row["id"] not in seen
        seen.add(row["id"])
        assert row["cost"] in COSTS and (ROOT / "docs" / row["page"]).is_file()
        assert row["command"].split()[0] in ("kgqa", ".venv/bin/python")
        assert row["expected"]
        for expect in row["expected"]:
            assert ("value" in expect) != ("at_most" in expect), expect
            if "pattern" in expect:
                assert re.compile(expect["pattern"]).groups >= 1, expect
            else:
                assert {"file", "key"} <= set(expect) and "{out}" in row["command"], expect
    assert any(row["cost"] == "cheap" for row in rows())
    assert "results.yaml" in (ROOT / "docs" / "results.md").read_text(encoding="utf-8")


@pytest.mark.slow
@pytest.mark.parametrize("row", [r for r in rows() if r["cost"] == "cheap"], ids=lambda r: r["id"])
def test_a_cheap_row_prints_its_figures(row: dict[str, Any], tmp_path: Path) -> None:
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(argv(row["command"], out), cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    for expect in row["expected"]:
        got = figure(expect, done.stdout, out)
        if "at_most" in expect:
            assert got <= expect["at_most"], (row["id"], expect)
        else:
            assert got == pytest.approx(expect["value"], abs=expect.get("tolerance", 0)), (row["id"], expect)
