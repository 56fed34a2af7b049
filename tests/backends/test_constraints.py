"""The constraint shapes (backends/local/constraints.py through the complex layer): lists
of a class under a condition, intersections of two anchors, counts of them, their cue
words per language, the structure their candidates carry, and the allow-list they pass."""

from __future__ import annotations

import pyoxigraph as ox
import pytest

from backends.local.complex import ComplexGenerator, asks_for_set
from backends.local.constraints import CONSTRAINT_SHAPES, ConstraintGenerator
from backends.local.linking import Mention
from kg.client import EmbeddedKG
from qa.candidate import COMPLEX_SHAPES, SHAPES
from qa.guard import check_query
from qa.reading.analysis import analyze
from tests import tiny_kg

CITY, GERMANY, HUMAN, ULM, EINSTEIN, BERLIN = "Q515", "Q183", "Q5", "Q3012", "Q937", "Q64"


def _at(question: str, name: str, qid: str, score: float = 0.9, instances: int = 0) -> Mention:
    start = question.casefold().index(name.casefold())
    return Mention(0, 1, name, qid, 1.0, 0.5, score, True, 1, False, 10, instances, 0.5,
                   char_start=start, char_end=start + len(name))


def _run(kg: EmbeddedKG, sparql: str) -> list[str]:
    return sorted(t.value.rsplit("/", 1)[-1] for t in kg.query(sparql).column())


def test_the_new_shapes_are_named_and_gated_as_complex_shapes():
    assert set(CONSTRAINT_SHAPES) <= set(SHAPES) and set(CONSTRAINT_SHAPES) <= set(COMPLEX_SHAPES)


@pytest.mark.parametrize(("question", "lang", "cue"), [
    ("Which musicians are from Sweden?", "en", "listing"),
    ("¿Qué músicos son de Suecia?", "es", "listing"),
    ("Welche Musiker kommen aus Schweden?", "de", "listing"),
    ("Quels musiciens viennent de Suède ?", "fr", "listing"),
    ("quali musicisti sono svedesi", "it", "listing"),
    ("Quais músicos são da Suécia?", "pt", "listing"),
    ("Какие музыканты из Швеции?", "ru", "listing"),
    ("Welke muzikanten komen uit Zweden?", "nl", "listing"),
    ("Name the country bordering Germany, Italy and Austria.", "en", "listing"),  # imperative, as « nenne »
    ("Tell me all films directed by Nolan", "en", "listing"),
    ("films in which De Niro and Pacino both appear", "en", "both"),
    ("¿En qué películas actúan juntos De Niro y Pacino?", "es", "both"),
    ("In welchen Filmen spielen De Niro und Pacino beide mit?", "de", "both"),
    ("Dans quels films De Niro et Pacino jouent-ils ensemble ?", "fr", "both"),
    ("In welke films spelen De Niro en Pacino allebei?", "nl", "both"),
    ("Is Clint Eastwood still alive?", "en", "alive"),
    ("¿Sigue vivo Clint Eastwood?", "es", "alive"),
    ("Lebt Clint Eastwood noch?", "de", "alive"),
    ("countries that do not border Germany", "en", "negated"),
    ("Hoeveel films heeft Tarantino geregisseerd?", "nl", "count"),
])
def test_shape_cues_in_every_language(question, lang, cue):
    assert getattr(analyze(question, lang), cue) is True


def test_a_yes_no_question_asks_for_no_set():
    assert not asks_for_set(analyze("Is Berlin a city in Germany?", "en"))
    assert asks_for_set(analyze("Which cities are in Germany?", "en"))


def _with_rivers() -> EmbeddedKG:
    """The tiny graph plus two rivers in Germany: its cities are then a part of what is in Germany."""
    store = tiny_kg.memory_store()
    for qid in ("Q584", "Q1471"):
        store.add(ox.Quad(tiny_kg.e(qid), tiny_kg.P17, tiny_kg.GERMANY))
        store.add(ox.Quad(tiny_kg.e(qid), tiny_kg.P31, tiny_kg.e("Q4022")))
        store.add(ox.Quad(tiny_kg.e(qid), tiny_kg.P27, tiny_kg.GERMANY))  # not only people have German citizenship
    return EmbeddedKG(store)


def test_a_class_that_only_describes_a_relation_makes_no_list(tiny_kg_client):
    question = "Which cities are in Germany?"  # every thing in Germany is a city: the simple reading's
    mentions = [_at(question, "cities", CITY, 0.8, instances=6), _at(question, "Germany", GERMANY)]
    assert not [c for c in ComplexGenerator(tiny_kg_client).candidates(question, "en", mentions) if c.shape == "list"]


def test_a_class_and_a_condition_make_a_list():
    tiny_kg_client = _with_rivers()
    question = "Which cities are in Germany?"
    mentions = [_at(question, "cities", CITY, 0.8, instances=6), _at(question, "Germany", GERMANY)]
    cands = ComplexGenerator(tiny_kg_client).candidates(question, "en", mentions)
    lists = [c for c in cands if c.shape == "list"]
    assert lists, [c.sparql for c in cands]
    top = lists[0]
    assert _run(tiny_kg_client, top.sparql) == [ULM, BERLIN]
    # the structure travels with it: shape, triples (the class last), entities, linking evidence
    assert top.triples == (("?answer", "wdt:P17", "wd:Q183"), ("?answer", "wdt:P31", "wd:Q515"))
    assert set(top.entities) == {CITY, GERMANY} and {link.qid for link in top.links} == {CITY, GERMANY}
    assert dict(top.features)["shape_list"] == 1.0
    # what runs is what the allow-list wrote out from the checked structure
    assert check_query(top.sparql).startswith("SELECT DISTINCT ?answer WHERE { ?answer wdt:P17 wd:Q183 .")


def test_two_anchors_make_an_intersection_of_one_relation(tiny_kg_client):
    question = "Which country are both Ulm and Berlin in?"
    mentions = [_at(question, "Ulm", ULM), _at(question, "Berlin", BERLIN)]
    sets = ConstraintGenerator(tiny_kg_client).sets(analyze(question, "en"), mentions, {}, frozenset({"P17"}))
    assert sets and sets[0].shape == "intersection" and sets[0].named == 1.0
    assert sets[0].triples == (("wd:Q3012", "wdt:P17", "?answer"), ("wd:Q64", "wdt:P17", "?answer"))
    assert _run(tiny_kg_client, f"SELECT ?answer WHERE {{ {' . '.join(' '.join(t) for t in sets[0].triples)} }}") == [
        GERMANY]
    assert all(len({p for _, p, _ in s.triples}) == 1 for s in sets)  # one relation to every anchor


def test_an_empty_combination_is_never_a_set():
    question = "Which cities are in Germany and in Russia?"
    mentions = [_at(question, "cities", CITY, 0.8, instances=6), _at(question, "Germany", GERMANY),
                _at(question, "Russia", "Q159")]
    sets = ConstraintGenerator(_with_rivers()).sets(analyze(question, "en"), mentions, {CITY: ("P31",)},
                                                    frozenset({"P17"}))
    assert sets and all(s.members > 0 for s in sets)  # the cities of Germany alone: none is in both
    assert all(not {"wd:Q183", "wd:Q159"} <= {t for tr in s.triples for t in tr} for s in sets)


def test_a_count_over_a_named_set_keeps_the_answer_variable():
    tiny_kg_client = _with_rivers()
    question = "How many people have German citizenship?"  # "citizenship" names P27 (the property lexicon)
    mentions = [_at(question, "people", HUMAN, 0.8, instances=2), _at(question, "German", GERMANY)]
    counts = [c for c in ComplexGenerator(tiny_kg_client).candidates(question, "en", mentions) if c.shape == "count"]
    assert counts and counts[0].sparql.startswith("SELECT (COUNT(DISTINCT ?answer) AS ?count) WHERE {")
    assert counts[0].triples == (("?answer", "wdt:P27", "wd:Q183"), ("?answer", "wdt:P31", "wd:Q5"))
    assert [t.value for t in tiny_kg_client.query(counts[0].sparql).column()] == ["1"]  # Einstein
    assert check_query(counts[0].sparql).startswith("SELECT (COUNT(DISTINCT ?answer) AS ?count)")


def test_a_set_the_words_do_not_name_is_listed_but_not_counted(tiny_kg_client):
    question = "How many cities are in Germany?"  # "in" names no property: no count of a guessed relation
    mentions = [_at(question, "cities", CITY, 0.8, instances=6), _at(question, "Germany", GERMANY)]
    assert not ComplexGenerator(tiny_kg_client).candidates(question, "en", mentions)


def test_a_question_with_one_entity_makes_no_intersection(tiny_kg_client):
    question = "Which cities are there?"
    assert ConstraintGenerator(tiny_kg_client).sets(analyze(question, "en"), [_at(question, "cities", CITY, 0.8, 6)],
                                                    {CITY: ("P31",)}, frozenset()) == []


# ---- one set, one candidate; plain intersections; the class asked for ----

def _cand(triples, shape="plain", score=0.5):
    from backends.local.shapes import render_body
    from qa.candidate import Candidate
    return Candidate(f"SELECT DISTINCT ?answer WHERE {{ {render_body(triples)} }}", score, shape=shape,
                     triples=tuple(triples))


FR, DE, IT = "wd:Q142", "wd:Q183", "wd:Q38"


def test_a_symmetric_relation_read_either_way_is_one_set():
    from backends.local.complex import set_key
    assert set_key([("?answer", "wdt:P47", FR), (DE, "wdt:P47", "?answer")]) == set_key(
        [(DE, "wdt:P47", "?answer"), (FR, "wdt:P47", "?answer")])
    assert set_key([("?answer", "wdt:P17", FR)]) != set_key([(FR, "wdt:P17", "?answer")])  # not symmetric


def test_a_plain_reading_of_a_constraint_set_is_that_set_with_the_better_score():
    from backends.local.complex import merge
    a = analyze("Which countries border France and Germany?", "en")
    plain = _cand([(FR, "wdt:P47", "?answer"), ("?answer", "wdt:P47", DE)], score=0.8)
    constraint = _cand([(DE, "wdt:P47", "?answer"), (FR, "wdt:P47", "?answer")], "intersection", 0.6)
    merged = merge(a, [plain], [constraint])
    assert [(c.shape, c.score) for c in merged] == [("intersection", 0.8)]


def test_a_plain_part_of_a_set_of_more_anchors_leaves_an_anchor_out():
    from backends.local.complex import merge
    a = analyze("Which country borders France, Germany and Italy?", "en")
    three = _cand([(FR, "wdt:P47", "?answer"), (DE, "wdt:P47", "?answer"), (IT, "wdt:P47", "?answer")],
                  "conditions", 0.6)
    pair = _cand([(FR, "wdt:P47", "?answer"), (IT, "wdt:P47", "?answer")], score=0.9)
    one = _cand([(FR, "wdt:P47", "?answer")], score=0.9)  # one anchor: another reading, kept
    merged = merge(a, [pair, one], [three])
    assert [c.shape for c in merged] == ["plain", "conditions"] and merged[0].triples == one.triples


def test_a_plain_intersection_is_gated_as_one_when_a_set_is_asked_for():
    from backends.local.complex import as_intersections
    pair = _cand([(FR, "wdt:P37", "?answer"), (DE, "wdt:P37", "?answer")])
    mixed = _cand([(FR, "wdt:P47", "?answer"), (DE, "wdt:P17", "?answer")])  # two relations: no intersection
    typed = _cand([(FR, "wdt:P47", "?answer"), ("?answer", "wdt:P31", "wd:Q6256")])
    assert [c.shape for c in as_intersections([pair, mixed, typed])] == ["intersection", "plain", "plain"]
    # a third anchor tied the same way by another reading: the question names more than this pair
    other = _cand([(FR, "wdt:P37", "?answer"), (IT, "wdt:P37", "?answer")])
    assert {c.shape for c in as_intersections([pair, other])} == {"plain"}


def test_the_class_after_a_listing_word_is_the_class_asked_for():
    from backends.local.constraints import asked_first
    question = "Quels pays ont l'allemand et le français comme langues officielles ?"
    a = analyze(question, "fr")
    french, german, country = (_at(question, "français", "Q150"), _at(question, "allemand", "Q188"),
                               _at(question, "pays", "Q6256", 0.65))
    assert [m.qid for m in asked_first(a, [french, german, country])] == ["Q6256", "Q150", "Q188"]


def test_a_name_that_also_has_instances_is_an_anchor_of_the_class_asked_for():
    # a language has instances (its dialects) and is what "countries with German and French
    # as official languages" ties its members to
    store = tiny_kg.memory_store()
    german, french, canton, dialect = (tiny_kg.e(q) for q in ("Q188", "Q150", "Q23058", "Q9999"))
    official = tiny_kg.p("P37")
    for qid, langs, kind in (("Q39", (german, french), tiny_kg.COUNTRY), ("Q31", (german, french), tiny_kg.COUNTRY),
                             ("Q32", (german, french), tiny_kg.COUNTRY), ("Q183", (german,), tiny_kg.COUNTRY),
                             ("Q142", (french,), tiny_kg.COUNTRY), ("Q11", (german, french), canton),
                             ("Q12", (german, french), canton), ("Q13", (german, french), canton)):
        store.add(ox.Quad(tiny_kg.e(qid), tiny_kg.P31, kind))
        for lang in langs:
            store.add(ox.Quad(tiny_kg.e(qid), official, lang))
    store.add(ox.Quad(tiny_kg.e("Q9998"), tiny_kg.P31, german))  # a dialect: German "has instances"
    store.add(ox.Quad(tiny_kg.e("Q9997"), tiny_kg.P31, french))
    store.add(ox.Quad(dialect, tiny_kg.P31, tiny_kg.e("Q34770")))
    kg = EmbeddedKG(store)
    question = "Which countries have German and French as official languages?"
    mentions = [_at(question, "German", "Q188", 0.87), _at(question, "countries", "Q6256", 0.81),
                _at(question, "French", "Q150", 0.77)]
    classes = {"Q188": ("P31",), "Q6256": ("P31",), "Q150": ("P31",)}
    sets = ConstraintGenerator(kg).sets(analyze(question, "en"), mentions, classes, frozenset({"P37"}))
    wanted = {("?answer", "wdt:P37", "wd:Q188"), ("?answer", "wdt:P37", "wd:Q150"), ("?answer", "wdt:P31", "wd:Q6256")}
    found = [s for s in sets if set(s.triples) == wanted]
    assert found and found[0].members == 3, [s.triples for s in sets]


def test_a_longer_name_matched_as_written_is_read_before_a_shorter_one_inside_it():
    from dataclasses import replace

    from backends.local.constraints import _separate
    question = "¿Qué países están en América del Sur?"
    america = replace(_at(question, "América", "Q30", 0.77), kind="alias")
    south = replace(_at(question, "América del Sur", "Q18", 0.75), kind="alias")
    assert [m.qid for m in _separate([america, south])] == ["Q18"]
    fuzzy = replace(south, kind="fuzzy")  # not as written: the better score decides
    assert [m.qid for m in _separate([america, fuzzy])] == ["Q30"]
    weak = replace(south, score=0.6)  # much weaker: the shorter name stays
    assert [m.qid for m in _separate([america, weak])] == ["Q30"]


def test_an_intersection_is_also_said_with_the_class_asked_for_when_every_member_has_it():
    film, tv, hanks, ryan = "Q11424", "Q5398426", "Q2263", "Q167498"

    def kg(*typed: tuple[str, str]) -> EmbeddedKG:
        store = ox.Store()
        for work in {w for w, _ in typed}:
            store.extend([ox.Quad(tiny_kg.e(work), tiny_kg.p("P161"), tiny_kg.e(hanks)),
                          ox.Quad(tiny_kg.e(work), tiny_kg.p("P161"), tiny_kg.e(ryan))])
        store.extend(ox.Quad(tiny_kg.e(work), tiny_kg.p("P31"), tiny_kg.e(cls)) for work, cls in typed)
        return EmbeddedKG(store)

    question = "Which films star both Tom Hanks and Meg Ryan?"
    mentions = [_at(question, "films", film, 0.8), _at(question, "Tom Hanks", hanks), _at(question, "Meg Ryan", ryan)]
    a = analyze(question, "en")
    sets = ConstraintGenerator(kg(("Q1", film), ("Q2", film))).sets(a, mentions, {film: ("P31",)}, frozenset({"P161"}))
    typed = [s for s in sets if ("?answer", "wdt:P31", f"wd:{film}") in s.triples]
    assert typed and typed[0].shape == "intersection" and typed[0].members == 2
    assert set(typed[0].triples) == {("?answer", "wdt:P161", f"wd:{hanks}"), ("?answer", "wdt:P161", f"wd:{ryan}"),
                                     ("?answer", "wdt:P31", f"wd:{film}")}
    assert any(s.triples == (("?answer", "wdt:P161", f"wd:{hanks}"), ("?answer", "wdt:P161", f"wd:{ryan}"))
               for s in sets)  # the set without the class stays
    # a member of another class: the class would drop it, so the set is said without it only
    mixed = kg(("Q1", film), ("Q2", film), ("Q3", film), ("Q4", tv))
    sets = ConstraintGenerator(mixed).sets(a, mentions, {film: ("P31",)}, frozenset({"P161"}))
    assert sets and not [s for s in sets if ("?answer", "wdt:P31", f"wd:{film}") in s.triples
                         and ("?answer", "wdt:P161", f"wd:{ryan}") in s.triples]
