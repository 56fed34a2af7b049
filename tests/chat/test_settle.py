"""The chat's last update per submit (settle): it shows the whole history once the tab has
nothing left, and answers questions a closed drain left behind."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from backends.fake import FakeBackend
from chat.ui import ChatState, build_app
from core.settings import load_settings
from qa.candidate import Candidate
from qa.pipeline import Pipeline
from service.session_log import SessionLog

BIRTHPLACE = "SELECT ?x WHERE { wd:Q937 wdt:P19 ?x }"


def _fn(app, name: str):
    return next(f.fn for f in app.fns.values() if f.name == name)


def _run(coroutine):
    """Run ``coroutine`` on an event loop of its own, in a thread of its own: the worker's
    shared browser (tests/chat/conftest.py) keeps Playwright's loop running in this one."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def test_settle_answers_what_a_closed_drain_left(tiny_kg_client, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr("chat.ui.ORPHAN_S", 0.3)
    pipeline = Pipeline(FakeBackend({"Where was Albert Einstein born?": [Candidate(BIRTHPLACE, 0.9)]}),
                        tiny_kg_client)
    with SessionLog(tmp_path / "s.sqlite") as log:
        app = build_app(pipeline, load_settings({}, rate_limit_per_minute=0), log)
        add_user, respond, settle = _fn(app, "add_user"), _fn(app, "respond"), _fn(app, "settle")
        state = ChatState()
        for question in ("Where was Albert Einstein born?", "Wer bist du?", "Where was Albert Einstein born?"):
            _, _, state = add_user(question, "auto", state)
        drain = respond("auto", state, None)
        next(drain)  # the first answer is shown, then the event is closed (the tab's stream went away)
        drain.close()
        assert len(state.pending) == 2 and not state.draining
        update, stored = _run(settle(state, None))
        rows = list(log.turns())
    assert len(rows) == 3 and not state.pending
    assert [m["role"] for m in update["value"]] == ["user"] * 3 + ["assistant"] * 3
    assert stored["history"] == update["value"]  # what the browser keeps for a reload
