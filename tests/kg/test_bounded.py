"""Every embedded query bounded (kg.bounded): the worker pool answers as the store does, a
query past its deadline or its memory limit ends its worker and the next query is
answered, and the engine's SERVICE client reaches no address (a real listener on
127.0.0.1 hears nothing)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import KGQueryError, KGTimeout
from kg.bounded import BoundedStore, open_bounded
from kg.client import EmbeddedKG
from kg.sparql import with_prefixes
from kg.store import KGPaths, build_store
from tests import tiny_kg
from tests.service.faulty_http import Reply, ScriptedServer

CARTESIAN_COUNT = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l . ?m ?n2 ?o }"
"""Counts a five-fold product of the whole graph: runs far past any deadline."""


@pytest.fixture
def tiny_paths(tiny_nt: Path, tmp_path: Path) -> KGPaths:
    """The tiny graph built into an on-disk store (what the workers open)."""
    return build_store(tiny_nt, tmp_path / "cache", progress=False)


@pytest.fixture
def bounded(tiny_paths: KGPaths):
    kg = open_bounded(tiny_paths)
    yield kg
    kg.runner.close()


QUERIES = [
    "SELECT ?o WHERE { wd:Q937 wdt:P19 ?o }",
    "SELECT ?s ?l WHERE { VALUES ?s { wd:Q64 wd:Q937 } ?s rdfs:label ?l }",
    "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x wdt:P31 wd:Q5 }",
    "SELECT ?x ?v WHERE { ?x wdt:P1082 ?v } ORDER BY DESC(?v)",
    "ASK { wd:Q64 wdt:P17 wd:Q183 }",
    "ASK { wd:Q64 wdt:P17 wd:Q159 }",
]


@pytest.mark.parametrize("sparql", QUERIES)
def test_the_pool_answers_as_the_store_itself(bounded: EmbeddedKG, sparql: str):
    here = EmbeddedKG(tiny_kg.memory_store()).query(sparql, timeout_s=5)
    there = bounded.query(sparql, timeout_s=5)
    assert there.vars == here.vars and there.boolean == here.boolean
    assert sorted(map(repr, there.rows)) == sorted(map(repr, here.rows))
    assert there.rows or there.boolean is not None


def test_service_reaches_no_address_even_when_the_guard_is_bypassed(bounded: EmbeddedKG):
    """Defence in depth: the query goes straight to the pool (no guard); the store would
    call the URL (see test_untrusted_candidates' control), the worker's sockets cannot."""
    with ScriptedServer(lambda req: Reply.json({"head": {"vars": ["o"]}, "results": {"bindings": [
            {"o": {"type": "literal", "value": "from the attacker"}}]}})) as listener:
        with pytest.raises(KGQueryError):
            bounded.query(f"SELECT ?o WHERE {{ SERVICE <{listener.url}/sparql> {{ ?s ?p ?o }} }}", timeout_s=5)
        silent = bounded.query(f"SELECT ?o WHERE {{ SERVICE SILENT <{listener.url}/sparql> {{ ?s ?p ?o }} }}",
                               timeout_s=5)
        hidden = bounded.query(f"SELECT ?o WHERE {{ wd:Q937 wdt:P19 ?o # \r SERVICE SILENT <{listener.url}/x> "
                               "{ ?s ?p ?o } \n }", timeout_s=5)
    assert listener.requests == []
    assert all("o" not in row for row in silent.rows)
    assert "from the attacker" not in str(hidden.rows)
    assert bounded.query("ASK { wd:Q64 wdt:P17 wd:Q183 }", timeout_s=5).boolean is True


def test_a_worker_refuses_internet_sockets(bounded: EmbeddedKG):
    bounded.query("ASK { ?s ?p ?o }", timeout_s=5)
    assert all(worker.no_network for worker in bounded.runner._idle)


def test_past_the_deadline_the_worker_is_stopped_and_the_next_query_answered(bounded: EmbeddedKG):
    """A query the store cannot cancel (pyoxigraph has no timeout) no longer holds the caller:
    its worker is killed, a fresh one answers the next query."""
    with pytest.raises(KGTimeout):
        bounded.query(CARTESIAN_COUNT, timeout_s=1.0)
    assert bounded.runner.killed == 1
    assert bounded.query("SELECT ?o WHERE { wd:Q937 wdt:P19 ?o }", timeout_s=5).column()[0].value.endswith("Q3012")


def test_two_hung_queries_do_not_hold_the_pool(tiny_paths: KGPaths):
    """Both workers busy with hung queries: each is stopped at its own deadline and the
    pool answers again (no worker is lost)."""
    import threading

    pool = BoundedStore(tiny_paths.store, workers=2)
    errors: list[Exception] = []

    def hang() -> None:
        try:
            pool.query(CARTESIAN_COUNT, timeout_s=1.0)
        except KGTimeout as exc:
            errors.append(exc)

    threads = [threading.Thread(target=hang) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        assert len(errors) == 2 and pool.killed == 2
        assert pool.query(with_prefixes("ASK { wd:Q64 wdt:P17 wd:Q183 }"), timeout_s=5).boolean is True
    finally:
        pool.close()


@pytest.mark.slow
def test_a_memory_bomb_ends_its_worker_under_the_limit(tiny_paths: KGPaths):
    """``BIND(CONCAT(?s, ?s))`` 30 times over (a string of 8 GiB): the worker's allocation
    fails at its limit (400 MiB here) long before the deadline; the next query is answered."""
    pool = BoundedStore(tiny_paths.store, memory_bytes=400 << 20, workers=1)
    binds = " ".join(f"BIND(CONCAT(?s{i}, ?s{i}) AS ?s{i + 1})" for i in range(30))
    bomb = f'SELECT ?n WHERE {{ BIND("abcdefgh" AS ?s0) {binds} BIND(STRLEN(?s30) AS ?n) }}'
    try:
        with pytest.raises(KGQueryError):
            pool.query(bomb, timeout_s=120)
        assert pool.killed == 1
        assert pool.query(with_prefixes("ASK { wd:Q64 wdt:P17 wd:Q183 }"), timeout_s=5).boolean is True
        assert pool.peak_rss_bytes() < 400 << 20
    finally:
        pool.close()


def test_bad_sparql_is_a_query_error_and_keeps_the_worker(bounded: EmbeddedKG):
    with pytest.raises(KGQueryError):
        bounded.query("SELECT WHERE nonsense", timeout_s=5)
    assert bounded.runner.killed == 0
    assert bounded.query("ASK { wd:Q64 wdt:P17 wd:Q183 }", timeout_s=5).boolean is True


def test_a_forked_child_starts_its_own_workers(bounded: EmbeddedKG):
    """``kgqa serve`` forks its workers from a loaded pipeline: a child must not talk over
    the parent's pipes, and the parent's pool goes on answering."""
    import os

    assert bounded.query("ASK { wd:Q64 wdt:P17 wd:Q183 }", timeout_s=5).boolean is True
    parents = {w.process.pid for w in bounded.runner._idle}
    pid = os.fork()
    if pid == 0:  # the child: answer, with a worker of its own, and leave without running atexit
        code = 2
        try:
            answered = bounded.query("ASK { wd:Q64 wdt:P17 wd:Q183 }", timeout_s=10).boolean is True
            own = {w.process.pid for w in bounded.runner._idle}
            code = 0 if answered and own and not own & parents else 1
            bounded.runner.close()
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert bounded.query("ASK { wd:Q64 wdt:P17 wd:Q183 }", timeout_s=5).boolean is True
    assert {w.process.pid for w in bounded.runner._idle} == parents


def test_a_worker_that_cannot_open_the_store_is_a_clear_error(tmp_path: Path):
    """A missing or unreadable store: ``KGUnavailable`` naming it, not a traceback or a hang."""
    from core.errors import KGUnavailable

    pool = BoundedStore(tmp_path / "no-store-here", workers=1)
    with pytest.raises(KGUnavailable, match="no-store-here"):
        pool.query(with_prefixes("ASK { ?s ?p ?o }"), timeout_s=5)
    assert pool.killed == 1
