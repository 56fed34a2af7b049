"""The SQLite session log: durability, privacy, contents, feedback, ATS, exports, ``kgqa log``."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import sqlite3
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from backends.fake import FakeBackend
from cli.main import main as kgqa
from core.errors import SessionLogError
from qa.candidate import Candidate
from qa.guard import check_query
from qa.pipeline import Pipeline
from service.session_log import SessionLog, export_csv, export_qald_json, new_session_id

BIRTHPLACE = "SELECT ?x WHERE { wd:Q937 wdt:P19 ?x }"
SCRIPT = {
    "Where was Albert Einstein born?": [Candidate(BIRTHPLACE, 0.9),
                                        Candidate("SELECT ?x WHERE { wd:Q937 wdt:P27 ?x }", 0.3)],
    "Ist Berlin eine Stadt?": [Candidate("ASK { wd:Q64 wdt:P31 wd:Q515 }", 0.8)],
}


@pytest.fixture
def pipeline(tiny_kg_client) -> Pipeline:
    return Pipeline(FakeBackend(SCRIPT), tiny_kg_client)


@pytest.fixture
def log_path(tmp_path: Path) -> Path:
    return tmp_path / "logs" / "sessions.sqlite"


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_file_is_private_and_in_wal_mode(log_path: Path, pipeline: Pipeline) -> None:
    with SessionLog(log_path) as log:
        log.log_turn(pipeline.answer("Where was Albert Einstein born?"), session_id=new_session_id())
        wal = log_path.with_name(log_path.name + "-wal")
        assert wal.exists()
        assert _mode(log_path) == 0o600 and _mode(wal) == 0o600
        assert _mode(log_path.parent) == 0o700
    with sqlite3.connect(log_path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_existing_world_readable_file_is_tightened(log_path: Path) -> None:
    log_path.parent.mkdir(parents=True)
    log_path.touch(mode=0o644)
    os.chmod(log_path, 0o644)
    SessionLog(log_path).close()
    assert _mode(log_path) == 0o600


def test_one_row_per_turn_with_everything_the_issue_lists(log_path: Path, pipeline: Pipeline) -> None:
    session = new_session_id()
    with SessionLog(log_path) as log:
        turn = pipeline.answer("Where was Albert Einstein born?", None)
        turn_id = log.log_turn(turn, session_id=session, selected_lang=None, threshold=0.5,
                               extra_timings_ms={"render": 1.5})
        row = log.get_turn(turn_id)
    assert row is not None
    assert row["session_id"] == session and len(session) == 32
    assert row["created_at"].endswith("+00:00")
    assert row["question"] == "Where was Albert Einstein born?"
    assert (row["detected_lang"], row["used_lang"], row["selected_lang"]) == ("en", "en", None)
    assert row["backend"] == "fake"
    assert [c["backend_score"] for c in row["candidates"]] == [0.9, 0.3]
    assert row["chosen_sparql"] == check_query(BIRTHPLACE) and row["chosen_rank"] == 1  # what ran
    assert [a["id"] for a in row["answers"]] == ["Q3012"]
    assert row["abstained"] is False and row["status"] == "ok"
    assert set(row["latency_ms"]) == {"detect", "context", "read", "generate", "execute", "label", "name", "total",
                                      "render"}
    assert row["feedback"] is None and row["client_ip"] is None


def test_abstention_and_selected_language_are_recorded(log_path: Path, pipeline: Pipeline) -> None:
    with SessionLog(log_path) as log:
        turn_id = log.log_turn(pipeline.answer("Wer ist das?", "ru"), session_id="s", selected_lang="ru")
        row = log.get_turn(turn_id)
    assert row["abstained"] is True and row["status"] == "no_candidates"
    assert (row["detected_lang"], row["used_lang"], row["selected_lang"]) == ("de", "ru", "ru")
    assert row["answers"] == [] and row["chosen_sparql"] is None


def test_ip_addresses_only_when_asked(log_path: Path, pipeline: Pipeline) -> None:
    turn = pipeline.answer("Where was Albert Einstein born?")
    with SessionLog(log_path) as log:
        no_ip = log.log_turn(turn, session_id="s", client_ip="203.0.113.7")
        assert log.get_turn(no_ip)["client_ip"] is None
    with SessionLog(log_path, store_ips=True) as log:
        with_ip = log.log_turn(turn, session_id="s", client_ip="203.0.113.7")
        assert log.get_turn(with_ip)["client_ip"] == "203.0.113.7"


def test_row_is_visible_to_another_connection_as_soon_as_log_turn_returns(log_path: Path, pipeline: Pipeline) -> None:
    log = SessionLog(log_path)
    turn_id = log.log_turn(pipeline.answer("Where was Albert Einstein born?"), session_id="s")
    with sqlite3.connect(log_path) as other:
        assert other.execute("SELECT COUNT(*) FROM turns WHERE turn_id = ?", (turn_id,)).fetchone()[0] == 1
    log.close()


def test_readers_in_other_processes_never_lose_later_rows(log_path: Path, pipeline: Pipeline) -> None:
    """Regression: a reader closing its connection must not checkpoint+delete the WAL under the writer
    (which happened when the log re-opened its own file and so dropped its POSIX locks)."""
    reader = ("import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
              "print(c.execute('SELECT COUNT(*) FROM turns').fetchone()[0]); c.close()")
    turn = pipeline.answer("Where was Albert Einstein born?")
    with SessionLog(log_path) as log, SessionLog(log_path) as second_in_process:
        counts = []
        for writer in (log, second_in_process, log):
            writer.log_turn(turn, session_id="s")
            out = subprocess.run([sys.executable, "-c", reader, str(log_path)], capture_output=True, text=True,
                                 timeout=60, check=True)
            counts.append(int(out.stdout))
        assert counts == [1, 2, 3]
        assert log_path.with_name(log_path.name + "-wal").exists()


def test_rows_survive_kill_9_right_after_log_turn(log_path: Path) -> None:
    """A process killed with SIGKILL after log_turn returned keeps the row (no close, no checkpoint)."""
    code = textwrap.dedent(f"""
        import os, signal, sys
        from qa.pipeline import Turn
        from service.session_log import SessionLog
        log = SessionLog({str(log_path)!r})
        for i in range(3):
            tid = log.log_turn(Turn(question=f"q{{i}}", lang="en", detected_lang="en"), session_id="killed")
            print(tid, flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          cwd=Path(__file__).resolve().parents[2])
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    acknowledged = proc.stdout.split()
    assert len(acknowledged) == 3
    with SessionLog(log_path) as log:
        assert [t["turn_id"] for t in log.turns("killed")] == acknowledged


def test_feedback_is_stored_per_click_and_scoped_to_the_session(log_path: Path, pipeline: Pipeline) -> None:
    with SessionLog(log_path) as log:
        turn_id = log.log_turn(pipeline.answer("Where was Albert Einstein born?"), session_id="mine")
        assert log.record_feedback(turn_id, 1, session_id="mine")
        assert not log.record_feedback(turn_id, -1, session_id="someone-else")
        assert log.record_feedback(turn_id, -1)
        assert not log.record_feedback("0" * 24, 1)
        assert log.get_turn(turn_id)["feedback"] == -1
        assert [e["value"] for e in log.feedback_events(turn_id)] == [1, -1]
        with pytest.raises(ValueError):
            log.record_feedback(turn_id, 5)


def test_ats_counts_like_dislike_and_abstain(log_path: Path, pipeline: Pipeline) -> None:
    with SessionLog(log_path) as log:
        liked = [log.log_turn(pipeline.answer("Where was Albert Einstein born?"), session_id="a") for _ in range(3)]
        disliked = log.log_turn(pipeline.answer("Ist Berlin eine Stadt?"), session_id="a")
        log.log_turn(pipeline.answer("Unknown question here"), session_id="a")  # abstain
        log.log_turn(pipeline.answer("Where was Albert Einstein born?"), session_id="a")  # unrated
        log.log_turn(pipeline.answer(""), session_id="a")  # bad input
        for turn_id in liked:
            log.record_feedback(turn_id, 1)
        log.record_feedback(disliked, -1)
        report = log.ats()
    assert (report.turns, report.likes, report.dislikes, report.abstains) == (7, 3, 1, 1)
    assert (report.unjudged_answers, report.other, report.judged) == (1, 1, 5)
    assert report.ats == pytest.approx((3 - 1) / 5)


def test_exports_qald_json_and_csv(log_path: Path, pipeline: Pipeline) -> None:
    with SessionLog(log_path) as log:
        answered = log.log_turn(pipeline.answer("Where was Albert Einstein born?"), session_id="s")
        log.log_turn(pipeline.answer("Ist Berlin eine Stadt?"), session_id="s")
        log.log_turn(pipeline.answer("Кто это?"), session_id="s")
        log.record_feedback(answered, 1)
        buf = io.StringIO()
        assert export_qald_json(log, buf) == 3
        data = json.loads(buf.getvalue())
        out = io.StringIO()
        assert export_csv(log, out) == 3
    first, boolean, abstain = data["questions"]
    assert first["id"] == answered and first["feedback"] == 1
    assert first["answers"][0]["results"]["bindings"] == [
        {"answer": {"type": "uri", "value": "http://www.wikidata.org/entity/Q3012"}}]
    assert boolean["answers"] == [{"head": {}, "boolean": True}]
    assert abstain["abstained"] is True and abstain["answers"][0]["results"]["bindings"] == []
    assert abstain["question"] == [{"language": "ru", "string": "Кто это?"}]
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert [r["answers"] for r in rows] == ["Q3012", "true", ""]
    assert rows[0]["feedback"] == "1" and rows[2]["abstained"] == "1"


def test_unwritable_location_raises_session_log_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(SessionLogError):
        SessionLog(blocker / "sessions.sqlite")


# ---------------------------------------------------------------- kgqa log


def test_cli_export_and_ats(log_path: Path, pipeline: Pipeline, capsys, tmp_path: Path) -> None:
    with SessionLog(log_path) as log:
        liked = log.log_turn(pipeline.answer("Where was Albert Einstein born?"), session_id="s")
        log.log_turn(pipeline.answer("nothing to see"), session_id="s")
        log.record_feedback(liked, 1)
    assert kgqa(["log", "ats", "--log-path", str(log_path)]) == 0
    text = capsys.readouterr().out
    assert "ATS: +0.500" in text and "likes (+1): 1" in text and "abstains (0): 1" in text
    assert kgqa(["log", "ats", "--json", "--log-path", str(log_path)]) == 0
    assert json.loads(capsys.readouterr().out)["ats"] == 0.5
    assert kgqa(["log", "export", "--format", "qald-json", "--log-path", str(log_path)]) == 0
    assert len(json.loads(capsys.readouterr().out)["questions"]) == 2
    target = tmp_path / "out.csv"
    assert kgqa(["log", "export", "--format", "csv", "-o", str(target), "--log-path", str(log_path)]) == 0
    assert len(list(csv.DictReader(target.open(encoding="utf-8")))) == 2


def test_cli_without_a_log_exits_2(tmp_path: Path, capsys) -> None:
    assert kgqa(["log", "ats", "--log-path", str(tmp_path / "missing.sqlite")]) == 2
    assert "no session log yet" in capsys.readouterr().err


def test_the_candidates_the_allow_list_refused_are_logged(log_path: Path, tiny_kg_client) -> None:
    hostile = "SELECT ?x WHERE { SERVICE <http://127.0.0.1:9/sparql> { ?x ?p ?o } }"
    script = {"Where was Albert Einstein born?": [Candidate(hostile, 0.99), Candidate(BIRTHPLACE, 0.9)]}
    turn = Pipeline(FakeBackend(script), tiny_kg_client).answer("Where was Albert Einstein born?")
    assert [r["reason"] for r in turn.rejected] == ["service"]
    with SessionLog(log_path) as log:
        log.log_turn(turn, session_id="s1")
        [row] = list(log.turns("s1"))
        assert row["rejected"] == turn.rejected and row["answers"]
        out = io.StringIO()
        export_csv(log, out)
    [exported] = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert exported["n_rejected"] == "1"


def test_a_log_of_the_first_schema_is_migrated_and_keeps_its_turns(log_path: Path, pipeline: Pipeline) -> None:
    with SessionLog(log_path) as log:
        log.log_turn(pipeline.answer("Where was Albert Einstein born?"), session_id="old")
    with sqlite3.connect(log_path) as db:  # the version-1 table had no rejected column
        db.execute("ALTER TABLE turns DROP COLUMN rejected")
        db.execute("ALTER TABLE turns DROP COLUMN context")
        db.execute("PRAGMA user_version=1")
    with SessionLog(log_path) as log:
        [old] = list(log.turns("old"))
        assert old["rejected"] == [] and old["context"] is None and old["question"] == "Where was Albert Einstein born?"
        log.log_turn(pipeline.answer("Ist Berlin eine Stadt?"), session_id="new")
        assert [t["question"] for t in log.turns("new")] == ["Ist Berlin eine Stadt?"]
    with sqlite3.connect(log_path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 3


def test_a_follow_ups_context_is_logged(log_path: Path, pipeline: Pipeline) -> None:
    from qa.context import Context

    turn = pipeline.answer("Where was Albert Einstein born?", context=Context(subject="Q937", answers=("Q3012",)))
    with SessionLog(log_path) as log:
        [row] = [log.get_turn(log.log_turn(turn, session_id="s"))]
    assert row is not None and row["context"] == turn.context and row["context"]["given"]["subject"] == "Q937"
