"""Counts, superlatives and filters over entity sets (:mod:`backends.local.aggregates`),
over the tiny KG."""

from __future__ import annotations

from backends.local.aggregates import Aggregates, EntitySet, FactReads, squash
from kg.client import EmbeddedKG
from qa.reading.analysis import analyze

XSD_DECIMAL = "http://www.w3.org/2001/XMLSchema#decimal"
GERMAN_CITIES = EntitySet((("?answer", "wdt:P17", "wd:Q183"), ("?answer", "wdt:P31", "wd:Q515")), 0.8, "base")


class _Emitted(list):
    """What a builder emits: (sparql, score, kind, shape)."""

    def __call__(self, sparql: str, score: float, kind: str, *, shape: str, **_: object) -> None:
        self.append((sparql, score, kind, shape))


def test_fact_reads_give_nothing_for_a_query_that_fails(tiny_kg_client: EmbeddedKG):
    facts = FactReads(tiny_kg_client)
    assert facts.query("SELECT ?x WHERE { ?x ?p }") is None and facts.ask("ASK { ?x ?p }") is None
    assert facts.ask("ASK { wd:Q64 wdt:P17 wd:Q183 }") is True
    values = facts.values(["Q64", "Q3012"], ["P1082"])
    assert [v.value for v in values[("Q64", "P1082")]] == ["3644826"] and ("Q3012", "P1082") not in values


def test_a_set_the_question_chose_is_counted(populated_kg: EmbeddedKG):
    emitted = _Emitted()
    Aggregates(FactReads(populated_kg)).counts(analyze("How many cities are in Germany?", "en"), [GERMAN_CITIES],
                                               [], emitted)
    [(sparql, score, kind, shape)] = emitted
    assert (kind, shape) == ("count", "count") and "COUNT(DISTINCT ?answer)" in sparql
    assert score == 0.5 + 0.45 * 0.8
    assert populated_kg.query(sparql).column()[0].value == "2"


def test_a_count_of_one_member_is_read_after_a_count_of_several(populated_kg: EmbeddedKG):
    from backends.local.aggregates import ONE_COUNTED

    ulm = EntitySet((("?answer", "wdt:P17", "wd:Q183"), ("?answer", "wdt:P31", "wd:Q515"),
                     ("?answer", "wdt:P1082", "?p"), ("wd:Q937", "wdt:P19", "?answer")), 0.9, "base")
    emitted = _Emitted()
    Aggregates(FactReads(populated_kg)).counts(analyze("How many cities are in Germany?", "en"), [ulm, GERMAN_CITIES],
                                               [], emitted)
    (one, one_score, *_), (several, several_score, *_) = emitted
    assert populated_kg.query(one).column()[0].value == "1" and populated_kg.query(several).column()[0].value == "2"
    assert one_score == (0.5 + 0.45 * 0.9) * ONE_COUNTED < several_score


def test_a_set_is_ordered_by_the_property_the_superlative_reads(populated_kg: EmbeddedKG):
    question = analyze("Which German city is the most populous?", "en")
    emitted = _Emitted()
    Aggregates(FactReads(populated_kg)).superlatives(question, [GERMAN_CITIES], [], emitted)
    assert [kind for _, _, kind, _ in emitted] == ["superlative"]
    assert [t.value.rsplit("/", 1)[-1] for t in populated_kg.query(emitted[0][0]).column()] == ["Q64"]
    assert squash(0.7) == 0.7 and 0.5 < squash(3.0) < 1.0


def test_symmetric_relations_the_kg_disagrees_about_give_no_superlative(populated_kg, tiny_store):
    import pyoxigraph as ox

    from tests.tiny_kg import FRANCE, RUSSIA, p
    from tests.tiny_kg import GERMANY as GERMANY_NODE

    border = p("P47")
    # Germany lists France and Russia as neighbours, but only France lists Germany back
    for s, o in ((GERMANY_NODE, FRANCE), (GERMANY_NODE, RUSSIA), (FRANCE, GERMANY_NODE)):
        tiny_store.add(ox.Quad(s, border, o))
    for node, value in ((FRANCE, "67000000"), (RUSSIA, "146000000")):
        tiny_store.add(ox.Quad(node, p("P1082"), ox.Literal(value, datatype=ox.NamedNode(XSD_DECIMAL))))
    gen = Aggregates(FactReads(populated_kg))
    backward = ("?answer", "wdt:P47", "wd:Q183")
    assert gen.coverage((backward,), "P1082") == 0.0  # Russia is missing this way round
    assert gen.coverage((("wd:Q183", "wdt:P47", "?answer"),), "P1082") == 1.0


def test_a_symmetric_relation_of_a_set_is_read_from_the_anchors_own_statements():
    from backends.local.aggregates import anchor_side

    typed = (("?answer", "wdt:P47", "wd:Q142"), ("?answer", "wdt:P31", "wd:Q6256"))
    assert anchor_side(typed) == (("wd:Q142", "wdt:P47", "?answer"), ("?answer", "wdt:P31", "wd:Q6256"))
    directed = (("?answer", "wdt:P57", "wd:Q3772"),)  # not symmetric: as written
    assert anchor_side(directed) == directed
    assert anchor_side((("wd:Q142", "wdt:P47", "?answer"),)) == (("wd:Q142", "wdt:P47", "?answer"),)


def test_a_set_is_also_said_with_the_class_the_question_names_when_every_member_has_it(tiny_kg_client):
    from backends.local.linking import Mention

    def named(qid: str) -> Mention:
        return Mention(1, 2, qid, qid, 1.0, 0.5, 0.8, True, 1, False, 10, 2, 0.3)

    in_germany = EntitySet((("?answer", "wdt:P17", "wd:Q183"),), 0.7, "base")  # Berlin and Ulm, both cities
    aggregates = Aggregates(FactReads(tiny_kg_client))
    [typed] = aggregates.typed_alike(in_germany, [named("Q515")], {"Q515": ("P31",)})
    assert typed.triples == (("?answer", "wdt:P17", "wd:Q183"), ("?answer", "wdt:P31", "wd:Q515"))
    assert (typed.score, typed.origin) == (0.7, "base")
    assert aggregates.typed_alike(in_germany, [named("Q5")], {"Q5": ("P31",)}) == []  # no member is a person
