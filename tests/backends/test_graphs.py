"""Query graphs (:mod:`backends.local.graphs`): which graphs the local generator builds from
a question's anchors, over the tiny KG."""

from __future__ import annotations

from dataclasses import replace

from backends.local.generator import LocalBackend
from backends.local.shapes import backward, forward
from kg.client import EmbeddedKG
from qa.candidate import Candidate

BERLIN, ULM = "Q64", "Q3012"


def _answers(kg: EmbeddedKG, sparql: str) -> set[str]:
    return {t.value.rsplit("/", 1)[-1] for t in kg.query(sparql).column()}


def test_one_hop_graphs_are_every_property_at_each_anchor_with_its_answer_count(backend: LocalBackend,
                                                                                  tiny_kg_client: EmbeddedKG):
    q = backend._analyze("Where was Albert Einstein born?", "en", None)
    graphs = backend.graphs.one_hop(q)
    einstein = [g for g in graphs if g.anchor == "Q937"]
    adjacent = backend.reads.adjacency("Q937", outgoing=True) + backend.reads.adjacency("Q937", outgoing=False)
    assert {(g.shape, tuple(g.triples)) for g in einstein} == {
        ("fwd" if a.forward else "bwd", tuple(forward("Q937", a.pid) if a.forward else backward("Q937", a.pid)))
        for a in adjacent}
    for g in einstein:
        assert g.answers == len(_answers(tiny_kg_client, g.sparql))
    born = next(g for g in einstein if g.triples == forward("Q937", "P19"))
    assert born.features["prop_score"] > 0 and born.words == frozenset({"born"})
    assert all(g.features["prop_score"] == 0 for g in einstein if g.triples == forward("Q937", "P27"))


def test_a_reading_the_kg_holds_no_value_for_is_never_built_as_a_graph_to_run(backend: LocalBackend):
    """Einstein has no capital (P36): the reading is kept aside, marked, with no score."""
    readings = [c for c in backend.ask("What is the capital of Albert Einstein?", "en") if c.no_value]
    assert [(c.entities, c.properties, c.score) for c in readings] == [(("Q937",), ("P36",), 0.0)]


def test_the_expansions_run_side_by_side_give_what_they_give_one_after_the_other(backend: LocalBackend):
    q = backend._analyze("Which city in Germany was Einstein born in?", "en", None)
    ranked = backend._generate(q)
    graphs = backend.graphs
    together = graphs.expand_concurrently(q, ranked)
    alone = [graphs.narrowed(q, ranked), graphs.pairs(q, ranked), graphs.two_hops(q, ranked)]
    assert [[g.sparql for g in found] for found in together] == [[g.sparql for g in found] for found in alone]
    assert together[1], "no intersection"


def test_type_constrained_candidate(backend: LocalBackend, tiny_kg_client: EmbeddedKG):
    sparqls = [c.sparql for c in backend.ask("Which cities are in Germany?", "en")]
    typed_query = "SELECT DISTINCT ?answer WHERE { ?answer wdt:P17 wd:Q183 . ?answer wdt:P31 wd:Q515 . }"
    assert typed_query in sparqls
    assert _answers(tiny_kg_client, typed_query) == {BERLIN, ULM}


def test_candidates_carry_the_structure_they_were_built_from(backend: LocalBackend):
    cands = backend.ask("Which cities are in Germany?", "en")
    typed_query = "SELECT DISTINCT ?answer WHERE { ?answer wdt:P17 wd:Q183 . ?answer wdt:P31 wd:Q515 . }"
    typed_cand = next(c for c in cands if c.sparql == typed_query)
    assert typed_cand.shape == "plain" and typed_cand.comparison is None
    assert typed_cand.triples == (("?answer", "wdt:P17", "wd:Q183"), ("?answer", "wdt:P31", "wd:Q515"))
    assert (typed_cand.entities, typed_cand.properties) == (("Q183", "Q515"), ("P17", "P31"))
    assert [link.qid for link in typed_cand.links] == ["Q183", "Q515"]  # both named in the question
    germany, city = typed_cand.links
    assert (germany.mention, germany.name, germany.kind) == ("germany", "germany", "label")
    assert (city.mention, city.name, city.kind) == ("cities", "city", "inflected")  # the plural of the name
    assert (germany.span, germany.name_words, city.span, city.name_words) == ((4, 5), 1, (1, 2), 0)
    for c in cands:
        assert all(f"wd:{q}" in c.sparql for q in c.entities) and all(f"wdt:{p}" in c.sparql for p in c.properties)
        assert {link.qid for link in c.links} <= set(c.entities)


def test_two_entity_intersection(backend: LocalBackend, tiny_kg_client: EmbeddedKG):
    cands = backend.generate("Which city in Germany was Einstein born in?", "en")
    pairs = [g for g in cands if g.shape == "and"]
    assert pairs, "no intersection candidate"
    assert any(_answers(tiny_kg_client, g.sparql) == {ULM} for g in pairs)


def test_two_hop_candidate(backend: LocalBackend, tiny_kg_client: EmbeddedKG):
    cands = backend.generate("In which country is the place of birth of Einstein?", "en")
    hops = [g.sparql for g in cands if g.shape == "2hop"]
    assert "SELECT DISTINCT ?answer WHERE { wd:Q937 wdt:P19 ?x . ?x wdt:P17 ?answer . }" in hops


def test_a_reading_whose_every_answer_is_of_the_named_class_reads_the_class_noun(backend: LocalBackend,
                                                                                  tiny_kg_client: EmbeddedKG):
    """Every thing in France is a city (Paris and one more): narrowing "?answer country France"
    by the class changes nothing, so the typed expansion builds no narrowed graph of it, and
    the plain reading reads « cities » itself: the class noun is among what it explains."""
    question = "Which cities are in France?"
    q = backend._analyze(question, "en", None)
    one_hop = next(g for g in backend.graphs.one_hop(q) if g.triples == backward("Q142", "P17"))
    assert one_hop.class_span is None and _answers(tiny_kg_client, one_hop.sparql) == {"Q90", "Q99999999"}
    expanded = [g for g in backend.graphs.narrowed(q, [one_hop]) if g.anchor == "Q142"]
    assert [(g.sparql, g.class_span) for g in expanded] == [(one_hop.sparql, (1, 2))]
    assert expanded[0].features["rest_read"] == 1.0
    assert expanded[0].features["explained"] > one_hop.features["explained"]
    plain = next(g for g in backend._generate(q) if g.sparql == one_hop.sparql)
    assert plain.class_span == (1, 2), "the reading of the class noun takes the place of the one without"
    reading = next(c for c in backend.ask(question, "en") if c.sparql == one_hop.sparql)
    assert (1, 2, "class") in reading.explains and reading.typed_noun == (1, 2)
    # a property whose own phrase reads the noun ("cities" said by the property) reads it
    # already: the noun is only recorded, for the verbalizer, and what it explains is unchanged
    said = replace(one_hop, words=frozenset({"cities"}))
    recorded = [g for g in backend.graphs.narrowed(q, [said]) if g.anchor == "Q142"]
    assert [(g.sparql, g.class_span, g.features) for g in recorded] == [(said.sparql, (1, 2), said.features)]


def test_an_intersection_the_named_class_describes_knows_its_noun(backend: LocalBackend):
    """An intersection without a typing triple knows the class noun the question names when
    that class describes its members (:data:`DESCRIPTIVE_SHARE` of them are instances): every
    thing in France is a city, so « cities » is said of the set; a class none of them is of is
    not, nor is a set that carries its typing triple already."""
    q = backend._analyze("Which cities are in France?", "en", None)
    france = next(m for m in q.mentions if m.qid == "Q142")
    body = (("?answer", "wdt:P17", "wd:Q142"),)
    both = Candidate("SELECT DISTINCT ?answer WHERE { ?answer wdt:P17 wd:Q142 . }", 0.7, shape="intersection",
                     triples=body, entities=("Q142",), properties=("P17",), links=(france.link(),))
    assert backend._class_described(q, both).typed_noun == (1, 2)
    people = backend._analyze("Which humans are in France?", "en", None)
    assert people.classes and backend._class_described(people, both).typed_noun is None
    typed = replace(both, triples=(*body, ("?answer", "wdt:P31", "wd:Q515")), properties=("P17", "P31"))
    assert backend._class_described(q, typed).typed_noun is None
    assert backend._class_described(q, replace(both, shape="plain")).typed_noun is None


def test_an_intersection_weighs_its_property_words_against_the_words_beside_both_names(backend: LocalBackend):
    """"Which city in Germany was Einstein born in?": the pair of "born" at Einstein and "in
    Germany" reads the words beside both names; its one-hop half, the words beside one."""
    q = backend._analyze("Which city in Germany was Einstein born in?", "en", None)
    ranked = backend._generate(q)
    pair = next(g for g in backend.graphs.pairs(q, ranked) if g.triples == [*forward("Q937", "P19"),
                                                                          *backward("Q183", "P17")])
    half = next(g for g in ranked if g.triples == forward("Q937", "P19"))
    assert pair.features["rest_matched"] > half.features["rest_matched"]


def test_a_reading_of_one_answer_of_the_named_class_reads_the_class_noun(backend: LocalBackend,
                                                                          tiny_kg_client: EmbeddedKG):
    """Germany's capital is Berlin, a city: the reading of ``P36`` reads « city » too (one
    answer narrows nothing, so no typed graph is made); a class its answer is not of stays unread."""
    q = backend._analyze("Which city is the capital of Germany?", "en", None)
    capital = next(g for g in backend.graphs.one_hop(q) if g.triples == forward("Q183", "P36"))
    assert capital.answers == 1 and capital.class_span is None
    read = backend.graphs.one_answer_typed(q, [capital])
    assert [(g.sparql, g.class_span) for g in read] == [(capital.sparql, (1, 2))]
    assert read[0].features["explained"] > capital.features["explained"]
    assert read[0] in backend.graphs.narrowed(q, [capital])
    # a noun the property's own phrase reads ("australia capital") is left as it is read
    assert backend.graphs.one_answer_typed(q, [replace(capital, words=frozenset({"city"}))]) == []
    place = backend._analyze("Which country is the capital of Germany?", "en", None)
    capital = next(g for g in backend.graphs.one_hop(place) if g.triples == forward("Q183", "P36"))
    assert place.classes and backend.graphs.one_answer_typed(place, [capital]) == []
