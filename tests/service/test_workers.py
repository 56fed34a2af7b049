"""Worker processes (service/workers.py) answer exactly like the in-process pipeline, and a
worker killed with ``kill -9`` costs one "service unavailable" turn, never a wrong answer."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest

from chat.messages import turn_message
from core.settings import load_settings
from service.factory import build_pipeline
from service.workers import WorkerPipeline, WorkerStartError

QUESTIONS = [
    ("Where was Albert Einstein born?", None),
    ("Где родился Альберт Эйнштейн?", None),
    ("德国的首都是哪里？", None),
    ("Wie ist das Wetter morgen?", "de"),
    ("", None),
    ("x" * 2000, None),
]


def _comparable(turn) -> dict:
    data = turn.to_json()
    data.pop("timings_ms")
    return data


@pytest.fixture(scope="module")
def tiny_settings(tmp_path_factory: pytest.TempPathFactory):
    from tests import tiny_kg

    root = tmp_path_factory.mktemp("workers")
    source = root / "tiny.nt"
    source.write_text(tiny_kg.ntriples(), encoding="utf-8")
    return load_settings({}, kg_source=source, cache_dir=root / "cache", validator=False)


@pytest.fixture(scope="module")
def pool(tiny_settings):
    with WorkerPipeline(tiny_settings, 2) as workers:
        yield workers


def test_workers_answer_exactly_like_the_pipeline_in_this_process(pool: WorkerPipeline, tiny_settings):
    local = build_pipeline(tiny_settings)
    assert len(pool.pids()) == 2 and os.getpid() not in pool.pids()
    assert (pool.validator_state, pool.max_question_chars, pool.backend.name) == ("off", 1000, "local")
    answered = 0
    for question, lang in QUESTIONS:
        remote = pool.answer(question, lang)
        assert _comparable(remote) == _comparable(local.answer(question, lang))
        answered += remote.answered
    assert answered >= 2  # the comparison covers real answers, not only "don't know"


@pytest.mark.slow
def test_a_worker_killed_while_answering_costs_one_unavailable_turn_and_is_replaced(pool: WorkerPipeline):
    victim, other = pool.pids()
    os.kill(victim, signal.SIGSTOP)  # both busy: the stopped one and one answering a slow-enough call
    turns: list = []
    asking = [threading.Thread(target=lambda: turns.append(pool.answer("Wo wurde Albert Einstein geboren?")))
              for _ in range(2)]
    for t in asking:
        t.start()
    for t in asking:
        t.join(timeout=0.5)
    os.kill(victim, signal.SIGKILL)  # dies holding a question
    for t in asking:
        t.join(timeout=60)
    statuses = sorted(t.status for t in turns)
    assert statuses == ["abstained", "service_error"] or statuses == ["ok", "service_error"], statuses
    failed = next(t for t in turns if t.status == "service_error")
    assert not failed.answered and not failed.answers and "WorkerUnavailable" in (failed.error or "")
    assert turn_message(failed) and failed.lang == "en"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (len(pool.pids()) < 2 or victim in pool.pids()):
        time.sleep(0.3)
    assert len(pool.pids()) == 2 and victim not in pool.pids() and other in pool.pids()


@pytest.mark.slow
def test_a_worker_killed_while_idle_is_replaced_without_failing_a_question(pool: WorkerPipeline):
    victim = pool.pids()[0]
    os.kill(victim, signal.SIGKILL)
    time.sleep(0.3)
    for _ in range(3):  # whichever worker each question finds, it is answered
        turn = pool.answer("Where was Albert Einstein born?")
        assert turn.answered and turn.answers[0].id == "Q3012"
    assert victim not in pool.pids()


def test_a_worker_that_cannot_build_its_pipeline_fails_the_start(tiny_settings, tmp_path: Path):
    source = tmp_path / "broken.nt"
    source.write_text("<http://a> <http://b> this is not N-Triples .\n", encoding="utf-8")
    broken = load_settings({}, kg_source=source, cache_dir=tmp_path / "cache", validator=False)
    with pytest.raises(WorkerStartError, match="broken.nt"):
        WorkerPipeline(broken, 1, start_timeout_s=120)


def test_errors_raised_in_a_worker_come_back_and_the_worker_stays_in_the_pool(pool: WorkerPipeline):
    """Issue 35: two 1,001-character questions to /api/qa/full used to leave both workers
    out of the pool (their QuestionTooLong could not be unpickled)."""
    from core.errors import QuestionTooLong

    before = sorted(pool.pids())
    for _ in range(2 * pool.workers + 1):
        with pytest.raises(QuestionTooLong) as raised:
            pool.candidates("x" * 1001)
        assert (raised.value.length, raised.value.limit) == (1001, 1000)
    assert sorted(pool.pids()) == before  # nobody was killed or replaced
    turn = pool.answer("Where was Albert Einstein born?")
    assert turn.answered and turn.answers[0].id == "Q3012"


def test_an_idle_worker_gives_freed_memory_back_and_a_busy_one_does_not(monkeypatch: pytest.MonkeyPatch):
    """After an answer, a worker whose next request is already waiting reads it at once;
    one that waits longer than IDLE_S first returns the freed heap pages (once)."""
    import multiprocessing

    from service import workers

    released: list[float] = []
    monkeypatch.setattr(workers, "release_free_memory", lambda: released.append(time.monotonic()))
    ours, theirs = multiprocessing.Pipe()
    ours.send(("probe", ()))
    assert workers._next_request(theirs, release_when_idle=True) == ("probe", ())
    assert not released  # the request was waiting
    sent = threading.Timer(workers.IDLE_S * 4, lambda: ours.send(("answer", ("q", None, True, None))))
    sent.start()
    started = time.monotonic()
    assert workers._next_request(theirs, release_when_idle=True)[0] == "answer"
    sent.join()
    assert len(released) == 1 and released[0] - started >= workers.IDLE_S
    ours.send(("probe", ()))
    threading.Timer(workers.IDLE_S * 2, lambda: ours.send(("probe", ()))).start()
    workers._next_request(theirs, release_when_idle=False)  # before the first answer: never
    workers._next_request(theirs, release_when_idle=False)
    assert len(released) == 1


def test_the_warm_up_freezes_what_it_made_and_answers_stay_the_same(tiny_settings):
    """service.workers.warm (the chat's and kgqa serve's, and the latency benchmarks'): the
    objects made while building and warming are frozen out of the collector's walks, and a
    warmed pipeline answers exactly as a cold one."""
    import gc

    from service.workers import warm

    cold = build_pipeline(tiny_settings)
    expected = [_comparable(cold.answer(question, lang)) for question, lang in QUESTIONS]
    pipeline = build_pipeline(tiny_settings)
    before = gc.get_freeze_count()
    try:
        warm(pipeline)
        assert gc.get_freeze_count() > before
        assert [_comparable(pipeline.answer(question, lang)) for question, lang in QUESTIONS] == expected
    finally:
        gc.unfreeze()


def test_an_early_pool_answers_before_lingua_loads_then_its_workers_share_the_template_s_models(tiny_settings):
    """Early start (the chat, ``kgqa serve``): the workers answer at once, lingua's models load
    in the template right after, and every worker forked before is replaced by one that
    shares them; answers are the same throughout."""
    local = build_pipeline(tiny_settings)
    with WorkerPipeline(tiny_settings, 2, early=True) as early:
        first = sorted(early.pids())
        assert len(first) == 2
        question, lang = QUESTIONS[0]
        assert _comparable(early.answer(question, lang)) == _comparable(local.answer(question, lang))
        assert early.wait_upgraded(120)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and (len(early.pids()) < 2 or set(early.pids()) & set(first)):
            time.sleep(0.05)
        assert len(early.pids()) == 2 and not set(early.pids()) & set(first)  # all forked after the load
        upgraded = sorted(early.pids())
        for question, lang in QUESTIONS:
            assert _comparable(early.answer(question, lang)) == _comparable(local.answer(question, lang))
        assert sorted(early.pids()) == upgraded  # replaced once, not again
        assert all(w.generation == 1 for w in early._all)


def test_an_early_pool_warms_its_template_only_once_no_question_is_waiting(tiny_settings):
    """The template's warm-up (seconds of CPU on the real pipeline) waits while questions come
    back to back, so the first questions keep the cores; it comes once they stop."""
    from service.workers import QUIET_S

    with WorkerPipeline(tiny_settings, 2, early=True) as early:
        stop = threading.Event()
        answered: list[bool] = []

        def ask() -> None:
            while not stop.is_set():
                answered.append(early.answer(*QUESTIONS[0]).answered)

        askers = [threading.Thread(target=ask) for _ in range(2)]
        for thread in askers:
            thread.start()
        time.sleep(3 * QUIET_S + 1.0)
        stop.set()
        for thread in askers:
            thread.join(30)
        last_asked = time.monotonic()
        assert answered and all(answered)
        assert early.wait_upgraded(120)
        assert early.warm_asked_at is not None and early.warm_asked_at >= last_asked
        assert all(w.generation == 1 for w in early._all)


def test_a_pool_that_is_not_early_is_fully_loaded_when_ready(pool: WorkerPipeline):
    assert pool.wait_upgraded(0) and all(w.generation == 0 for w in pool._all)
