"""Batched KG reads (:mod:`backends.local.reads`): each batch reads, in one request, what
the reads one at a time give, over the tiny KG."""

from __future__ import annotations

import pytest

from backends.local.linking import Mention
from backends.local.reads import KGReads
from backends.local.shapes import backward, forward, select, typed_sub, where
from kg.client import EmbeddedKG
from kg.labels import LabelIndex
from qa.reading.lexicon import default_lexicon

GERMANY, EINSTEIN, CITY, HUMAN = "Q183", "Q937", "Q515", "Q5"


class _Counting(EmbeddedKG):
    """The tiny KG, counting the queries sent to it."""

    def __init__(self, store) -> None:
        super().__init__(store)
        self.sent = 0

    def query(self, sparql: str, **kwargs):  # type: ignore[override]
        self.sent += 1
        return super().query(sparql, **kwargs)


@pytest.fixture
def kg(tiny_store) -> _Counting:
    return _Counting(tiny_store)


@pytest.fixture
def reads(kg: _Counting, index: LabelIndex) -> KGReads:
    return KGReads(kg, index, lexicon=default_lexicon())


def _mention(qid: str) -> Mention:
    return Mention(0, 1, qid, qid, 1.0, 1.0, 0.5, False, 10, False, 10, 0, 1.0)


def test_the_adjacency_of_many_anchors_is_read_in_one_request(kg: _Counting, reads: KGReads, index: LabelIndex,
                                                              tiny_kg_client: EmbeddedKG):
    alone = KGReads(tiny_kg_client, index)
    reads.prefetch_adjacency([_mention(GERMANY), _mention(EINSTEIN)])
    assert kg.sent == 1
    for qid in (GERMANY, EINSTEIN):
        for outgoing in (True, False):
            assert reads.adjacency(qid, outgoing=outgoing) == alone.adjacency(qid, outgoing=outgoing)
    assert kg.sent == 1  # every one came from the batch
    assert {a.pid for a in reads.adjacency(EINSTEIN, outgoing=True)} >= {"P19", "P27", "P31"}


def test_batched_answers_classes_and_counts_are_the_ones_read_alone(kg: _Counting, reads: KGReads):
    graphs = [backward(GERMANY, "P17"), forward(EINSTEIN, "P19"), backward(GERMANY, "P27")]
    classes = reads.batch_answer_classes(graphs)
    sets = reads.batch_answer_sets(graphs)
    counts = reads.batch_counts([typed_sub(g, CITY) for g in graphs], [CITY, HUMAN])
    assert kg.sent == 3
    # whether the classes have subclasses was read with the counts
    assert not reads.may_have_subclasses(CITY) and not reads.has_subclasses(HUMAN) and kg.sent == 3
    for g in graphs:
        assert classes[select(g)] == reads.answer_classes(g)
        assert sets[select(g)] == reads.answer_set(g, {})
        assert counts[where(typed_sub(g, CITY))] == reads.count(typed_sub(g, CITY))
    assert classes[select(backward(GERMANY, "P17"))] == {CITY: 2}
    assert counts[where(typed_sub(backward(GERMANY, "P17"), CITY))] == 2
    assert sets[select(backward(GERMANY, "P27"))] == {"http://www.wikidata.org/entity/Q937"}


def test_second_hops_of_many_graphs_are_the_ones_read_alone(kg: _Counting, reads: KGReads):
    firsts = [(EINSTEIN, "P19"), (GERMANY, "P36")]
    batched = reads.batch_second_hops(firsts)
    assert kg.sent == 1 and batched is not None
    for (entity, pid), rows in zip(firsts, batched, strict=True):
        alone = reads.query(f"SELECT ?p (COUNT(DISTINCT ?v) AS ?n) WHERE {{ wd:{entity} wdt:{pid} ?x . ?x ?p ?v . }} "
                            "GROUP BY ?p", 500)
        assert {(r["p"].value, r["n"].value) for r in rows} == {(r["p"].value, r["n"].value) for r in alone}
        assert any(r["p"].value.endswith("/P17") for r in rows)  # Ulm's and Berlin's country
    assert reads.batch_second_hops(firsts[:1]) is None  # one graph: asked alone


def test_a_failed_read_is_no_rows_and_counted_as_a_timeout_only_when_it_timed_out(reads: KGReads):
    reads.reset_timeouts()
    assert reads.query("SELECT ?x WHERE { ?x ?p }", 10) == []  # rejected: not a timeout
    assert reads.timeouts() == 0
