"""Over an endpoint the local generator batches its reads (``batch_probes``): the typed
expansion reads the answers counted through subclasses, and which classes have
subclasses, in one request.  The candidates must be those the per-query path makes,
score for score, on a graph where a class has a subclass (a real ``oxigraph
serve-read-only`` on 127.0.0.1 against the embedded store of the same graph)."""

from __future__ import annotations

import pytest

from backends.local.generator import LocalBackend
from backends.local.ranker import Ranker
from core.settings import load_settings
from kg.build import build_kg
from kg.client import EmbeddedKG, RemoteKG
from kg.labels import LabelIndex
from kg.store import open_store
from qa.reading.lexicon import default_lexicon
from service.kgserve import query_url, start_oxigraph
from tests import tiny_kg
from tests.service.faulty_http import free_port

WD, WDT = "http://www.wikidata.org/entity/", "http://www.wikidata.org/prop/direct/"
LABEL = "http://www.w3.org/2000/01/rdf-schema#label"


def _fact(s: str, p: str, o: str) -> str:
    return f"<{WD}{s}> <{WDT}{p}> <{WD}{o}> .\n"


def _name(s: str, text: str) -> str:
    return f'<{WD}{s}> <{LABEL}> "{text}"@en .\n'


EXTRA = "".join([  # big cities, a subclass of city, and a river: all in Germany
    _name("Q1549591", "big city"), _fact("Q1549591", "P279", "Q515"),
    _name("Q1022", "Stuttgart"), _fact("Q1022", "P31", "Q1549591"), _fact("Q1022", "P17", "Q183"),
    _name("Q1726", "Munich"), _fact("Q1726", "P31", "Q1549591"), _fact("Q1726", "P17", "Q183"),
    _name("Q584", "Rhine"), _fact("Q584", "P31", "Q4022"), _fact("Q584", "P17", "Q183"),
    _name("Q4022", "river"),
])
QUESTIONS = [("Which cities are in Germany?", "en"), ("Welche Städte liegen in Deutschland?", "de"),
             ("What rivers are in Germany?", "en")]


@pytest.fixture(scope="module")
def backends(tmp_path_factory):
    root = tmp_path_factory.mktemp("batches")
    nt = root / "kg.nt"
    nt.write_text(tiny_kg.ntriples() + EXTRA, encoding="utf-8")
    settings = load_settings({}, kg_source=nt, cache_dir=root / "cache")
    paths = build_kg(nt, settings.cache_dir, progress=False)
    index = LabelIndex.open(paths.labels)
    port = free_port()
    process = start_oxigraph(paths.store, "127.0.0.1", port)
    remote = RemoteKG(query_url("127.0.0.1", port), timeout_s=10)
    common = {"lexicon": default_lexicon(settings.lexicon_path), "ranker": Ranker.load_default(settings.ranker_path)}
    yield (LocalBackend(EmbeddedKG(open_store(paths)), index, **common),
           LocalBackend(remote, index, batch_probes=True, **common), remote)
    process.kill()
    process.wait()


@pytest.mark.parametrize(("question", "lang"), QUESTIONS)
def test_batched_reads_make_the_same_candidates(backends, question: str, lang: str):
    one_by_one, batched, _remote = backends
    expected = [(c.sparql, round(c.score, 6)) for c in one_by_one.ask(question, lang)]
    assert expected and [(c.sparql, round(c.score, 6)) for c in batched.ask(question, lang)] == expected


class _Recording(RemoteKG):
    """A real client of the endpoint that keeps the text of every query it sends."""

    def __init__(self, url: str) -> None:
        super().__init__(url, timeout_s=10)
        self.sent: list[str] = []

    def query(self, sparql: str, **kwargs):  # type: ignore[override]
        self.sent.append(sparql)
        return super().query(sparql, **kwargs)


def test_the_subclass_path_is_covered_and_read_in_one_request(backends):
    one_by_one, batched, remote = backends
    assert any("P279*" in c.sparql for c in one_by_one.ask(*QUESTIONS[0]))  # through the subclass "big city"
    recording = _Recording(remote.endpoint)
    fresh = LocalBackend(recording, batched.index, batch_probes=True, lexicon=batched.lexicon, ranker=batched.ranker)
    fresh.ask(*QUESTIONS[0])
    checks = [q for q in recording.sent if "?s wdt:P279" in q]  # whether a class has subclasses
    assert len(checks) == 1 and "P279* wd:Q515" in checks[0] and "COUNT" in checks[0]  # with the counts
