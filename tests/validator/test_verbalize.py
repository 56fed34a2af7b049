"""Verbalization (paper section 3.1) on the tiny KG, in en, ru, zh and de."""

from __future__ import annotations

import pytest

from core.text import normalize
from qa.candidate import Link
from validator.verbalize import Verbalizer, choose_label, fuller_name, label_key, parse

CAPITAL = "SELECT DISTINCT ?answer WHERE { wd:Q183 wdt:P36 ?answer . } LIMIT 5 OFFSET 0"
BIRTH = ("PREFIX wd: <http://www.wikidata.org/entity/>\nPREFIX wdt: <http://www.wikidata.org/prop/direct/>\n"
         "SELECT ?place WHERE {\n  <http://www.wikidata.org/entity/Q937> wdt:P19 ?place .\n}")


@pytest.fixture
def verbalizer(tiny_kg_client) -> Verbalizer:
    return Verbalizer(tiny_kg_client)


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "Germany capital ?answer"),
    ("ru", "Германия столица ?answer"),
    ("zh", "德国 首都 ?answer"),
    ("de", "Deutschland Hauptstadt ?answer"),
])
def test_labels_in_the_question_language(verbalizer, lang, expected):
    assert verbalizer(CAPITAL, lang) == expected


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "Albert Einstein place of birth ?place"),
    ("ru", "Альберт Эйнштейн место рождения ?place"),
    ("zh", "阿尔伯特·爱因斯坦 出生地 ?place"),
    ("de", "Albert Einstein Geburtsort ?place"),
])
def test_full_iris_and_prefix_declarations(verbalizer, lang, expected):
    assert verbalizer(BIRTH, lang) == expected


def test_falls_back_to_english_when_the_language_has_no_label(verbalizer):
    # Ulm has no German label in the tiny KG; Q169470 (physicist) has none in Japanese.
    assert verbalizer("SELECT ?x WHERE { wd:Q3012 wdt:P17 ?x }", "de") == "Ulm Staat ?x"
    assert verbalizer("SELECT ?x WHERE { ?x wdt:P106 wd:Q169470 }", "ja") == "?x occupation physicist"


def test_unknown_entity_keeps_its_id(verbalizer):
    assert verbalizer("SELECT ?x WHERE { wd:Q123456 wdt:P19 ?x }", "en") == "Q123456 place of birth ?x"


def test_modifiers_dropped_variables_kept_and_form_hints(verbalizer):
    text = verbalizer("SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE { ?c wdt:P31 wd:Q515 ; wdt:P17 wd:Q183 . } "
                      "GROUP BY ?n LIMIT 1 OFFSET 2", "en")
    assert text == "count ?c instance of city; country Germany"
    assert verbalizer("ASK { wd:Q64 wdt:P17 wd:Q183 }", "de") == "ask Berlin Staat Deutschland"
    for word in ("LIMIT", "ORDER", "DISTINCT", "GROUP", "OFFSET", "SELECT", "WHERE", "{", "}"):
        assert word not in text


def test_superlatives_keep_their_direction(verbalizer):
    tallest = "SELECT ?x WHERE { ?x wdt:P27 wd:Q183 . ?x wdt:P2048 ?h } ORDER BY DESC(?h) LIMIT 1"
    oldest = "SELECT ?x WHERE { ?x wdt:P27 wd:Q183 . ?x wdt:P569 ?d } ORDER BY ASC(?d) LIMIT 1"
    assert verbalizer(tallest, "en") == "max ?x country of citizenship Germany. ?x height ?h"
    assert verbalizer(oldest, "zh") == "min ?x 国籍 德国. ?x 出生日期 ?d"
    assert verbalizer(tallest.replace(" LIMIT 1", ""), "en").startswith("?x")  # ordering alone changes nothing


def test_filters_literals_negation_and_service_blocks(verbalizer):
    sparql = ('SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . ?x wdt:P569 ?d . '
              'FILTER(?d > "1800-01-01T00:00:00Z"^^xsd:dateTime) '
              'MINUS { ?x wdt:P27 wd:Q159 } '
              'SERVICE wikibase:label { bd:serviceParam wikibase:language "en" } }')
    text = verbalizer(sparql, "en")
    assert text == ("?x instance of human. ?x date of birth ?d. ?d > 1800-01-01T00:00:00Z "
                    "not ?x country of citizenship Russia")
    assert "wikibase" not in text and "serviceParam" not in text


def test_labels_of_property_ids_under_wd_namespace(tiny_store, tiny_kg_client):
    import pyoxigraph as ox

    tiny_store.add(ox.Quad(ox.NamedNode("http://www.wikidata.org/entity/P1082"),
                           ox.NamedNode("http://www.w3.org/2000/01/rdf-schema#label"),
                           ox.Literal("Bevölkerung", language="de")))
    tiny_store.remove(ox.Quad(ox.NamedNode("http://www.wikidata.org/prop/direct/P1082"),
                              ox.NamedNode("http://www.w3.org/2000/01/rdf-schema#label"),
                              ox.Literal("Einwohnerzahl", language="de")))
    assert Verbalizer(tiny_kg_client)("SELECT ?p WHERE { wd:Q64 wdt:P1082 ?p }", "de") == "Berlin Bevölkerung ?p"


def test_many_fetches_labels_once(tiny_kg_client):
    calls = []

    class Counting:
        name = "counting"

        def query(self, sparql, **kw):
            calls.append(sparql)
            return tiny_kg_client.query(sparql, **kw)

    v = Verbalizer(Counting())
    out = v.many([CAPITAL, BIRTH, CAPITAL], "ru")
    assert out[0] == out[2] == "Германия столица ?answer"
    assert len(calls) == 1
    v(CAPITAL, "ru")
    assert len(calls) == 1  # cached
    assert v(CAPITAL, "zh") == "德国 首都 ?answer"
    assert len(calls) == 2  # labels are fetched per language (question language + English)


def test_nodes_without_local_or_english_label_use_any_language(tiny_store, tiny_kg_client):
    import pyoxigraph as ox

    tiny_store.add(ox.Quad(ox.NamedNode("http://www.wikidata.org/entity/Q4242"),
                           ox.NamedNode("http://www.w3.org/2004/02/skos/core#altLabel"),
                           ox.Literal("Lutèce", language="fr")))
    assert Verbalizer(tiny_kg_client)("SELECT ?x WHERE { wd:Q4242 wdt:P17 ?x }", "ru") == "Lutèce государство ?x"


def test_label_choice_prefers_primary_then_script():
    labels = {"ru": (["Румыния"], ["România"]), "en": (["Romania"], [])}
    assert choose_label(labels, "ru") == "Румыния"
    aliases_only = {"ru": ([], ["România", "Румыния"]), "en": (["Romania"], [])}
    assert choose_label(aliases_only, "ru") == "Румыния"
    assert choose_label({"fr": (["Roumanie"], [])}, "zh") == "Roumanie"
    assert choose_label({}, "en") is None


def test_parse_and_label_key():
    parsed = parse("ASK { wd:Q1 p:P2/ps:P2 ?x }")
    assert parsed.form == "ask"
    assert label_key("http://www.wikidata.org/prop/statement/P2") == "http://www.wikidata.org/entity/P2"
    assert label_key("http://www.wikidata.org/entity/Q1") == "http://www.wikidata.org/entity/Q1"
    assert parse("SELECT ?x WHERE { wd:Q1 wdt:P2 ?x }").form == "select"


ULM_COUNTRY = "SELECT ?x WHERE { wd:Q3012 wdt:P17 ?x }"


def _link(qid: str, name: str, kind: str) -> Link:
    return Link(qid, name, name, kind, 0.9)


def test_an_entity_without_a_label_in_the_language_is_said_by_the_name_it_was_linked_by(verbalizer):
    # Ulm has no German label: without evidence the English one stands in; linked by its
    # Russian name (as written in the question), that name is said instead
    assert verbalizer.many([ULM_COUNTRY], "de") == ["Ulm Staat ?x"]
    assert verbalizer.many([ULM_COUNTRY], "de", [[_link("Q3012", normalize("Ульм"), "label")]]) == ["Ульм Staat ?x"]


def test_a_country_linked_by_its_cldr_name_is_said_by_that_name_as_cldr_writes_it(verbalizer):
    # the label index keys CLDR's names normalized; the verbalization writes them as CLDR does
    linked = [[_link("Q3012", normalize("Dänemark"), "alias")]]
    assert verbalizer.many([ULM_COUNTRY], "de", linked) == ["Dänemark Staat ?x"]
    assert verbalizer.many([ULM_COUNTRY], "de", [[_link("Q3012", "nowhere", "alias")]]) == ["Ulm Staat ?x"]


def test_an_entity_with_its_own_label_keeps_it_unless_the_name_that_linked_it_is_that_label_written_out(verbalizer):
    # a namesake matched through an alias still shows its own name (« Peking » is not
    # « Beijing » written out, « Einstein » is shorter than « Albert Einstein »); an alias
    # holding the whole label and more words is the same name as the user wrote it
    linked = [[_link("Q183", normalize("Federal Republic of Germany"), "alias")]]
    assert verbalizer.many([CAPITAL], "de", linked) == ["Deutschland Hauptstadt ?answer"]
    assert verbalizer.many([CAPITAL], "en", linked) == ["Federal Republic of Germany capital ?answer"]
    assert verbalizer.many([BIRTH], "en", [[_link("Q937", normalize("Einstein"), "alias")]]) == [
        "Albert Einstein place of birth ?place"]
    peking = "SELECT ?x WHERE { wd:Q956 wdt:P17 ?x }"
    assert verbalizer.many([peking], "en", [[_link("Q956", normalize("Peking"), "alias")]])[0].startswith("Beijing ")


def test_a_fuller_name_holds_the_whole_label_and_more_words():
    assert fuller_name("Marcel Proust", "Proust") and fuller_name("Giuseppe Verdi", "verdi")
    assert not fuller_name("Proust", "Proust") and not fuller_name("Paris", "Paris Hilton")
    assert not fuller_name("Wagneria", "Wagner") and not fuller_name("Richard Wagnerian", "Wagner")


@pytest.mark.parametrize("kind", ["fuzzy", "partial", "phonetic"])
def test_names_not_written_in_the_question_are_never_used(verbalizer, kind):
    assert verbalizer.many([ULM_COUNTRY], "de", [[_link("Q3012", normalize("Ульм"), kind)]]) == ["Ulm Staat ?x"]


def test_links_are_per_query(verbalizer):
    other = "SELECT ?x WHERE { wd:Q3012 wdt:P31 ?x }"
    out = verbalizer.many([ULM_COUNTRY, other], "de", [[_link("Q3012", normalize("Ульм"), "alias")], []])
    assert out[0].startswith("Ульм") and out[1].startswith("Ulm")


def test_a_second_reading_names_properties_the_kg_has_no_label_for(tiny_kg_client):
    """The tiny KG labels P36 in en/de/ru/zh only: in Ukrainian a second reading says it by
    the lexicon's name; in German the one reading uses the KG's label."""
    from qa.reading.lexicon import default_lexicon

    named = Verbalizer(tiny_kg_client, names=default_lexicon())
    assert named.readings([CAPITAL], "uk") == [("Німеччина capital ?answer", "Німеччина столиця ?answer")]
    assert named.many([CAPITAL], "uk") == ["Німеччина capital ?answer"]
    assert named.readings([CAPITAL], "de") == [("Deutschland Hauptstadt ?answer",)]
    assert Verbalizer(tiny_kg_client).readings([CAPITAL], "uk") == [("Німеччина capital ?answer",)]


def test_a_property_said_by_the_question_s_own_words_is_one_more_reading(tiny_kg_client):
    # "wo ist die hauptstadt von deutschland": the question's words for P36 say it once more
    # (the validator learned property names, not every word people use for them)
    plain = Verbalizer(tiny_kg_client)
    assert plain.readings([CAPITAL], "de", [], [{"P36": "regierungssitz"}]) == [
        ("Deutschland Hauptstadt ?answer", "Deutschland regierungssitz ?answer")]
    assert plain.readings([CAPITAL], "de", [], [{"P36": "hauptstadt"}]) == [
        ("Deutschland Hauptstadt ?answer", "Deutschland hauptstadt ?answer")]
    assert plain.readings([CAPITAL], "de", [], [{}]) == [("Deutschland Hauptstadt ?answer",)]
    assert plain.readings([CAPITAL], "de") == [("Deutschland Hauptstadt ?answer",)]


def test_a_full_name_heard_closely_alike_in_another_script_is_said_as_the_user_wrote_it(verbalizer):
    # Ulm has no German label; linked by the sound of two capitalized non-Latin words that
    # sound closely alike, it is said by those words (capitalized as typed), not by its
    # English label (the validator reads « Клинт Иствуд » against "Clint Eastwood" as another man)
    def heard(mention: str, sound: float, words: int) -> Link:
        return Link("Q3012", mention, "ulm", "phonetic", 0.7, name_words=words, sound=sound)

    assert verbalizer.many([ULM_COUNTRY], "de", [[heard("ульм донау", 0.9, 2)]]) == ["Ульм Донау Staat ?x"]
    assert verbalizer.many([ULM_COUNTRY], "de", [[heard("ульм донау", 0.7, 2)]]) == ["Ulm Staat ?x"]  # loosely
    assert verbalizer.many([ULM_COUNTRY], "de", [[heard("ульм", 0.95, 1)]]) == ["Ulm Staat ?x"]  # one word
    assert verbalizer.many([ULM_COUNTRY], "de", [[heard("ульм донау", 0.9, 0)]]) == ["Ulm Staat ?x"]  # not a name
    assert verbalizer.many([ULM_COUNTRY], "de", [[heard("ulmo donau", 0.9, 2)]]) == ["Ulmo Donau Staat ?x"]  # Latin
    assert verbalizer.many([ULM_COUNTRY], "en", [[heard("ульм донау", 0.9, 2)]]) == ["Ulm country ?x"]  # own label


def test_a_name_heard_closely_alike_in_a_script_without_case_is_said_as_the_user_wrote_it(verbalizer):
    # Hindi and Arabic write no capitals: a close sound-alike is said as typed, even one word
    # (the validator reads « Albert Einstein ولد ?answer » against « اين ولد اينشتاين » as another man)
    def heard(mention: str, sound: float) -> Link:
        return Link("Q3012", mention, "ulm", "phonetic", 0.7, name_words=0, sound=sound)

    assert verbalizer.many([ULM_COUNTRY], "de", [[heard("उल्म", 0.9)]]) == ["उल्म Staat ?x"]
    assert verbalizer.many([ULM_COUNTRY], "de", [[heard("اولم دوناو", 0.9)]]) == ["اولم دوناو Staat ?x"]
    assert verbalizer.many([ULM_COUNTRY], "de", [[heard("उल्म", 0.7)]]) == ["Ulm Staat ?x"]  # loosely
    assert verbalizer.many([ULM_COUNTRY], "de", [[heard("ульм", 0.95)]]) == ["Ulm Staat ?x"]  # a cased script


def test_a_person_linked_by_a_last_name_no_one_else_bears_is_said_by_that_name_as_typed(verbalizer):
    # linked by its last name alone, an entity is said by the name the user typed when that
    # name names it alone in the KG (capitalized; CJK characters written side by side); a last
    # name several entities bear keeps the full name, by which the validator sees a namesake
    def by_last_name(mention: str, namesakes: int, degree: int = 40) -> Link:
        return Link("Q3012", mention, "ulm", "partial", 0.6, degree=degree, namesakes=namesakes,
                    rival_degree=degree if namesakes > 1 else 0)  # a namesake as well known

    assert verbalizer.many([ULM_COUNTRY], "de", [[by_last_name("ульм", 1)]]) == ["Ульм Staat ?x"]
    assert verbalizer.many([ULM_COUNTRY], "en", [[by_last_name("ulm", 1)]]) == ["Ulm country ?x"]
    assert verbalizer.many([ULM_COUNTRY], "de", [[by_last_name("ウ ル ム", 1)]]) == ["ウルム Staat ?x"]
    assert verbalizer.many([ULM_COUNTRY], "de", [[by_last_name("ульм", 2)]]) == ["Ulm Staat ?x"]
    assert verbalizer.many([ULM_COUNTRY], "de", [[by_last_name("ульм", 0)]]) == ["Ulm Staat ?x"]  # not known
    assert verbalizer.many([ULM_COUNTRY], "de", [[by_last_name("ульм", 1, degree=3)]]) == ["Ulm Staat ?x"]  # obscure



def test_a_last_name_several_bear_is_said_as_typed_for_the_one_the_kg_knows_far_better(verbalizer):
    # « где умер эйлер »: Leonhard Euler (44 statements) against Ulf von Euler (3); a namesake
    # nearly as well known keeps the full name, and so does the lesser-known bearer himself
    def by_last_name(degree: int, rival: int) -> Link:
        return Link("Q3012", "ульм", "ульм", "partial", 0.6, degree=degree, namesakes=3, rival_degree=rival)

    assert verbalizer.many([ULM_COUNTRY], "de", [[by_last_name(44, 3)]]) == ["Ульм Staat ?x"]
    assert verbalizer.many([ULM_COUNTRY], "de", [[by_last_name(44, 10)]]) == ["Ulm Staat ?x"]  # 4.4 times: no
    assert verbalizer.many([ULM_COUNTRY], "de", [[by_last_name(3, 44)]]) == ["Ulm Staat ?x"]
    assert verbalizer.many([ULM_COUNTRY], "de", [[by_last_name(8, 0)]]) == ["Ulm Staat ?x"]  # not known enough
    formed = Link("Q3012", "ульмы", "ульм", "partial", 0.6, degree=44, namesakes=3, rival_degree=3)
    assert verbalizer.many([ULM_COUNTRY], "de", [[formed]]) == ["Ulm Staat ?x"]  # another form of the name


def test_a_still_alive_reading_is_read_once_more_with_the_alive_words_of_the_language(verbalizer):
    from backends.local.shapes import alive_query
    from validator.verbalize import alive_in

    sparql = alive_query([("wd:Q937", "wdt:P570", "?value"), ("wd:Q937", "wdt:P20", "?value")])
    [en] = verbalizer.readings([sparql], "en")
    assert en == ("ask Albert Einstein alive", "ask Albert Einstein still alive")
    [es] = verbalizer.readings([sparql], "es")
    assert es[0].endswith(" alive") and es[-1].endswith(" sigue vivo") and len(es) == 2
    assert alive_in("Berlin capital ?answer", "es") is None  # only a "still alive" reading
    assert verbalizer.readings([CAPITAL], "en") == [("Germany capital ?answer",)]


def test_a_dead_reading_is_read_once_more_with_the_dead_words_of_the_language(verbalizer):
    from validator.verbalize import dead_in

    sparql = "ASK { wd:Q937 wdt:P20 ?value }"
    assert verbalizer.readings([sparql], "en") == [("ask Albert Einstein dead",)]
    [es] = verbalizer.readings([sparql], "es")
    assert es[0].endswith(" dead") and es[-1].endswith(" muerto") and len(es) == 2
    assert dead_in("Berlin capital ?answer", "es") is None  # only a "dead" reading


def test_an_entity_linked_by_a_name_it_alone_bears_is_read_once_more_by_that_name(verbalizer):
    # « Einstein », an alias no other entity bears: one more reading says the entity as typed
    # (the validator reads « Albert Einstein » against a question saying « Einstein » as another
    # person); a namesake's name, a fuzzy spelling or the label itself add nothing
    def by(mention: str, kind: str = "alias", namesakes: int = 1) -> Link:
        return Link("Q937", normalize(mention), normalize(mention), kind, 0.7, namesakes=namesakes)

    assert verbalizer.readings([BIRTH], "en", [[by("einstein")]]) == [
        ("Albert Einstein place of birth ?place", "Einstein place of birth ?place")]
    assert verbalizer.readings([BIRTH], "en", [[by("einstein", "fuzzy")]]) == [
        ("Albert Einstein place of birth ?place",)]
    assert verbalizer.readings([BIRTH], "en", [[by("albert einstein", "label")]]) == [
        ("Albert Einstein place of birth ?place",)]
    assert verbalizer.readings([BIRTH], "en", [[by("einstein", namesakes=3)]]) == [
        ("Albert Einstein place of birth ?place",)]  # a namesake's name: the validator sees whose
    assert verbalizer.readings([BIRTH], "en", [[by("einstein", namesakes=0)]]) == [
        ("Albert Einstein place of birth ?place",)]  # not known
    assert verbalizer.many([BIRTH], "en", [[by("einstein")]]) == ["Albert Einstein place of birth ?place"]
