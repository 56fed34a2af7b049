"""``kgqa kg-serve``'s endpoint (issue 44, case 3): a real uvicorn on 127.0.0.1 serving
the tiny store through :func:`service.kgserve.create_sparql_app`.  ``SERVICE`` reaches no
listener, a ``CONCAT`` memory bomb ends its worker under the memory bound and a hung
query is killed at the deadline (the next query answered), ``GET /store`` dumps nothing
and updates are refused; the product's own client reads it as any endpoint."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest

from core.errors import KGQueryError, KGTimeout, KGUnavailable
from kg.client import RemoteKG
from kg.store import build_store
from service.kgserve import create_sparql_app
from service.server import ServerThread
from tests import tiny_kg
from tests.service.faulty_http import Reply, ScriptedServer

TIMEOUT_S = 3.0


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("kgserve")
    nt = root / "tiny.nt"
    nt.write_text(tiny_kg.ntriples(), encoding="utf-8")
    return build_store(nt, root / "cache", progress=False).store


@pytest.fixture(scope="module")
def endpoint(store_dir: Path):
    app = create_sparql_app(store_dir, timeout_s=TIMEOUT_S, memory_bytes=400 << 20, workers=1)
    with ServerThread(app) as srv:
        yield srv, app.state.pool
    app.state.pool.close()


def _kg(srv: ServerThread) -> RemoteKG:
    return RemoteKG(srv.url + "/query", timeout_s=60, retries=0)


def test_it_answers_as_an_endpoint(endpoint):
    srv, _pool = endpoint
    kg = _kg(srv)
    assert [t.value for t in kg.query("SELECT ?x WHERE { wd:Q937 wdt:P19 ?x }").column("x")] == [
        "http://www.wikidata.org/entity/Q3012"]
    assert kg.query("ASK { wd:Q64 wdt:P17 wd:Q183 }").boolean is True
    got = httpx.get(srv.url + "/query", params={"query": "ASK { ?s ?p ?o }"}, timeout=30)
    assert got.status_code == 200 and got.json()["boolean"] is True


@pytest.mark.parametrize("form", ["SERVICE", "SERVICE SILENT"])
def test_service_reaches_no_listener(endpoint, form):
    srv, _pool = endpoint
    with ScriptedServer(lambda _req: Reply.json({"head": {"vars": ["o"]}, "results": {"bindings": []}})) as spy:
        query = f"SELECT ?o WHERE {{ {form} <{spy.url}/sparql> {{ ?s ?p ?o }} }}"
        try:
            rows = _kg(srv).query(query).rows
        except (KGQueryError, KGUnavailable):
            rows = []
        time.sleep(0.2)
    assert spy.requests == [] and not any(rows)  # SERVICE SILENT: one empty row


def test_a_memory_bomb_ends_its_worker_and_the_next_query_is_answered(endpoint):
    srv, pool = endpoint
    binds = " ".join(f"BIND(CONCAT(?s{i}, ?s{i}) AS ?s{i + 1})" for i in range(30))
    bomb = f'SELECT ?n WHERE {{ BIND("abcdefgh" AS ?s0) {binds} BIND(STRLEN(?s30) AS ?n) }}'
    killed = pool.killed
    started = time.monotonic()
    with pytest.raises((KGQueryError, KGTimeout, KGUnavailable)):
        _kg(srv).query(bomb)
    assert time.monotonic() - started < TIMEOUT_S + 10
    assert pool.killed == killed + 1
    assert pool.peak_rss_bytes() < 400 << 20
    assert _kg(srv).query("ASK { wd:Q64 wdt:P17 wd:Q183 }").boolean is True


def test_a_long_query_is_killed_at_the_deadline(endpoint):
    srv, pool = endpoint
    slow = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l . ?m ?n2 ?o . ?p ?q ?r }"
    killed = pool.killed
    started = time.monotonic()
    with pytest.raises((KGTimeout, KGUnavailable)):
        _kg(srv).query(slow)
    assert time.monotonic() - started < TIMEOUT_S + 5
    assert pool.killed == killed + 1
    assert _kg(srv).query("ASK { wd:Q64 wdt:P17 wd:Q183 }").boolean is True


def test_no_dump_and_no_updates(endpoint):
    srv, _pool = endpoint
    assert httpx.get(srv.url + "/store", timeout=10).status_code == 404
    assert httpx.post(srv.url + "/update", data={"update": "DROP ALL"}, timeout=10).status_code == 404
    dropped = httpx.post(srv.url + "/query", data={"query": "DROP ALL"}, timeout=10)
    assert dropped.status_code == 400
    assert _kg(srv).query("ASK { wd:Q64 wdt:P17 wd:Q183 }").boolean is True
    huge = httpx.post(srv.url + "/query", data={"query": "ASK {} #" + "x" * 300_000}, timeout=10)
    assert huge.status_code == 413
