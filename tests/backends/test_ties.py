"""Tie queries (backends/local/ties.py): the entity's statements are read first only when
they are the smaller side, and either form counts the same members per property."""

from __future__ import annotations

import pyoxigraph as ox
import pytest

from backends.local.aggregates import FactReads
from backends.local.ties import INCOMING_CAP, ORDER, TieOrder
from core.errors import KGTimeout
from kg.client import EmbeddedKG
from tests import tiny_kg

FILM, COUNTRY, DIRECTOR, LANGUAGE = "Q11424", "Q6256", "Q25191", "Q1860"


def _kg() -> EmbeddedKG:
    """60 films, 3 directed by DIRECTOR (one also written by him); 4 countries, 40
    things in LANGUAGE (the 4 countries among them)."""
    store = ox.Store()
    quads = [ox.Quad(tiny_kg.e(f"Q{1000 + i}"), tiny_kg.p("P31"), tiny_kg.e(FILM)) for i in range(60)]
    quads += [ox.Quad(tiny_kg.e(f"Q{1000 + i}"), tiny_kg.p("P57"), tiny_kg.e(DIRECTOR)) for i in range(3)]
    quads.append(ox.Quad(tiny_kg.e("Q1000"), tiny_kg.p("P58"), tiny_kg.e(DIRECTOR)))
    quads.append(ox.Quad(tiny_kg.e("Q5000"), tiny_kg.p("P57"), tiny_kg.e(DIRECTOR)))  # no film
    quads += [ox.Quad(tiny_kg.e(f"Q{2000 + i}"), tiny_kg.p("P31"), tiny_kg.e(COUNTRY)) for i in range(4)]
    quads += [ox.Quad(tiny_kg.e(f"Q{2000 + i}"), tiny_kg.p("P407"), tiny_kg.e(LANGUAGE)) for i in range(40)]
    store.extend(quads)
    return EmbeddedKG(store)


def _ties(kg: EmbeddedKG, group: str) -> list[tuple[str, int]]:
    rows = kg.query(f"SELECT ?p (COUNT(DISTINCT ?answer) AS ?n) WHERE {{ {group} }} GROUP BY ?p {ORDER}").rows
    return [(row["p"].value.rsplit("/", 1)[-1], int(row["n"].value)) for row in rows]


def test_the_entity_is_read_first_when_it_has_fewer_statements_than_the_class_members():
    kg, order = _kg(), TieOrder(_kg())
    tie, film = ("?answer", "?p", f"wd:{DIRECTOR}"), ("?answer", "wdt:P31", f"wd:{FILM}")
    group = order.body(tie, [film])
    assert "FILTER EXISTS" in group  # 4 statements about the director, 60 films
    assert _ties(kg, group) == _ties(kg, f"?answer ?p wd:{DIRECTOR} . ?answer wdt:P31 wd:{FILM}") == [
        ("P57", 3), ("P58", 1)]


def test_the_class_is_read_first_when_it_is_the_smaller_side():
    kg = _kg()
    tie, country = ("?answer", "?p", f"wd:{LANGUAGE}"), ("?answer", "wdt:P31", f"wd:{COUNTRY}")
    group = TieOrder(kg).body(tie, [country])
    assert "FILTER" not in group and group == f"?answer wdt:P31 wd:{COUNTRY} . ?answer ?p wd:{LANGUAGE}"
    assert TieOrder(kg).body(tie, [country], tie_first=True).startswith("?answer ?p")
    assert _ties(kg, group) == [("P407", 4)]


@pytest.mark.parametrize("tie, rest", [
    ((f"wd:{DIRECTOR}", "?p", "?answer"), [("?answer", "wdt:P31", f"wd:{FILM}")]),  # the other way round
    (("?answer", "?p", f"wd:{DIRECTOR}"), [("?answer", "wdt:P31", "?c")]),  # no fixed class
    (("?answer", "?p", f"wd:{DIRECTOR}"), [("?answer", "wdt:P31", f"wd:{FILM}"), ("?answer", "wdt:P57", "?d")]),
])
def test_other_bodies_are_written_as_given(tie, rest):
    assert "FILTER" not in TieOrder(_kg()).body(tie, rest)


def test_counts_are_capped_and_cached_and_a_failed_count_keeps_the_patterns():
    kg = _kg()
    order = TieOrder(kg)
    assert order.incoming(f"wd:{DIRECTOR}") == 5 and order.members(("?answer", "wdt:P31", f"wd:{FILM}")) == 60
    assert order.incoming(f"wd:{LANGUAGE}") == 40 < INCOMING_CAP

    class Failing:
        calls = 0

        def query(self, sparql, *, timeout_s=None, max_rows=None):
            Failing.calls += 1
            raise KGTimeout(timeout_s or 1.0)

    failing = TieOrder(Failing())  # a fault that cannot be caused on a small store: every query times out
    tie, film = ("?answer", "?p", f"wd:{DIRECTOR}"), ("?answer", "wdt:P31", f"wd:{FILM}")
    assert failing.body(tie, [film]) == f"?answer wdt:P31 wd:{FILM} . ?answer ?p wd:{DIRECTOR}"
    failing.body(tie, [film])
    assert Failing.calls == 2  # not remembered: the next question counts again


def test_fact_reads_give_the_same_ties_in_either_form():
    kg = _kg()
    film = ("?answer", "wdt:P31", f"wd:{FILM}")
    fast = FactReads(kg).ties(DIRECTOR, [film], 3)
    assert fast == [("P57", False, 3), ("P58", False, 1)]

    class ClassFirst(TieOrder):
        def _entity_first(self, tie, rest):
            return False

    assert FactReads(kg, order=ClassFirst(kg)).ties(DIRECTOR, [film], 3) == fast
