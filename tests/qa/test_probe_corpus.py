"""The hostile-candidate probe (issue 35): every candidate of tests/hostile_candidates.py, as
a backend's only candidate, through the guard and bounded execution on an on-disk store:
no crash, no request to the 127.0.0.1 listener the candidates name, no answer, workers
under 1 GiB; and beside a valid candidate, the valid one is never lost."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from backends.fake import FakeBackend
from kg.bounded import open_bounded
from kg.store import build_store
from qa.candidate import Candidate
from qa.guard import screen
from qa.pipeline import Pipeline, Status
from tests.hostile_candidates import hostile
from tests.service.faulty_http import Reply, Request, ScriptedServer

GOOD = "SELECT DISTINCT ?answer WHERE { wd:Q937 wdt:P19 ?answer . }"
ULM = "Q3012"


def _attacker(req: Request) -> Reply:
    return Reply.json({"head": {"vars": ["answer"]}, "results": {"bindings": [
        {"answer": {"type": "literal", "value": "from the attacker"}}]}})


def test_the_corpus_has_every_kind_and_enough_candidates():
    corpus = hostile("http://127.0.0.1:9")
    kinds = Counter(kind for kind, _, _ in corpus)
    assert len(corpus) >= 130
    assert len({name for _, name, _ in corpus}) == len(corpus)
    assert {"service", "comment", "escape", "unicode", "pattern", "path", "update", "huge", "nesting", "bind",
            "join", "regex", "cartesian", "limit", "dataset", "literal"} <= set(kinds)


@pytest.mark.slow
def test_beside_a_valid_candidate_a_hostile_one_costs_nothing():
    """One bad candidate never loses the turn: the valid one after it is always kept."""
    for kind, name, sparql in hostile("http://127.0.0.1:9"):
        out = screen([Candidate(sparql, 0.99), Candidate(GOOD, 0.5)])
        assert [c.score for c in out.accepted][-1:] == [0.5], (kind, name)
        assert len(out.accepted) + len(out.rejected) == 2


def test_an_inverse_path_no_longer_loses_the_turn(tiny_kg_client):
    """``^wdt:P19`` raised AttributeError in the guard and the turn was lost; now it is read
    (and the valid candidate beside a broken one still answers)."""
    backend = FakeBackend({"who": [Candidate("SELECT ?answer WHERE { wd:Q3012 ^wdt:P19 ?answer }", 0.9)],
                           "mixed": [Candidate("SELECT ?answer WHERE { wd:Q3012 (^wdt:P19)* ?answer }", 0.9),
                                     Candidate(GOOD, 0.5)]})
    pipe = Pipeline(backend, tiny_kg_client)
    who = pipe.answer("who", "en", use_validator=False)
    mixed = pipe.answer("mixed", "en", use_validator=False)
    assert who.answered and [a.id for a in who.answers] == ["Q937"]
    assert mixed.answered and [a.id for a in mixed.answers] == [ULM] and mixed.rejected[0]["reason"] == "unbounded_path"


@pytest.mark.slow
def test_no_hostile_candidate_crashes_calls_out_or_answers(tiny_nt: Path, tmp_path: Path):
    paths = build_store(tiny_nt, tmp_path / "cache", progress=False)
    kg = open_bounded(paths)
    try:
        with ScriptedServer(_attacker) as listener:
            corpus = hostile(listener.url)
            scripted = {f"hostile question {i}": [Candidate(sparql, 0.99)] for i, (_, _, sparql) in enumerate(corpus)}
            scripted["Where was Einstein born?"] = [Candidate(GOOD, 0.99)]
            pipe = Pipeline(FakeBackend(scripted), kg, query_timeout_s=2.0)
            turns = {name: pipe.answer(f"hostile question {i}", "en", use_validator=False)
                     for i, (_, name, _) in enumerate(corpus)}
            after = pipe.answer("Where was Einstein born?", "en", use_validator=False)
        answered = {name: [a.label for a in t.answers] or t.boolean for name, t in turns.items() if t.answered}
        assert answered == {}
        assert listener.requests == []
        assert all(t.status in (Status.NO_CANDIDATES, Status.ABSTAINED, Status.ERROR) for t in turns.values())
        rejected = sum(1 for t in turns.values() if t.status == Status.NO_CANDIDATES)
        assert rejected >= len(corpus) - 15  # the few the guard lets through find nothing (printed by the benchmark)
        assert after.answered and [a.id for a in after.answers] == [ULM]
        assert kg.runner.peak_rss_bytes() < 1 << 30
    finally:
        kg.runner.close()
