"""Parser differential (issue 35, item 1): what the engine runs is what the guard checked.

rdflib (the guard's parser) and Oxigraph (the engine's) read some texts differently: rdflib
ends a ``#`` comment at ``\\n`` only, Oxigraph at ``\\r`` too; rdflib expands ``\\u`` escapes
before parsing.  The guard never passes on the candidate's text: it writes the query out
again from rdflib's structure.  For every candidate below, either the guard rejects it,
or the written query (a) parses, by rdflib, to the structure the original did and (b)
gives, run by Oxigraph on the tiny graph, the rows rdflib's own evaluation of the original
gives: both parsers then read one query."""

from __future__ import annotations

import unicodedata

import pytest
from rdflib import Graph

from core.errors import CandidateRejected, KGQueryError
from kg.client import EmbeddedKG
from kg.sparql import with_prefixes
from qa.guard import _NAMESPACES, DEFAULT_LIMIT, check_query
from tests import tiny_kg
from tests.hostile_candidates import TERMINATORS, hostile
from tests.qa.test_guard import ACCEPTED, assert_same_meaning

B = "SELECT ?answer WHERE { wd:Q937 wdt:P19 ?answer "
LISTENER = "http://127.0.0.1:9"
SVC = f"SERVICE <{LISTENER}/sparql> {{ ?s ?p ?answer }}"

LEGITIMATE = {
    "comment_lf": "SELECT ?answer # the birthplace\nWHERE { wd:Q937 wdt:P19 ?answer }",
    "comment_crlf": "SELECT ?answer\r\nWHERE {\r\n  wd:Q937 wdt:P19 ?answer # x\r\n}",
    "tabs": "SELECT\t?answer\tWHERE\t{\twd:Q937\twdt:P19\t?answer\t}",
    "comment_then_service_on_its_line": f"{B}# {SVC}\n}}",
    "label_en": "SELECT ?answer WHERE { ?answer rdfs:label \"Albert Einstein\"@en }",
    "label_ru": "SELECT ?answer WHERE { ?answer rdfs:label \"Альберт Эйнштейн\"@ru }",
    "label_zh": "SELECT ?answer WHERE { ?answer rdfs:label \"阿尔伯特·爱因斯坦\"@zh }",
    "escaped_quote": f"{B}. ?answer rdfs:label ?l FILTER(?l != \"a\\\"b\") }}",
    "escaped_backslash": f"{B}. ?answer rdfs:label ?l FILTER(?l != \"a\\\\b\") }}",
    "escaped_newline": f"{B}. ?answer rdfs:label ?l FILTER(?l != \"a\\nb\\tc\") }}",
    "single_quotes": f"{B}. ?answer rdfs:label ?l FILTER(?l != 'it\\'s') }}",
    "triple_quotes": f"{B}. ?answer rdfs:label ?l FILTER(?l != \"\"\"multi\nline # not a comment\"\"\") }}",
    "hash_in_literal": f"{B}. ?answer rdfs:label ?l FILTER(?l != \"# {SVC}\") }}",
    "long_literal": f"{B}. ?answer rdfs:label ?l FILTER(?l != \"{'x' * 290}\") }}",
    "numbers": "SELECT ?answer WHERE { ?answer wdt:P1082 ?n FILTER(?n > 1e3 && ?n > 1.5 && ?n > -3) }",
    "typed_number": "SELECT ?answer WHERE { ?answer wdt:P1082 ?n FILTER(?n > \"100\"^^xsd:integer) }",
    "dates": "SELECT ?answer WHERE { ?answer wdt:P569 ?d FILTER(?d < \"1900-01-01T00:00:00Z\"^^xsd:dateTime) }",
    "a_keyword": "SELECT ?answer WHERE { ?answer a wd:Q5 }",
    "full_iris": "SELECT ?answer WHERE { <http://www.wikidata.org/entity/Q937> "
                 "<http://www.wikidata.org/prop/direct/P19> ?answer }",
    "semicolons": "SELECT ?answer WHERE { wd:Q937 wdt:P19 ?answer ; wdt:P27 ?c }",
    "commas": "SELECT ?answer WHERE { ?answer wdt:P31 wd:Q5 , wd:Q5 }",
    "inverse": "SELECT ?answer WHERE { wd:Q3012 ^wdt:P19 ?answer }",
    "optional_step": "SELECT ?answer WHERE { wd:Q937 wdt:P19/wdt:P17? ?answer }",
    "alternative": "SELECT ?answer WHERE { wd:Q937 wdt:P19|wdt:P27 ?answer }",
    "count": "SELECT (COUNT(DISTINCT ?x) AS ?answer) WHERE { ?x wdt:P31 wd:Q5 }",
    "order": "SELECT ?answer WHERE { ?answer wdt:P31 wd:Q515 . ?answer wdt:P1082 ?v } ORDER BY DESC(?v) LIMIT 2",
    "group": "SELECT ?answer (COUNT(?x) AS ?n) WHERE { ?x wdt:P19 ?answer } GROUP BY ?answer HAVING(COUNT(?x) >= 1)",
    "ask_true": "ASK { wd:Q64 wdt:P17 wd:Q183 }",
    "ask_filter": "ASK { wd:Q937 wdt:P569 ?d FILTER(YEAR(?d) = 1879) }",
    "regex": f"{B}. ?answer rdfs:label ?l FILTER(REGEX(?l, \"^U\", \"i\")) }}",
    "in_list": "SELECT ?answer WHERE { ?answer wdt:P17 ?c FILTER(?c IN (wd:Q183, wd:Q159)) }",
    "values_pair": "SELECT ?answer WHERE { VALUES (?answer ?p) { (wd:Q937 wdt:P19) (wd:Q7200 wdt:P19) } "
                   "?answer ?p ?o }",
}
"""Texts both parsers read alike, or whose odd parts the writer drops (comments, spacing)."""

DIFFERENTIAL = {
    **{f"service_after_{name}": f"{B}. # ok{char}{SVC} \n}}" for name, char in TERMINATORS.items()},
    "bare_cr_literal": "SELECT ?answer WHERE { wd:Q937 wdt:P19 ?b # \r VALUES ?answer { \"Paris\" }\n}",
    "cr_before_lf": f"{B}. # ok\r{SVC}\r\n}}",
    "hash_escape": f"{B}. \\u0023 }} {SVC} \n}}",
    "escaped_newline_in_comment": f"{B}. # x\\u000A{SVC} \n}}",
    "line_separator": f"{B}. # ok\u2028{SVC} \n}}",
    "paragraph_separator_in_literal": f"{B}. ?answer rdfs:label ?l FILTER(?l != \"a\u2029b\") }}",
    "nel_in_literal": f"{B}. ?answer rdfs:label ?l FILTER(?l != \"a\x85b\") }}",
    "form_feed_space": "SELECT\f?answer WHERE { wd:Q937 wdt:P19 ?answer }",
    "literal_past_limit": f"{B}. ?answer rdfs:label ?l FILTER(?l != \"{'x' * 400}\") }}",
}
"""Texts the two parsers may read differently."""


TIES = frozenset({"accepted/count_superlative"})


def _corpus() -> dict[str, str]:
    return {**{f"legit/{k}": v for k, v in LEGITIMATE.items()}, **{f"accepted/{k}": v for k, v in ACCEPTED.items()},
            **{f"differential/{k}": v for k, v in DIFFERENTIAL.items()},
            **{f"hostile/{kind}/{name}": v for kind, name, v in hostile(LISTENER)}}


@pytest.fixture(scope="module")
def graphs() -> tuple[Graph, EmbeddedKG]:
    graph = Graph()
    graph.parse(data=tiny_kg.ntriples(), format="nt")
    return graph, EmbeddedKG(tiny_kg.memory_store())


_FAILED = (Exception,)  # either engine may refuse a query at run time (a regular expression it cannot compile)


def _rdflib_rows(graph: Graph, sparql: str) -> set[tuple[str | None, ...]] | bool | str:
    try:
        result = graph.query(sparql, initNs=_NAMESPACES)
        rows = list(result)
    except _FAILED:
        return "failed"
    if result.type == "ASK":
        return bool(result.askAnswer)
    return {tuple(None if row[v] is None else _same_zone(str(row[v])) for v in result.vars) for row in rows}


def _same_zone(value: str) -> str:
    """rdflib writes a UTC time back as ``+00:00``, Oxigraph keeps ``Z``."""
    return value.removesuffix("+00:00") + "Z" if value.endswith("+00:00") else value


def _oxigraph_rows(kg: EmbeddedKG, sparql: str) -> set[tuple[str | None, ...]] | bool | str:
    try:
        result = kg.query(sparql, timeout_s=10)
    except KGQueryError:
        return "failed"
    if result.boolean is not None:
        return result.boolean
    return {tuple(_same_zone(row[v].value) if v in row else None for v in result.vars) for row in result.rows}


def _clean(written: str) -> None:
    """One line of printable text (and the added LIMIT's), no escapes a parser could expand."""
    line = written.removesuffix(f"\nLIMIT {DEFAULT_LIMIT}")
    assert "\\u" not in line and "\\U" not in line
    assert all(unicodedata.category(ch) not in ("Cc", "Zl", "Zp") for ch in line), written


@pytest.mark.slow
def test_written_query_reads_alike_for_both_parsers(graphs: tuple[Graph, EmbeddedKG]):
    graph, kg = graphs
    accepted = rejected = 0
    for name, sparql in _corpus().items():
        try:
            written = check_query(sparql)
        except CandidateRejected:
            rejected += 1
            continue
        accepted += 1
        _clean(written)
        assert_same_meaning(sparql, written)
        ours, theirs = _oxigraph_rows(kg, written), _rdflib_rows(graph, sparql)
        if name in TIES:  # ORDER BY … LIMIT over tied values: each engine may keep another of them
            assert isinstance(ours, set) and isinstance(theirs, set) and len(ours) == len(theirs), name
        else:
            assert ours == theirs, name
    assert accepted >= len(LEGITIMATE) + len(ACCEPTED) and rejected >= 150


@pytest.mark.parametrize("name", sorted(DIFFERENTIAL))
def test_texts_parsers_read_differently_are_rejected(name: str):
    """Each differential text is refused outright, not only neutralized by the writer."""
    with pytest.raises(CandidateRejected) as info:
        check_query(DIFFERENTIAL[name])
    assert info.value.reason in ("control_character", "unicode_escape", "literal", "syntax")


def test_a_comment_and_its_service_never_reach_the_engine(graphs: tuple[Graph, EmbeddedKG]):
    """A ``#`` comment is legitimate (on its own line, ended by ``\\n``) but is dropped: the
    engine gets the query without it, so no engine can read the comment otherwise."""
    written = check_query(LEGITIMATE["comment_then_service_on_its_line"])
    assert written == f"SELECT ?answer WHERE {{ wd:Q937 wdt:P19 ?answer . }}\nLIMIT {DEFAULT_LIMIT}"
    _, kg = graphs
    assert _oxigraph_rows(kg, with_prefixes(written)) == {("http://www.wikidata.org/entity/Q3012",)}
