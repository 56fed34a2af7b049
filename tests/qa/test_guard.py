"""The SPARQL allow-list (qa.guard): what it rejects, what it lets through, the LIMIT it adds,
and that every candidate the local generator makes on the dev questions passes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from rdflib.plugins.sparql.algebra import translateQuery
from rdflib.plugins.sparql.parser import parseQuery

from core.errors import BackendError, CandidateRejected
from qa.candidate import Candidate
from qa.guard import _NAMESPACES, DEFAULT_LIMIT, MAX_PATTERNS, MAX_QUERY_CHARS, check_query, screen

REJECTED = {
    "cartesian": ("SELECT DISTINCT ?answer WHERE { wd:Q937 wdt:P19 ?answer . ?a ?b ?c . ?d ?e ?f . }",
                  "unanchored_pattern"),
    "order_by_cartesian": ("SELECT ?answer WHERE { wd:Q937 wdt:P19 ?answer . ?a ?b ?c . ?d ?e ?f . } "
                           "ORDER BY ?a ?d LIMIT 1", "unanchored_pattern"),
    "one_scan": ("SELECT ?a WHERE { ?a wdt:P31 ?b }", "unanchored_pattern"),
    "service": ("SELECT ?answer WHERE { SERVICE <http://127.0.0.1:9/sparql> { wd:Q1 ?p ?answer } }", "service"),
    "from": ("SELECT ?answer FROM <http://127.0.0.1:9/g> WHERE { wd:Q937 wdt:P19 ?answer }", "dataset_clause"),
    "from_named": ("SELECT ?answer FROM NAMED <http://127.0.0.1:9/g> WHERE { wd:Q937 wdt:P19 ?answer }",
                   "dataset_clause"),
    "graph": ("SELECT ?answer WHERE { GRAPH ?g { wd:Q937 wdt:P19 ?answer } }", "graph"),
    "insert": ("INSERT DATA { wd:Q1 wdt:P1 wd:Q2 }", "update"),
    "delete": ("DELETE WHERE { ?s ?p ?o }", "update"),
    "load": ("LOAD <http://127.0.0.1:9/x>", "update"),
    "drop_after_query": ("SELECT ?a WHERE { wd:Q1 wdt:P1 ?a } ; DROP ALL", "syntax"),
    "construct": ("CONSTRUCT { ?s ?p ?o } WHERE { wd:Q5 ?p ?o }", "not_select_or_ask"),
    "describe": ("DESCRIBE wd:Q5", "not_select_or_ask"),
    "free_star": ("SELECT ?answer WHERE { ?answer wdt:P279* ?y }", "unbounded_path"),
    "star_of_alternatives": ("SELECT ?answer WHERE { wd:Q5 (wdt:P279|wdt:P31)* ?answer }", "unbounded_path"),
    "two_stars": ("SELECT ?answer WHERE { wd:Q5 wdt:P279*/wdt:P31+ ?answer }", "unbounded_path"),
    "star_between_variables": ("SELECT ?answer WHERE { wd:Q5 wdt:P31 ?x . ?x wdt:P279* ?answer }",
                               "unbounded_path"),
    "negated": ("SELECT ?answer WHERE { wd:Q5 !wdt:P31 ?answer }", "negated_path"),
    "union": ("SELECT ?a WHERE { { wd:Q1 wdt:P1 ?a } UNION { ?a ?b ?c } }", "union"),
    "optional": ("SELECT ?a WHERE { wd:Q1 wdt:P1 ?a OPTIONAL { ?a ?b ?c } }", "optional"),
    "exists": ("SELECT ?a WHERE { wd:Q1 wdt:P1 ?a FILTER EXISTS { ?x ?y ?z } }", "operator"),
    "subquery": ("SELECT ?a WHERE { wd:Q1 wdt:P1 ?a . { SELECT ?a WHERE { wd:Q2 wdt:P1 ?a } } }", "subquery"),
    "extension_function": ("SELECT ?a WHERE { wd:Q1 wdt:P1 ?a FILTER(<http://127.0.0.1:9/f>(?a)) }",
                           "extension_function"),
    "huge_limit": ("SELECT ?a WHERE { wd:Q1 wdt:P1 ?a } LIMIT 100000", "limit_too_large"),
    "unknown_prefix": ("SELECT ?a WHERE { foo:Q1 wdt:P1 ?a }", "syntax"),
    "trailing_values": ("SELECT ?a WHERE { ?x wdt:P1 ?a } VALUES ?x { wd:Q1 }", "no_limit"),
    "too_many_patterns": ("SELECT ?a WHERE { " + " ".join(f"wd:Q1 wdt:P{i} ?a ." for i in range(1, 20)) + " }",
                          "too_many_patterns"),
    "too_long": ("SELECT ?a WHERE { wd:Q1 wdt:P1 ?a } #" + "x" * MAX_QUERY_CHARS, "too_long"),
}

ACCEPTED = {
    "plain": "SELECT DISTINCT ?answer WHERE { wd:Q937 wdt:P19 ?answer . }",
    "two_hop": "SELECT DISTINCT ?answer WHERE { wd:Q329056 wdt:P495 ?x . ?x wdt:P2299 ?answer . }",
    "class_closure": "SELECT ?x WHERE { ?x wdt:P31/wdt:P279* wd:Q5 . ?x wdt:P19 wd:Q64 }",
    "values": "SELECT ?a WHERE { VALUES ?x { wd:Q1 wd:Q2 } ?x wdt:P1 ?a } ORDER BY DESC(?a)",
    "count": "SELECT (COUNT(DISTINCT ?x) AS ?answer) WHERE { ?x wdt:P102 wd:Q29468 }",
    "filter": "SELECT ?answer WHERE { ?answer wdt:P31 wd:Q515 . ?answer wdt:P1082 ?n FILTER(?n > 1000000) }",
    "ask": "ASK { wd:Q64 wdt:P17 wd:Q183 }",
    "offset_and_comment": "SELECT ?a WHERE { wd:Q1 wdt:P1 ?a } OFFSET 1 # a comment",
    "superlative": "SELECT ?answer WHERE { ?answer wdt:P31 wd:Q6256 . ?answer wdt:P1082 ?value } "
                   "ORDER BY DESC(?value) LIMIT 1",
}


@pytest.mark.parametrize("name", sorted(REJECTED))
def test_off_the_list_is_rejected_with_its_reason(name: str):
    sparql, reason = REJECTED[name]
    with pytest.raises(CandidateRejected) as info:
        check_query(sparql)
    assert info.value.reason == reason
    assert info.value.sparql == sparql
    assert isinstance(info.value, BackendError)


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_allowed_shapes_pass_and_every_select_gets_a_limit(name: str):
    sparql = ACCEPTED[name]
    out = check_query(sparql)
    _assert_limited(out)
    if "LIMIT" in sparql or sparql.startswith("ASK"):
        assert out == sparql
    else:
        assert out == f"{sparql}\nLIMIT {DEFAULT_LIMIT}"


def _assert_limited(sparql: str) -> None:
    algebra = translateQuery(parseQuery(sparql), initNs=_NAMESPACES).algebra
    if algebra.name == "SelectQuery":
        assert algebra["p"].name == "Slice" and 0 < algebra["p"]["length"] <= DEFAULT_LIMIT


def test_screen_keeps_order_rewrites_and_reports():
    cands = [Candidate(REJECTED["service"][0], 0.9), Candidate(ACCEPTED["plain"], 0.5),
             Candidate(REJECTED["cartesian"][0], 0.4), Candidate(ACCEPTED["ask"], 0.3)]
    out = screen(cands)
    assert [c.score for c in out.accepted] == [0.5, 0.3]
    assert out.accepted[0].sparql.endswith(f"LIMIT {DEFAULT_LIMIT}")
    assert [c.sparql for c in out.as_written] == [cands[1].sparql, cands[3].sparql]
    assert out.accepted[0].entities == ("Q937",) and out.accepted[0].properties == ("P19",)  # read from the text
    assert [r["reason"] for r in out.report()] == ["service", "unanchored_pattern"]
    assert MAX_PATTERNS >= 2


@pytest.mark.slow
def test_every_local_candidate_on_the_dev_questions_passes(shared_kg_source: Path, bench_dir: Path):
    """The local generator's own shapes (``wdt:P31/wdt:P279*``, VALUES, COUNT, ORDER BY … LIMIT,
    FILTER) are on the list: 300 dev questions, every candidate."""
    from backends.local.generator import LocalBackend
    from core.settings import load_settings
    from evaluation.formats import load_dataset
    from kg.build import build_kg
    from kg.client import EmbeddedKG
    from kg.store import open_store

    settings = load_settings({}, kg_source=shared_kg_source)
    kg = EmbeddedKG(open_store(build_kg(shared_kg_source, settings.cache_dir, progress=False)))
    local = LocalBackend.from_settings(settings, kg)
    questions = [(t.string, t.language) for path in sorted(bench_dir.glob("*.json"))
                 for q in load_dataset(path).questions for t in q.texts]
    random.Random(15).shuffle(questions)
    seen = 0
    for text, lang in questions[:300]:
        cands = local.ask(text, lang)
        out = screen(cands)
        assert not out.rejected, (text, [(r.reason, r.detail, r.sparql) for r in out.rejected])
        for c in out.accepted:
            _assert_limited(c.sparql)
        seen += len(cands)
    assert seen > 1000
