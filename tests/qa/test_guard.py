"""The SPARQL allow-list (qa.guard): what it rejects, what it lets through, the LIMIT it adds,
and that every candidate the local generator makes on the dev questions passes."""

from __future__ import annotations

import functools
import random
import re
from pathlib import Path

import pytest
from rdflib.plugins.sparql.algebra import translateQuery
from rdflib.plugins.sparql.parser import parseQuery

from core.errors import BackendError, CandidateRejected
from qa.candidate import Candidate
from qa.guard import _NAMESPACES, DEFAULT_LIMIT, MAX_PATTERNS, MAX_QUERY_CHARS, check_query, forget_checks, screen

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
    # issue 40: NOT EXISTS is admitted (exclusions, "still alive"), priced like the query's own patterns
    "not_exists_scan": ("SELECT ?a WHERE { wd:Q1 wdt:P1 ?a FILTER NOT EXISTS { ?a ?p ?o } }", "variable_predicates"),
    "not_exists_unanchored": ("SELECT ?a WHERE { wd:Q1 wdt:P1 ?a FILTER NOT EXISTS { ?x wdt:P31 ?o } }",
                              "unanchored_pattern"),
    "not_exists_nested": ("SELECT ?a WHERE { wd:Q1 wdt:P1 ?a FILTER NOT EXISTS { ?a wdt:P31 ?o "
                          "FILTER NOT EXISTS { ?o wdt:P279 wd:Q5 } } }", "nested_not_exists"),
    "not_exists_many": ("SELECT ?a WHERE { wd:Q1 wdt:P1 ?a " + " ".join(
        f"FILTER NOT EXISTS {{ ?a wdt:P31 wd:Q{i} }}" for i in range(1, 5)) + " }", "too_many_not_exists"),
    "answer_only_in_not_exists": ("SELECT ?d WHERE { wd:Q1 wdt:P1 ?a FILTER NOT EXISTS { ?a wdt:P31 ?d } }",
                                  "answer_not_from_graph"),
    "service_in_not_exists": ("SELECT ?a WHERE { wd:Q1 wdt:P1 ?a FILTER NOT EXISTS { SERVICE <http://127.0.0.1:9/s> "
                              "{ ?a ?p ?o } } }", "service"),
    "constant_filter_in_not_exists": ("SELECT ?a WHERE { wd:Q1 wdt:P1 ?a FILTER NOT EXISTS { ?a wdt:P31 ?o "
                                      "FILTER(false) } }", "constant_filter"),
    "subquery": ("SELECT ?a WHERE { wd:Q1 wdt:P1 ?a . { SELECT ?a WHERE { wd:Q2 wdt:P1 ?a } } }", "subquery"),
    "extension_function": ("SELECT ?a WHERE { wd:Q1 wdt:P1 ?a FILTER(<http://127.0.0.1:9/f>(?a)) }",
                           "extension_function"),
    "constant_answer": ("SELECT ?answer WHERE { VALUES ?answer { \"Paris\" } wd:Q937 wdt:P19 ?x }",
                        "answer_not_from_graph"),
    "bound_answer": ("SELECT ?answer WHERE { wd:Q937 wdt:P19 ?x . BIND(\"Paris\" AS ?answer) }",
                     "answer_not_from_graph"),
    "no_pattern": ("ASK { FILTER(1 = 1) }", "no_pattern"),
    # issue 35: each failure of the probe, and each price
    "cr_ends_comment_for_the_engine": ("SELECT ?answer WHERE { wd:Q937 wdt:P19 ?answer # \r SERVICE SILENT "
                                       "<http://127.0.0.1:9/x> { ?s ?p ?answer } \n}", "control_character"),
    "line_separator": ("SELECT ?answer WHERE { wd:Q937 wdt:P19 ?answer # \u2028 }", "control_character"),
    "hash_escape": ("SELECT ?answer WHERE { wd:Q937 wdt:P19 ?answer \\u0023 }", "unicode_escape"),
    "sixty_empty_groups": ("SELECT ?answer WHERE { " + "{} " * 60 + "}", "too_nested"),
    "deep_parentheses": ("ASK { wd:Q1 wdt:P1 ?a FILTER(" + "(" * 10 + "true" + ")" * 10 + ") }", "too_nested"),
    "concat_bomb": ("SELECT ?answer WHERE { wd:Q937 wdt:P19 ?answer . ?answer rdfs:label ?s0 "
                    + " ".join(f"BIND(CONCAT(?s{i}, ?s{i}) AS ?s{i + 1})" for i in range(24)) + " }", "too_many_binds"),
    "string_building": ("SELECT ?answer WHERE { wd:Q937 wdt:P19 ?answer . ?answer rdfs:label ?l "
                        "FILTER(UCASE(LCASE(SUBSTR(?l, 1))) != \"\") }", "string_building"),
    "variable_join_chain": ("SELECT ?answer WHERE { ?x1 ?p1 wd:Q5 . ?x1 ?p2 ?x2 . ?x2 ?p3 wd:Q5 . ?x2 ?p4 ?answer }",
                            "variable_predicates"),
    "predicate_between_variables": ("SELECT ?answer WHERE { wd:Q937 wdt:P19 ?x . ?x ?p ?answer }",
                                    "variable_predicates"),
    "wide_join": ("SELECT ?answer WHERE { ?a wdt:P31 wd:Q5 . ?b wdt:P31 wd:Q5 . ?a wdt:P27 ?answer . "
                  "?b wdt:P27 ?answer }", "wide_join"),
    "join_depth": ("SELECT ?answer WHERE { wd:Q937 wdt:P19 ?x1 . ?x1 wdt:P17 ?x2 . ?x2 wdt:P36 ?x3 . "
                   "?x3 wdt:P17 ?x4 . ?x4 wdt:P36 ?answer }", "join_depth"),
    "two_anchored_groups": ("SELECT ?answer WHERE { ?answer wdt:P31 wd:Q5 . ?x wdt:P31 wd:Q5 }", "cartesian_product"),
    "three_entities_facts": ("ASK { wd:Q1 wdt:P1082 ?a . wd:Q2 wdt:P1082 ?b . wd:Q3 wdt:P1082 ?c "
                             "FILTER(?a > ?b && ?b > ?c) }", "cartesian_product"),
    "regex_repetition": ("SELECT ?answer WHERE { wd:Q937 wdt:P19 ?answer . ?answer rdfs:label ?l "
                         "FILTER(REGEX(?l, \"a{1000}{1000}\")) }", "regex"),
    "regex_variable_pattern": ("SELECT ?answer WHERE { wd:Q937 wdt:P19 ?answer . ?answer rdfs:label ?l "
                               "FILTER(REGEX(?l, ?l)) }", "regex"),
    "group_concat": ("SELECT (GROUP_CONCAT(?l) AS ?answer) WHERE { wd:Q937 rdfs:label ?l }", "operator"),
    "replace": ("SELECT ?answer WHERE { wd:Q937 rdfs:label ?answer FILTER(REPLACE(?answer, \"\", \"x\") != \"\") }",
                "operator"),
    "order_by_many": ("SELECT ?answer WHERE { wd:Q937 wdt:P19 ?answer } ORDER BY ?answer ?answer ?answer ?answer",
                      "order_by"),
    "huge_offset": ("SELECT ?answer WHERE { wd:Q937 wdt:P19 ?answer } OFFSET 1000000", "offset_too_large"),
    "many_values": ("SELECT ?answer WHERE { VALUES ?x { " + " ".join(f"wd:Q{i}" for i in range(1, 200))
                    + " } ?x wdt:P19 ?answer }", "too_many_values"),
    "blank_node": ("SELECT ?answer WHERE { wd:Q937 wdt:P19 [] . wd:Q937 wdt:P19 ?answer }", "blank_node"),
    "huge_limit": ("SELECT ?a WHERE { wd:Q1 wdt:P1 ?a } LIMIT 100000", "limit_too_large"),
    "unknown_prefix": ("SELECT ?a WHERE { foo:Q1 wdt:P1 ?a }", "syntax"),
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
    "compare_two_entities": "ASK { wd:Q668 wdt:P1082 ?a . wd:Q843 wdt:P1082 ?b . FILTER(?a > ?b) }",
    "offset_and_comment": "SELECT ?a WHERE { wd:Q1 wdt:P1 ?a } OFFSET 1 # a comment",
    "superlative": "SELECT ?answer WHERE { ?answer wdt:P31 wd:Q6256 . ?answer wdt:P1082 ?value } "
                   "ORDER BY DESC(?value) LIMIT 1",
    "trailing_values": "SELECT ?a WHERE { ?x wdt:P1 ?a } VALUES ?x { wd:Q1 }",
    "count_superlative": "SELECT ?answer WHERE { ?answer wdt:P31 wd:Q6256 . ?x wdt:P17 ?answer } GROUP BY ?answer "
                         "ORDER BY DESC(COUNT(DISTINCT ?x)) LIMIT 1",
    "inverse_path": "SELECT ?answer WHERE { wd:Q3012 ^wdt:P19 ?answer }",
    "sequence_alternative": "SELECT ?answer WHERE { wd:Q937 wdt:P19/(wdt:P17|wdt:P131) ?answer }",
    "having": "SELECT ?p (COUNT(?v) AS ?n) WHERE { wd:Q937 ?p ?v } GROUP BY ?p HAVING(COUNT(?v) > 1)",
    "bind_and_filter": "SELECT ?answer WHERE { wd:Q937 wdt:P569 ?answer "
                       "FILTER(?answer > \"1800-01-01T00:00:00Z\"^^xsd:dateTime) BIND(YEAR(?answer) AS ?y) }",
    "language_literal": "ASK { wd:Q937 rdfs:label \"Albert \\\"Einstein\\\"\\n\"@en }",
    "exclusion": "SELECT DISTINCT ?answer WHERE { wd:Q183 wdt:P47 ?answer . "
                 "FILTER NOT EXISTS { ?answer wdt:P37 wd:Q188 } }",
    "alive": "ASK { FILTER NOT EXISTS { wd:Q254 wdt:P570 ?value } FILTER NOT EXISTS { wd:Q254 wdt:P20 ?value } }",
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
    assert_same_meaning(sparql, out)
    assert "#" not in out and "\n" not in out.removesuffix(f"\nLIMIT {DEFAULT_LIMIT}")  # no comment, one line


@functools.lru_cache(maxsize=8192)
def _algebra(sparql: str):
    """rdflib's algebra of a query, read once per text (the dev-questions test reads each
    written query twice and meets the same query under many questions; the result is only
    read, never changed)."""
    return translateQuery(parseQuery(sparql), initNs=_NAMESPACES).algebra


def _assert_limited(sparql: str) -> None:
    algebra = _algebra(sparql)
    if algebra.name == "SelectQuery":
        assert algebra["p"].name == "Slice" and 0 < algebra["p"]["length"] <= DEFAULT_LIMIT


def assert_same_meaning(original: str, written: str) -> None:
    """The written query parses (by rdflib) to the structure the original did, with the
    added LIMIT as the only difference."""
    before, after = _algebra(original), _algebra(written)
    assert before.name == after.name
    top = before["p"]
    sliced = top.name == "Slice"
    if before.name == "SelectQuery" and dict.get(top, "length") is None:
        assert after["p"].name == "Slice" and dict.get(after["p"], "length") == DEFAULT_LIMIT
        assert after["p"]["p"] == (top["p"] if sliced else top)
        assert (dict.get(after["p"], "start") or 0) == ((dict.get(top, "start") or 0) if sliced else 0)
    else:
        assert after == before


def test_screen_keeps_order_rewrites_and_reports():
    cands = [Candidate(REJECTED["service"][0], 0.9), Candidate(ACCEPTED["plain"], 0.5),
             Candidate(REJECTED["cartesian"][0], 0.4), Candidate(ACCEPTED["ask"], 0.3)]
    out = screen(cands)
    assert [c.score for c in out.accepted] == [0.5, 0.3]
    assert out.accepted[0].sparql.endswith(f"LIMIT {DEFAULT_LIMIT}")
    assert [c.sparql for c in out.as_written] == [cands[1].sparql, cands[3].sparql]  # passed on as the backend wrote
    assert out.accepted[0].entities == ("Q937",) and out.accepted[0].properties == ("P19",)  # read from the text
    assert [r["reason"] for r in out.report()] == ["service", "unanchored_pattern"]
    assert MAX_PATTERNS >= 2


_ID = re.compile(r"(?<=[:/])[QP][1-9]\d*\b")


def _renamed(sparql: str, names: dict[str, str]) -> str:
    """``sparql`` with each Wikidata id replaced by its name in ``names`` (``Q…``/``P…``, in
    order of first appearance in the candidate's own query; a new id gets the next name)."""
    return _ID.sub(lambda m: names.setdefault(m.group(0), f"X{len(names)}"), sparql)


@pytest.mark.slow
def test_every_local_candidate_on_the_dev_questions_passes(shared_kg_source: Path, bench_dir: Path):
    """The local generator's own shapes (``wdt:P31/wdt:P279*``, VALUES, COUNT, ORDER BY … LIMIT,
    FILTER) are on the list: 300 dev questions, every candidate.

    Every candidate passes, and is written out as a query of the same meaning (rdflib's
    algebra, read independently of the guard).  The algebra is compared once per query
    *form*, the query with its entity and property ids renamed in order (10,136 candidates of
    24 forms on 2026-11-28; reading each candidate's algebra twice took two thirds of this
    test's time): every other candidate of a form must be written exactly as the compared
    one, with its own ids in their places, and a consistent renaming of ids cannot give a
    query another meaning."""
    from backends.local.generator import LocalBackend
    from core.settings import load_settings
    from evaluation.formats import load_dataset
    from kg.build import build_kg
    from kg.client import EmbeddedKG
    from kg.store import open_store
    from validator.verbalize import Verbalizer

    settings = load_settings({}, kg_source=shared_kg_source)
    kg = EmbeddedKG(open_store(build_kg(shared_kg_source, settings.cache_dir, progress=False)))
    local = LocalBackend.from_settings(settings, kg)
    verbalizer = Verbalizer(kg)
    questions = [(t.string, t.language) for path in sorted(bench_dir.glob("*.json"))
                 for q in load_dataset(path).questions for t in q.texts]
    random.Random(15).shuffle(questions)
    seen = 0
    written_as: dict[str, str] = {}  # a form -> how its compared candidate was written out (ids renamed alike)
    for text, lang in questions[:300]:
        cands = local.ask(text, lang)
        out = screen(cands)
        assert not out.rejected, (text, [(r.reason, r.detail, r.sparql) for r in out.rejected])
        for original, c in zip(cands, out.accepted, strict=True):
            names: dict[str, str] = {}
            form, written = _renamed(original.sparql, names), _renamed(c.sparql, names)
            if form not in written_as:
                _assert_limited(c.sparql)
                assert_same_meaning(original.sparql, c.sparql)
                written_as[form] = written
            assert written == written_as[form], (text, original.sparql, c.sparql)
        # the validator reads the written queries as it read the generator's: same scores, same answers
        assert (verbalizer.readings([c.sparql for c in out.accepted], lang)
                == verbalizer.readings([c.sparql for c in cands], lang)), text
        seen += len(cands)
    print(f"{seen} candidates, {len(written_as)} forms")
    assert seen > 1000 and len(written_as) >= 10


def test_parsing_has_a_time_limit(monkeypatch: pytest.MonkeyPatch):
    """A parse that does not end within PARSE_TIMEOUT_S rejects its candidate and the next
    candidate is screened (a parser slow on some input: a double, since the size limits
    keep every real input well under the limit)."""
    import threading

    import qa.guard

    limit = qa.guard.PARSE_TIMEOUT_S
    release = threading.Event()

    def stuck(sparql: str):
        release.wait(30)
        return parseQuery(sparql)

    forget_checks()  # an outcome remembered from another test would not parse at all
    monkeypatch.setattr(qa.guard, "PARSE_TIMEOUT_S", 0.2)
    monkeypatch.setattr(qa.guard, "parseQuery", stuck)
    try:
        out = screen([Candidate(ACCEPTED["two_hop"], 0.9)])
    finally:
        release.set()
    assert out.accepted == [] and [r["reason"] for r in out.report()] == ["parse_timeout"]
    monkeypatch.setattr(qa.guard, "parseQuery", parseQuery)
    monkeypatch.setattr(qa.guard, "PARSE_TIMEOUT_S", limit)
    assert screen([Candidate(ACCEPTED["plain"], 0.5)]).accepted
    # a time-out is a fault of the moment, not of the text: the same candidate passes now
    assert [c.sparql for c in screen([Candidate(ACCEPTED["two_hop"], 0.9)]).accepted] == [
        check_query(ACCEPTED["two_hop"])]


def test_a_text_checked_again_gets_the_same_outcome(monkeypatch: pytest.MonkeyPatch):
    """An outcome is remembered by the query's text: the same written query or the same
    rejection (reason and detail, raised afresh each time) without parsing again."""
    import qa.guard

    forget_checks()
    texts = [ACCEPTED["two_hop"], ACCEPTED["plain"], *(text for text, _ in REJECTED.values())]
    first = screen([Candidate(t, 0.5) for t in texts])
    parsed: list[str] = []

    def counted(sparql: str):
        parsed.append(sparql)
        return parseQuery(sparql)

    monkeypatch.setattr(qa.guard, "parseQuery", counted)
    again = screen([Candidate(t, 0.5) for t in texts])
    assert parsed == []
    assert [c.sparql for c in again.accepted] == [c.sparql for c in first.accepted]
    assert again.report() == first.report() and len(again.rejected) == len(REJECTED)
    assert all(a is not b for a, b in zip(again.rejected, first.rejected, strict=True))
    forget_checks()
    screen([Candidate(ACCEPTED["plain"], 0.5)])
    assert parsed == [ACCEPTED["plain"].replace("wd:Q937", "wd:Q1")]  # its form (qa.guard._form)


def test_parses_share_one_thread_per_caller():
    """The parses of one calling thread run in one parse thread, kept between candidates
    (not a thread started per candidate)."""
    import threading

    forget_checks()
    before = {t.ident for t in threading.enumerate() if t.name == "guard-parse"}
    texts = [f"SELECT ?answer WHERE {{ wd:Q{i} wdt:P19 ?answer }}" for i in range(1, 30)]
    assert len(screen([Candidate(t, 0.5) for t in texts]).accepted) == len(texts)
    started = {t.ident for t in threading.enumerate() if t.name == "guard-parse"} - before
    assert len(started) <= 1


def test_triple_patterns_keep_the_candidates_order():
    """rdflib sorts a BGP's patterns by its own heuristic; the guard writes them in the
    candidate's order (its verbalization, and the validator's score, are then the same) and
    leaves rdflib's translation as it was for anyone else."""
    from rdflib.plugins.sparql import algebra

    before = algebra.reorderTriples
    sparql = "SELECT DISTINCT ?answer WHERE { wd:Q5482740 wdt:P31 ?answer . ?answer wdt:P31 wd:Q4164871 . }"
    assert check_query(sparql) == f"{sparql}\nLIMIT {DEFAULT_LIMIT}"
    assert algebra.reorderTriples is before


def test_a_forked_process_parses_in_a_thread_of_its_own():
    """A process forked after its parent parsed (``kgqa serve``'s workers, forked from a warmed
    template) does not wait on the parent's parse thread, which it does not have."""
    import multiprocessing

    forget_checks()
    assert screen([Candidate(ACCEPTED["plain"], 0.5)]).accepted  # the parent's parse thread runs

    def child(out) -> None:
        out.send([r.reason for r in screen([Candidate(ACCEPTED["two_hop"], 0.9)]).rejected])

    reader, writer = multiprocessing.get_context("fork").Pipe(duplex=False)
    process = multiprocessing.get_context("fork").Process(target=child, args=(writer,))
    process.start()
    assert reader.poll(30)
    assert reader.recv() == []
    process.join(10)
