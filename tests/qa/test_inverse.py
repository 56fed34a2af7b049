"""The ``inverse`` decision (qa/decisions/inverse.py) over a small real store: a yes/no the
fact's other side contradicts is withheld, with the reply that says the data disagrees."""

from __future__ import annotations

import pyoxigraph as ox
import pytest

from core.errors import KGTimeout
from kg.client import EmbeddedKG, QueryResult
from qa.candidate import Candidate
from qa.decisions import Case
from qa.decisions.inverse import DISAGREES, INVERSES, InverseCheck
from qa.decisions.reply import which_dont_know
from qa.turn import CandidateView
from tests import tiny_kg

NIGERIA, ABUJA, LAGOS = "Q1033", "Q3787", "Q8673"
CHILD, FATHER, MOTHER, OTHER = "Q100", "Q101", "Q102", "Q103"


def _kg() -> EmbeddedKG:
    """Nigeria's capital is Abuja; Lagos and Abuja are each "capital of" Nigeria (Lagos a
    former one); CHILD's father is FATHER and its mother is not said; MOTHER says CHILD is her child."""
    store = ox.Store()
    store.extend([ox.Quad(tiny_kg.e(s), tiny_kg.p(p), tiny_kg.e(o)) for s, p, o in (
        (NIGERIA, "P36", ABUJA), (LAGOS, "P1376", NIGERIA), (ABUJA, "P1376", NIGERIA),
        (CHILD, "P22", FATHER), (MOTHER, "P40", CHILD))])
    return EmbeddedKG(store)


def _case(triple: tuple[str, str, str], answer: bool, question: str = "is it so") -> Case:
    s, p, o = triple
    ask = Candidate(f"ASK {{ wd:{s} wdt:{p} wd:{o} . }}", 0.9, shape="ask",
                    triples=((f"wd:{s}", f"wdt:{p}", f"wd:{o}"),), entities=(s, o), properties=(p,))
    view = CandidateView(ask.sparql, ask.score, shape="ask", entities=ask.entities, properties=ask.properties)
    return Case(question, "en", [ask], [view], chosen=0, result=QueryResult([], [], boolean=answer))


def test_a_yes_the_other_side_names_something_else_for_is_withheld():
    check = InverseCheck(_kg())
    verdict = check(_case((LAGOS, "P1376", NIGERIA), True, "is lagos the capital of nigeria"))
    assert verdict.withheld and verdict.message_key == DISAGREES
    assert ABUJA in verdict.reason
    assert not check(_case((ABUJA, "P1376", NIGERIA), True)).withheld  # both sides agree


def test_a_no_the_other_side_says_yes_to_is_withheld():
    check = InverseCheck(_kg())
    assert check(_case((NIGERIA, "P1376", ABUJA), False)).withheld is False  # nothing says Abuja's P36 is Nigeria
    verdict = check(_case((ABUJA, "P36", NIGERIA), False))
    assert not verdict.withheld  # Nigeria's "capital of" is not Abuja: no inverse statement either way
    assert check(_case((NIGERIA, "P1376", LAGOS), False)).withheld is False
    said = check(_case((FATHER, "P40", CHILD), False))  # the child's side says FATHER is its father
    assert said.withheld and "P22" in said.reason


def test_a_parent_is_contradicted_only_when_both_parents_are_known():
    check = InverseCheck(_kg())
    # OTHER as CHILD's parent: the father is FATHER, but no mother is said, so OTHER may be her
    assert not check(_case((OTHER, "P40", CHILD), True)).withheld
    assert "P40" in INVERSES and {i.pid for i in INVERSES["P40"]} == {"P22", "P25"}


def test_only_an_ask_of_one_triple_between_entities_is_read():
    check = InverseCheck(_kg())
    case = _case((LAGOS, "P1376", NIGERIA), True)
    case.result = QueryResult(["answer"], [])
    assert not check(case).withheld  # no boolean: not a yes/no
    plain = _case((LAGOS, "P9999", NIGERIA), True)
    assert not check(plain).withheld  # no inverse known


def test_the_reply_says_the_data_disagrees():
    case = _case((LAGOS, "P1376", NIGERIA), True, "is lagos the capital of nigeria")
    verdict = InverseCheck(_kg())(case)
    assert which_dont_know(case, verdict) == (DISAGREES, {})


class _Failing:
    def query(self, *args, **kwargs):
        raise KGTimeout("slow")


def test_a_kg_that_cannot_be_asked_leaves_the_answer():
    assert not InverseCheck(_Failing())(_case((LAGOS, "P1376", NIGERIA), True)).withheld  # type: ignore[arg-type]


@pytest.mark.parametrize("pid", sorted(INVERSES))
def test_every_inverse_points_back(pid):
    assert all(any(back.pid == pid for back in INVERSES[inverse.pid]) for inverse in INVERSES[pid])
