"""The allow-list's forms (qa.guard._form): a candidate that differs from one already accepted
only in its entity ids is accepted as that one was, written out with its own ids; anything a
renaming could change is checked as its own text."""

from __future__ import annotations

import pytest
from rdflib.plugins.sparql.parser import parseQuery

from core.errors import CandidateRejected
from qa.candidate import Candidate
from qa.guard import _form, check_query, forget_checks, screen

TWO_ENTITIES = "SELECT DISTINCT ?answer WHERE { ?answer wdt:P161 wd:Q25191 . ?answer wdt:P57 wd:Q3772 . }"


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts rdflib parses from now on (nothing remembered before)."""
    import qa.guard

    parsed: list[str] = []

    def counted(sparql: str):
        parsed.append(sparql)
        return parseQuery(sparql)

    forget_checks()
    monkeypatch.setattr(qa.guard, "parseQuery", counted)
    return parsed


def test_a_form_renames_each_entity_once_in_order_of_appearance():
    text = "SELECT ?answer WHERE { wd:Q90 wdt:P17 ?x . ?x wdt:P36 ?answer . ?answer wdt:P131 wd:Q90 . wd:Q7 wdt:P1 ?x }"
    renamed, ids = _form(text)
    assert ids == ("Q90", "Q7")
    assert renamed == text.replace("wd:Q90", "wd:Q1").replace("wd:Q7", "wd:Q2")


@pytest.mark.parametrize("text", [
    'SELECT ?answer WHERE { wd:Q90 rdfs:label ?answer . FILTER(?answer = "wd:Q7") }',  # a literal
    "SELECT ?answer WHERE { wd:Q90 wdt:P17 ?answer } # wd:Q7",  # a comment
    "SELECT ?answer WHERE { <http://www.wikidata.org/entity/Q90> wdt:P17 ?answer }",  # an IRI
    "SELECT ?answer WHERE { ?wd:Q90 wdt:P17 ?answer }",  # no entity name: a variable, then ":Q90"
    "SELECT ?answer WHERE { wd:Q90-x wdt:P17 ?answer }",  # a longer local name
    "SELECT ?answer WHERE { wd:Q090 wdt:P17 ?answer }",
    "SELECT ?answer WHERE { ?answer wdt:P17 ?x }",  # no entity at all
])
def test_a_text_a_renaming_could_change_has_no_form(text: str):
    assert _form(text) is None


def test_the_same_form_is_parsed_once_and_written_with_each_text_s_own_ids(parses: list[str]):
    other = TWO_ENTITIES.replace("Q25191", "Q40").replace("Q3772", "Q25191")  # swapped and new ids
    accepted = screen([Candidate(TWO_ENTITIES, 0.9), Candidate(other, 0.8)]).accepted
    assert len(parses) == 1
    import qa.guard

    forget_checks()
    alone = [qa.guard._remembered(text).sparql for text in (TWO_ENTITIES, other)]  # each text parsed itself
    assert parses[1:] == [TWO_ENTITIES, other]
    assert [c.sparql for c in accepted] == alone
    assert [c.sparql for c in accepted] == [check_query(TWO_ENTITIES), check_query(other)]
    assert "wd:Q40" in accepted[1].sparql and "wd:Q1 " not in accepted[1].sparql


def test_a_rejected_form_is_rejected_in_the_text_s_own_words(parses: list[str]):
    text = "SELECT ?answer WHERE { wd:Q90 wdt:P17 ?answer . ?a ?b ?c . ?d ?e ?f . }"
    out = screen([Candidate(text, 0.9)])
    assert out.accepted == []
    assert [(r.reason, r.sparql) for r in out.rejected] == [("unanchored_pattern", text)]


def test_a_form_does_not_take_a_text_past_its_size():
    import qa.guard

    forget_checks()
    short = "SELECT ?answer WHERE { wd:Q1 wdt:P17 ?answer . }"
    assert screen([Candidate(short, 0.9)]).accepted
    long = short.replace("wd:Q1 ", "wd:Q" + "9" * 16 + " ")
    padded = long.replace("SELECT", "SELECT" + " " * (qa.guard.MAX_QUERY_CHARS - len(long) + 1), 1)
    with pytest.raises(CandidateRejected) as exc:
        check_query(padded)
    assert exc.value.reason == "too_long"
    assert [r.reason for r in screen([Candidate(padded, 0.9)]).rejected] == ["too_long"]
