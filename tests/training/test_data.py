"""Training data the paper's way, over the tiny KG with a one-hop fake backend."""

from __future__ import annotations

from collections import Counter

import pyoxigraph as ox
import pytest

from backends.fake import FakeBackend
from core.errors import BackendUnavailable
from evaluation.formats import load_datasets
from evaluation.harness import select_items
from evaluation.splits import split_of
from qa.candidate import Candidate
from tests.validator.tiny_bench import one_hop_backend, write_bench
from training.data import (
    balance,
    by_split,
    collect,
    export_turtle,
    make_splits,
    read_records,
    records_for_item,
    trainable,
)
from validator.verbalize import Verbalizer


@pytest.fixture
def items(tmp_path):
    return select_items(load_datasets([write_bench(tmp_path / "tiny.json")]), lang="all")


@pytest.fixture
def candidates(items, tiny_kg_client, tmp_path):
    return collect(items, one_hop_backend(), tiny_kg_client, tmp_path / "work" / "candidates.jsonl", progress=False)


def test_candidates_are_executed_and_labelled_by_f1(items, tiny_kg_client):
    item = next(it for it in items if it.lang == "ru" and it.text.startswith("столица Германия"))
    records = records_for_item(item, one_hop_backend(), tiny_kg_client, Verbalizer(tiny_kg_client))
    right = [r for r in records if r.correct]
    assert [r.sparql for r in right] == ["SELECT DISTINCT ?x WHERE { wd:Q183 wdt:P36 ?x . }"]
    assert right[0].verbalization == "Германия столица ?x" and right[0].f1 == 1.0
    assert [r.position for r in records] == list(range(1, len(records) + 1))
    empty = [r for r in records if r.n_answers == 0]
    assert empty and not any(r.correct for r in empty)  # an empty result is never correct
    assert all(r.split == split_of(item.id) for r in records)


def test_unanswerable_questions_give_only_negatives(candidates):
    records = read_records(candidates)
    unanswerable = [r for r in records if r.kind == "unanswerable"]
    assert unanswerable and not any(r.correct for r in unanswerable)
    assert any(r.n_answers > 0 for r in unanswerable)  # the backend still finds (wrong) answers


def test_no_question_in_two_splits(candidates):
    splits: dict[str, set[str]] = {}
    for r in read_records(candidates):
        splits.setdefault(r.id, set()).add(r.split)
    assert all(len(s) == 1 for s in splits.values())
    assert {s for v in splits.values() for s in v} == {"train", "dev", "test"}


def test_balanced_splits_are_50_50_and_disjoint(candidates, tmp_path):
    counts = make_splits(candidates, tmp_path / "work")
    train = read_records(tmp_path / "work" / "train.jsonl")
    valid = read_records(tmp_path / "work" / "valid.jsonl")
    assert counts == {"train.jsonl": len(train), "valid.jsonl": len(valid)}
    for part in (train, valid):
        labels = Counter(r.correct for r in part)
        assert labels[True] == labels[False] > 0
        assert all(r.n_answers > 0 for r in part)
    assert not {r.id for r in train} & {r.id for r in valid}
    assert {r.split for r in train} == {"train"} and {r.split for r in valid} == {"dev"}


def test_round_robin_negatives_favour_top_ranks(candidates):
    records = trainable(read_records(candidates))
    train = by_split(records)["train"]
    picked = balance(train, seed=1)
    negatives = [r for r in picked if not r.correct]
    per_item = Counter((r.id, r.lang) for r in negatives)
    assert max(per_item.values()) - min(per_item.values()) <= 1  # spread over questions
    assert balance(train, seed=1) == picked  # seeded


def test_collect_is_resumable_and_records_backend_faults(items, tiny_kg_client, tmp_path):
    path = tmp_path / "c.jsonl"
    calls = []

    def flaky(question, lang):
        calls.append(question)
        if lang == "zh":
            raise BackendUnavailable("down")
        return [Candidate("SELECT ?x WHERE { wd:Q183 wdt:P36 ?x }", 1.0)]

    collect(items[:6], FakeBackend(flaky), tiny_kg_client, path, progress=False)
    first = read_records(path)
    assert any(r.error and "down" in r.error and r.position == 0 for r in first)
    collect(items[:6], FakeBackend(flaky), tiny_kg_client, path, progress=False)
    assert len(calls) == 6 and len(read_records(path)) == len(first)


def test_turtle_export_has_the_paper_shape(candidates, tmp_path):
    records = read_records(candidates)
    path = tmp_path / "data.ttl"
    n = export_turtle(records, path)
    assert n == sum(1 for r in records if r.position > 0)
    store = ox.Store()
    store.load(path=str(path), format=ox.RdfFormat.TURTLE)
    qa = "urn:qanary#"
    for prop in ("hasPositionBeforeFiltering", "hasSPARQL", "qaF1Score", "hasNaturalLanguageRepresentation",
                 "confidenceScore"):
        assert len(list(store.quads_for_pattern(None, ox.NamedNode(qa + prop), None))) == n
    f1s = [float(q.object.value) for q in store.quads_for_pattern(None, ox.NamedNode(qa + "qaF1Score"), None)]
    assert f1s.count(1.0) >= sum(1 for r in records if r.correct)
    text = path.read_text(encoding="utf-8")
    assert "@prefix qa: <urn:qanary#>" in text and "столица" in text


def test_stale_verbalizations_are_rewritten(candidates, tiny_kg_client):
    from dataclasses import replace

    from training.data import reverbalize
    from validator.verbalize import VERSION

    records = read_records(candidates)
    assert all(r.verbalizer == VERSION for r in records if r.position > 0)
    stale = [replace(r, verbalization="old text", verbalizer=VERSION - 1) if r.position > 0 else r for r in records]
    fresh = reverbalize(stale, tiny_kg_client)
    assert sorted((r.id, r.lang, r.position, r.verbalization) for r in fresh) == sorted(
        (r.id, r.lang, r.position, r.verbalization) for r in records)


def test_shape_of_names_complex_candidates():
    from backends.qanswer import shape_of

    assert shape_of("SELECT ?x WHERE { wd:Q183 wdt:P36 ?x }") == "plain"
    assert shape_of("SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x wdt:P131 wd:Q408 }") == "count"
    assert shape_of("ASK WHERE { wd:Q1 wdt:P31 wd:Q5 }") == "ask"
    assert shape_of("SELECT ?x WHERE { VALUES ?x { wd:Q79 wd:Q43 } ?x wdt:P1082 ?v } ORDER BY DESC(?v) LIMIT 1") \
        == "order"
    assert shape_of("SELECT ?x WHERE { ?x wdt:P1082 ?v FILTER(?v > 1000) }") == "filter"


def test_complex_boost_keeps_every_complex_candidate_and_repeats_its_positives():
    from training.data import CandidateRecord

    def record(position, sparql, correct):
        return CandidateRecord(id="q1", lang="en", split="train", dataset="t", kind="answerable", question="q",
                               position=position, backend_score=0.5, sparql=sparql, verbalization=f"v{position}",
                               f1=float(correct), n_answers=1, correct=correct,
                               shape="count" if "COUNT" in sparql else "plain")

    plain = [record(i, f"SELECT ?x WHERE {{ wd:Q{i} wdt:P1 ?x }}", i == 1) for i in range(1, 6)]
    count = [record(i, f"SELECT (COUNT(?x) AS ?n) WHERE {{ ?x wdt:P{i} wd:Q1 }}", i == 6) for i in range(6, 10)]
    records = plain + count
    plain_only = balance(records, mode="up", negatives_per_item=2)
    assert not any(r.position >= 8 for r in plain_only)  # the cap drops low-ranked negatives
    boosted = balance(records, mode="up", negatives_per_item=2, complex_boost=3)
    negatives = {r.position for r in boosted if not r.correct}
    assert {7, 8, 9} <= negatives and not {4, 5} & negatives  # complex negatives survive the cap
    positives = Counter(r.position for r in balance(records, mode="down", negatives_per_item=2, complex_boost=3)
                        if r.correct)
    assert positives == {1: 1, 6: 3}  # a complex positive counts three times
