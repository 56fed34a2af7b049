"""Constant ``FILTER`` conditions (issue 44, case 9): rdflib leaves a falsy filter out of
its algebra, and the guard writes the query from the algebra, so ``ASK { … FILTER(false) }``
ran as true and a QAnswer candidate that finds nothing was answered "Ulm".  Every
constant form is now refused (``constant_filter``); the forms that are not constants
keep their meaning: Oxigraph gives the written query the rows it gives the original."""

from __future__ import annotations

import pytest

from core.errors import CandidateRejected
from kg.sparql import with_prefixes
from qa.candidate import Candidate
from qa.guard import check_query, screen
from tests import tiny_kg

ASK = "ASK { wd:Q937 wdt:P19 ?x . FILTER(%s) }"
SELECT = "SELECT ?x WHERE { wd:Q937 wdt:P19 ?x . FILTER(%s) }"

CONSTANTS = [
    "false", "true", "0", "1", "0.0", "0e0", "1.5", '""', '"a"', '""@en', '"x"@en',
    '"false"^^xsd:boolean', '"true"^^xsd:boolean', '"0"^^xsd:integer', '"1"^^xsd:integer', '"0"^^xsd:decimal',
    '"NaN"^^xsd:double', "<http://example.org/x>", "wd:Q64", "(false)", "((0))", "(((\"\")))",
    "NOW()", "RAND()", "UUID()", "STRUUID()", "BNODE()",
]
"""Every constant condition: boolean, numeric and string literals (true and false in
their effective boolean value), typed and language-tagged literals, IRIs, bracketed
constants, and calls without arguments."""

NOT_CONSTANT = ["?x = wd:Q3012", "?x != wd:Q3012", "!false", "!true", "false || false", "true && false",
                "false && ?x", "-0", "+0", "-1", "isIRI(?x)", "?x"]


@pytest.mark.parametrize("condition", CONSTANTS)
@pytest.mark.parametrize("shape", [ASK, SELECT])
def test_a_constant_filter_is_refused(condition, shape):
    with pytest.raises(CandidateRejected) as caught:
        check_query(shape % condition)
    assert caught.value.reason == "constant_filter"


@pytest.mark.parametrize("text", [
    "ASK { wd:Q937 wdt:P19 ?x . FILTER(?x = wd:Q3012) FILTER(false) }",
    "ASK { wd:Q937 wdt:P19 ?x . FILTER(false) FILTER(?x = wd:Q3012) }",
    "SELECT ?x WHERE { { wd:Q937 wdt:P19 ?x . FILTER(0) } }",
    "SELECT ?x WHERE { wd:Q937 wdt:P19 ?x . { wd:Q937 wdt:P31 ?y . FILTER(\"\") } }",
])
def test_a_constant_filter_beside_others_or_nested_is_refused(text):
    with pytest.raises(CandidateRejected, match="constant_filter"):
        check_query(text)


@pytest.mark.parametrize("condition", NOT_CONSTANT)
@pytest.mark.parametrize("shape", [ASK, SELECT])
def test_what_runs_means_what_was_sent(condition, shape):
    store = tiny_kg.memory_store()
    original = shape % condition
    written = check_query(original)
    assert "FILTER" in written
    assert _rows(store, written) == _rows(store, original)


def test_the_filter_false_candidate_is_no_longer_answered():
    sent = "ASK { wd:Q937 wdt:P19 wd:Q3012 . FILTER(false) }"
    screened = screen([Candidate(sent, 0.9)])
    assert screened.accepted == [] and [r.reason for r in screened.rejected] == ["constant_filter"]
    assert _rows(tiny_kg.memory_store(), sent) is False  # what the backend meant: no


def _rows(store, sparql: str):
    result = store.query(with_prefixes(sparql) if "PREFIX" not in sparql else sparql)
    if isinstance(result, bool) or type(result).__name__ == "QueryBoolean":
        return bool(result)
    return sorted(str(s[0]) for s in result)


@pytest.mark.parametrize("condition", ["0", "false", '""', "true", "1"])
def test_a_constant_having_keeps_its_meaning(condition):
    """rdflib keeps a ``HAVING`` condition whatever it is: the written query keeps it too."""
    original = f"SELECT (COUNT(?x) AS ?n) WHERE {{ wd:Q937 wdt:P19 ?x }} HAVING({condition})"
    written = check_query(original)
    assert "HAVING" in written
    store = tiny_kg.memory_store()
    assert _rows(store, written) == _rows(store, original)
