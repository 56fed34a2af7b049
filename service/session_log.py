"""The session log: one SQLite row per answered turn, plus feedback.

Guarantees (relied on by the chat and by ``kgqa serve``):

* **Nothing acknowledged is lost.**  :meth:`SessionLog.log_turn` commits (WAL mode,
  ``synchronous=FULL``) before it returns, and callers show the answer only after it
  returned.  A process killed with ``kill -9`` right after keeps every returned row.
* **Private by default.**  The database file (and the ``-wal``/``-shm`` files SQLite
  derives from it) is created with mode ``0600`` in a ``0700`` directory; client IP
  addresses are stored only when the log is opened with ``store_ips=True``.
* **Safe to share.**  One connection per :class:`SessionLog`, serialized by a lock, so
  the object can be used from the server's worker threads; several processes may open
  the same file (``busy_timeout``).

Row layout (table ``turns``): ``turn_id`` (random), ``session_id`` (random), ``created_at``
(UTC ISO-8601), ``source`` (``chat``/``api``/...), the question, the detected, selected
and used language, the backend, validator state and threshold, the candidates with their
scores (JSON), the chosen query and its rank, the confidence, the answers (JSON), the
status and whether the gate abstained, the latency of every stage (JSON, ms), and the
latest feedback (+1 like, -1 dislike).  Every feedback click is also kept in
``feedback_events``.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import secrets
import sqlite3
import threading
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from core.errors import SessionLogError
from qa.answer import new_turn_id
from qa.turn import ABSTAIN_STATUSES, Status, Turn

SCHEMA_VERSION = 3  # 2: turns.rejected (the candidates the SPARQL allow-list refused); 3: turns.context (issue 36)
ANSWER_STATUSES = frozenset({Status.OK}) | ABSTAIN_STATUSES
"""Statuses of answers and honest "I don't know"s (ATS counts them; abstentions as 0)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS turns (
    turn_id        TEXT PRIMARY KEY,
    session_id     TEXT NOT NULL,
    created_at     TEXT NOT NULL,
    source         TEXT NOT NULL DEFAULT 'chat',
    question       TEXT NOT NULL,
    detected_lang  TEXT,
    selected_lang  TEXT,
    used_lang      TEXT,
    backend        TEXT,
    validator      TEXT,
    threshold      REAL,
    status         TEXT NOT NULL,
    abstained      INTEGER NOT NULL,
    candidates     TEXT NOT NULL,
    chosen_sparql  TEXT,
    chosen_rank    INTEGER,
    confidence     REAL,
    answers        TEXT NOT NULL,
    boolean        INTEGER,
    total_answers  INTEGER,
    error          TEXT,
    latency_ms     TEXT NOT NULL,
    total_ms       REAL,
    feedback       INTEGER,
    feedback_at    TEXT,
    client_ip      TEXT,
    rejected       TEXT NOT NULL DEFAULT '[]',
    context        TEXT
);
CREATE INDEX IF NOT EXISTS turns_by_session ON turns(session_id, created_at);
CREATE TABLE IF NOT EXISTS feedback_events (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    turn_id     TEXT NOT NULL REFERENCES turns(turn_id),
    value       INTEGER,
    created_at  TEXT NOT NULL
);
"""

CSV_COLUMNS: tuple[str, ...] = (
    "turn_id", "session_id", "created_at", "source", "question", "detected_lang", "selected_lang", "used_lang",
    "backend", "validator", "threshold", "status", "abstained", "chosen_sparql", "chosen_rank", "confidence",
    "answers", "n_candidates", "total_ms", "latency_ms", "feedback", "n_rejected",
)


def new_session_id() -> str:
    """A random, unguessable session id (no personal data)."""
    return secrets.token_hex(16)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _create_private(path: Path) -> None:
    """Create ``path`` (and its directory) readable by the owner only.

    An existing file is never opened here: closing any descriptor of a file drops every
    POSIX lock this process holds on it, and a connection that lost its lock lets another
    process checkpoint and delete the WAL under it (losing acknowledged rows).
    """
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    if not path.exists():
        with contextlib.suppress(FileExistsError):  # created concurrently: leave it to SQLite
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o600))
    os.chmod(path, 0o600)


def _tighten_sidecars(path: Path) -> None:
    """``chmod 0600`` the ``-wal``/``-shm`` files (chmod only: never open them here)."""
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists():
            os.chmod(side, 0o600)


@dataclass(frozen=True)
class AtsReport:
    """ATS from user feedback: like = +1, dislike = -1, abstain = 0, per judged turn."""

    turns: int
    judged: int
    likes: int
    dislikes: int
    abstains: int
    unjudged_answers: int
    other: int

    @property
    def ats(self) -> float | None:
        """Mean score over judged turns (``None`` when nothing is judged)."""
        return (self.likes - self.dislikes) / self.judged if self.judged else None

    def to_json(self) -> dict[str, Any]:
        """Counts plus the ATS value."""
        return {**asdict(self), "ats": self.ats}


class SessionLog:
    """An append-only SQLite log of chat turns and their feedback."""

    def __init__(self, path: Path | str, *, store_ips: bool = False, timeout_s: float = 5.0) -> None:
        self.path = Path(path)
        self.store_ips = store_ips
        self._lock = threading.Lock()
        try:
            _create_private(self.path)
            self._db = sqlite3.connect(self.path, timeout=timeout_s, check_same_thread=False,
                                       isolation_level=None)
            self._db.row_factory = sqlite3.Row
            mode = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise SessionLogError(f"{self.path}: could not switch to WAL mode (got {mode!r})")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute(f"PRAGMA busy_timeout={int(timeout_s * 1000)}")
            self._db.executescript(_SCHEMA)
            _migrate(self._db)
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except (sqlite3.Error, OSError) as exc:
            raise SessionLogError(f"{self.path}: cannot open the session log: {exc}") from exc
        _tighten_sidecars(self.path)

    # ------------------------------------------------------------ lifecycle

    def close(self) -> None:
        """Close the connection (checkpointing the WAL)."""
        with self._lock:
            self._db.close()

    def __enter__(self) -> SessionLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextlib.contextmanager
    def _transaction(self, what: str) -> Iterator[sqlite3.Connection]:
        """One ``BEGIN IMMEDIATE`` .. ``COMMIT`` under the lock (rolled back on any error); a
        SQLite fault becomes :class:`SessionLogError` naming ``what`` failed."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                    self._db.execute("COMMIT")
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
            except sqlite3.Error as exc:
                raise SessionLogError(f"{self.path}: {what} failed: {exc}") from exc

    def _write(self, sql: str, params: tuple[Any, ...] | Mapping[str, Any]) -> int:
        with self._transaction("write") as db:
            cursor = db.execute(sql, params)
        return cursor.rowcount

    # ------------------------------------------------------------ writing

    def log_turn(
        self,
        turn: Turn,
        *,
        session_id: str,
        selected_lang: str | None = None,
        threshold: float | None = None,
        extra_timings_ms: Mapping[str, float] | None = None,
        client_ip: str | None = None,
        source: str = "chat",
        turn_id: str | None = None,
    ) -> str:
        """Write one turn and commit; returns its ``turn_id`` (a new random one unless given).

        Raises :class:`SessionLogError` when the row could not be committed; the caller
        must then not show the answer as if it had been recorded.
        """
        turn_id = turn_id or new_turn_id()
        timings = {**turn.timings_ms, **(extra_timings_ms or {})}
        candidates = [c.to_json() for c in turn.candidates]
        row = {
            "turn_id": turn_id, "session_id": session_id, "created_at": _now(), "source": source,
            "question": turn.question, "detected_lang": turn.detected_lang, "selected_lang": selected_lang,
            "used_lang": turn.lang, "backend": turn.backend, "validator": turn.validator, "threshold": threshold,
            "status": str(turn.status), "abstained": int(turn.status in ABSTAIN_STATUSES),
            "candidates": json.dumps(candidates, ensure_ascii=False), "chosen_sparql": turn.sparql,
            "chosen_rank": turn.rank, "confidence": turn.confidence,
            "answers": json.dumps([a.to_json() for a in turn.answers], ensure_ascii=False),
            "boolean": None if turn.boolean is None else int(turn.boolean),
            "total_answers": turn.total_answers, "error": turn.error,
            "latency_ms": json.dumps(timings), "total_ms": timings.get("total"),
            "client_ip": client_ip if self.store_ips else None,
            "rejected": json.dumps(turn.rejected, ensure_ascii=False),
            "context": json.dumps(turn.context, ensure_ascii=False) if turn.context is not None else None,
        }
        columns = ", ".join(row)
        placeholders = ", ".join(f":{k}" for k in row)
        self._write(f"INSERT INTO turns ({columns}) VALUES ({placeholders})", row)
        return turn_id

    def record_feedback(self, turn_id: str, value: int | None, *, session_id: str | None = None) -> bool:
        """Store a like (+1), dislike (-1) or withdrawal (``None``) for ``turn_id``.

        With ``session_id`` only that session's turns can be rated.  Returns whether a
        turn was updated.  Every click is also appended to ``feedback_events``.
        """
        if value not in (1, -1, None):
            raise ValueError(f"feedback must be +1, -1 or None, not {value!r}")
        now = _now()
        where = "turn_id = ?" + (" AND session_id = ?" if session_id else "")
        params: tuple[Any, ...] = (turn_id, session_id) if session_id else (turn_id,)
        with self._transaction("feedback write") as db:
            cur = db.execute(f"UPDATE turns SET feedback = ?, feedback_at = ? WHERE {where}", (value, now, *params))
            if cur.rowcount:
                db.execute("INSERT INTO feedback_events (turn_id, value, created_at) VALUES (?, ?, ?)",
                           (turn_id, value, now))
        return bool(cur.rowcount)

    # ------------------------------------------------------------ reading

    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        with self._lock:
            try:
                return self._db.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                raise SessionLogError(f"{self.path}: read failed: {exc}") from exc

    def get_turn(self, turn_id: str) -> dict[str, Any] | None:
        """One turn as a dict with JSON columns decoded (``None`` if unknown)."""
        rows = self._read("SELECT * FROM turns WHERE turn_id = ?", (turn_id,))
        return _decode(rows[0]) if rows else None

    def turns(self, session_id: str | None = None) -> Iterator[dict[str, Any]]:
        """Every turn in time order (optionally of one session), JSON columns decoded."""
        if session_id:
            rows = self._read("SELECT * FROM turns WHERE session_id = ? ORDER BY created_at, rowid", (session_id,))
        else:
            rows = self._read("SELECT * FROM turns ORDER BY created_at, rowid")
        for row in rows:
            yield _decode(row)

    def count(self) -> int:
        """Number of logged turns."""
        return int(self._read("SELECT COUNT(*) FROM turns")[0][0])

    def feedback_events(self, turn_id: str | None = None) -> list[dict[str, Any]]:
        """Every feedback click (optionally for one turn), oldest first."""
        if turn_id:
            rows = self._read("SELECT * FROM feedback_events WHERE turn_id = ? ORDER BY id", (turn_id,))
        else:
            rows = self._read("SELECT * FROM feedback_events ORDER BY id")
        return [dict(r) for r in rows]

    def ats(self, session_id: str | None = None) -> AtsReport:
        """ATS from feedback: like +1, dislike -1, abstain 0; unrated answers are not judged.

        Turns that are neither answers nor abstentions (bad input, service faults) are
        counted in ``other`` and left out.
        """
        likes = dislikes = abstains = unjudged = other = total = 0
        for turn in self.turns(session_id):
            total += 1
            if turn["status"] not in ANSWER_STATUSES:
                other += 1
            elif turn["abstained"]:
                abstains += 1
            elif turn["feedback"] == 1:
                likes += 1
            elif turn["feedback"] == -1:
                dislikes += 1
            else:
                unjudged += 1
        return AtsReport(turns=total, judged=likes + dislikes + abstains, likes=likes, dislikes=dislikes,
                         abstains=abstains, unjudged_answers=unjudged, other=other)


def _migrate(db: sqlite3.Connection) -> None:
    """Bring a log written by an older version up to :data:`SCHEMA_VERSION` (version 1
    had no ``rejected`` column: its turns read as having refused none; version 2 no
    ``context``: its turns read as asked without one)."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(turns)")}
    if "rejected" not in columns:
        db.execute("ALTER TABLE turns ADD COLUMN rejected TEXT NOT NULL DEFAULT '[]'")
    if "context" not in columns:  # version 2: no follow-up context (its turns read as having none)
        db.execute("ALTER TABLE turns ADD COLUMN context TEXT")


def _decode(row: sqlite3.Row) -> dict[str, Any]:
    out = dict(row)
    for key in ("candidates", "answers", "latency_ms", "rejected"):
        out[key] = json.loads(out[key]) if out.get(key) else ([] if key != "latency_ms" else {})
    out["context"] = json.loads(out["context"]) if out.get("context") else None
    out["abstained"] = bool(out["abstained"])
    out["boolean"] = None if out["boolean"] is None else bool(out["boolean"])
    return out


# ---------------------------------------------------------------- exports


def _binding(answer: Mapping[str, Any]) -> dict[str, str]:
    if answer.get("type") == "uri":
        return {"type": "uri", "value": answer["value"]}
    out = {"type": "literal", "value": answer["value"]}
    if answer.get("label_lang") and not answer.get("datatype"):
        out["xml:lang"] = answer["label_lang"]
    elif answer.get("datatype"):
        out["datatype"] = answer["datatype"]
    return out


def qald_question(turn: Mapping[str, Any]) -> dict[str, Any]:
    """One logged turn as a QALD-JSON question (system answers; feedback as extras)."""
    if turn["boolean"] is not None:
        answers: list[dict[str, Any]] = [{"head": {}, "boolean": turn["boolean"]}]
    else:
        answers = [{"head": {"vars": ["answer"]},
                    "results": {"bindings": [{"answer": _binding(a)} for a in turn["answers"]]}}]
    return {
        "id": turn["turn_id"],
        "question": [{"language": turn["used_lang"] or "en", "string": turn["question"]}],
        "query": {"sparql": turn["chosen_sparql"] or ""},
        "answers": answers,
        "session_id": turn["session_id"],
        "created_at": turn["created_at"],
        "detected_lang": turn["detected_lang"],
        "status": turn["status"],
        "abstained": turn["abstained"],
        "feedback": turn["feedback"],
    }


def export_qald_json(log: SessionLog, out: TextIO, *, session_id: str | None = None) -> int:
    """Write the log as QALD-JSON; returns the number of questions written."""
    questions = [qald_question(t) for t in log.turns(session_id)]
    json.dump({"dataset": {"id": "kgqa-session-log"}, "questions": questions}, out, ensure_ascii=False, indent=1)
    out.write("\n")
    return len(questions)


def _answers_cell(turn: Mapping[str, Any]) -> str:
    if turn["boolean"] is not None:
        return "true" if turn["boolean"] else "false"
    return " | ".join(a.get("id") or a.get("value", "") for a in turn["answers"])


def export_csv(log: SessionLog, out: TextIO, *, session_id: str | None = None) -> int:
    """Write one CSV row per turn (:data:`CSV_COLUMNS`); returns the number of rows."""
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, extrasaction="ignore")
    writer.writeheader()
    n = 0
    for turn in log.turns(session_id):
        row = dict(turn)
        row["answers"] = _answers_cell(turn)
        row["n_candidates"] = len(turn["candidates"])
        row["n_rejected"] = len(turn["rejected"])
        row["latency_ms"] = json.dumps(turn["latency_ms"])
        row["abstained"] = int(turn["abstained"])
        writer.writerow(row)
        n += 1
    return n
