"""The shapes of issue 40 that need more than a set (backends/local/complex.py): a superlative
within a class and a place, "is X still alive?" and exclusions, over small in-memory stores:
the candidates they make, the structure those carry, what they give when run, when they are
withheld, the allow-list they pass and how the validator reads them."""

from __future__ import annotations

from pathlib import Path

import pyoxigraph as ox
import pytest

from backends.local.complex import ComplexGenerator, extend_candidates, merge
from backends.local.linking import Mention
from kg.client import KG, EmbeddedKG, RemoteKG
from kg.store import build_store
from qa.candidate import Candidate
from qa.guard import check_query
from qa.reading.analysis import analyze
from service.kgserve import query_url, start_oxigraph
from tests.service.faulty_http import free_port
from tests.tiny_kg import e, p
from validator.verbalize import parse, render

XSD = "http://www.w3.org/2001/XMLSchema#"
COUNTRY, LANDLOCKED, AFRICA, ASIA = "Q6256", "Q123480", "Q15", "Q48"
HUMAN, MOZART, VIENNA, KEITH = "Q5", "Q254", "Q1741", "Q189599"
GERMANY, GERMAN, FRANCE, AUSTRIA, POLAND, DENMARK = "Q183", "Q188", "Q142", "Q40", "Q36", "Q35"
FRENCH, POLISH, DANISH = "Q150", "Q809", "Q9035"


def _at(question: str, name: str, qid: str, score: float = 0.9) -> Mention:
    start = question.casefold().index(name.casefold())
    return Mention(0, 1, name, qid, 1.0, 0.5, score, True, 1, False, 10, 0, 0.5,
                   char_start=start, char_end=start + len(name))


def _quads(facts: list[tuple[str, str, object]]) -> list[ox.Quad]:
    out = []
    for s, pid, o in facts:
        if isinstance(o, str) and o.startswith("Q"):
            obj: ox.NamedNode | ox.Literal = e(o)
        else:
            obj = ox.Literal(str(o), datatype=ox.NamedNode(XSD + "decimal"))
        out.append(ox.Quad(e(s), p(pid), obj))
    return out


def _store(facts: list[tuple[str, str, object]]) -> EmbeddedKG:
    store = ox.Store()
    store.extend(_quads(facts))
    return EmbeddedKG(store)


def _run(kg: KG, sparql: str) -> list[str]:
    return sorted(t.value.rsplit("/", 1)[-1] for t in kg.query(sparql).column())


# --------------------------------------------------------------------------- a class within a place

def _country_facts(*, chad_area: bool = True) -> list[tuple[str, str, object]]:
    facts: list[tuple[str, str, object]] = []
    for qid, continent, area, people, landlocked in (
            ("Q657", AFRICA, 1284000, 15000000, True),  # Chad
            ("Q1032", AFRICA, 1267000, 21000000, True),  # Niger
            ("Q115", AFRICA, 1104300, 104000000, True),  # Ethiopia
            ("Q262", AFRICA, 2381741, 41000000, False),  # Algeria
            ("Q232", ASIA, 2724900, 18000000, True)):  # Kazakhstan
        facts += [(qid, "P31", COUNTRY), (qid, "P30", continent), (qid, "P1082", people)]
        if landlocked:
            facts.append((qid, "P31", LANDLOCKED))
        if chad_area or qid != "Q657":
            facts.append((qid, "P2046", area))
    facts += [("Q657", "P361", AFRICA)]  # a less frequent locative tie of one member
    return facts


def _countries(*, chad_area: bool = True) -> EmbeddedKG:
    return _store(_country_facts(chad_area=chad_area))


def _largest(kg: KG, question: str = "What is the largest landlocked country in Africa?") -> list[Candidate]:
    """The superlatives about the place (others order the class alone, as before)."""
    mentions = [_at(question, "landlocked country", LANDLOCKED), _at(question, "Africa", AFRICA)]
    return [c for c in ComplexGenerator(kg).candidates(question, "en", mentions)
            if c.shape == "order" and AFRICA in c.entities]


def test_a_superlative_orders_the_class_within_the_place_by_its_most_frequent_tie():
    kg = _countries()
    found = _largest(kg)
    assert found, "no superlative within the class and the place"
    top = found[0]
    assert _run(kg, top.sparql) == ["Q657"]  # Chad, not Algeria (not landlocked) nor Kazakhstan (Asia)
    # the structure travels: the class first, the place by P30 (3 members), not P361 (1)
    assert top.triples[:2] == (("?answer", "wdt:P31", f"wd:{LANDLOCKED}"), ("?answer", "wdt:P30", f"wd:{AFRICA}"))
    assert {LANDLOCKED, AFRICA} <= set(top.entities)
    assert all("P2046" in c.properties for c in found)  # "largest": the area, never the population
    assert check_query(top.sparql).startswith("SELECT ?answer WHERE { ?answer wdt:P31 wd:Q123480 .")


def test_no_superlative_where_a_member_of_the_place_lacks_the_value():
    assert not _largest(_countries(chad_area=False))  # Niger would be "the largest": a guess


def test_a_named_property_orders_the_place_by_it():
    kg = _countries()
    found = _largest(kg, "Which landlocked country in Africa has the largest population?")
    assert found and _run(kg, found[0].sparql) == ["Q115"]
    assert all("P2046" not in c.properties for c in found)


# --------------------------------------------------------------------------- alive or not

PEOPLE: list[tuple[str, str, object]] = [
    (MOZART, "P31", HUMAN), (MOZART, "P20", VIENNA), (KEITH, "P31", HUMAN), (KEITH, "P19", VIENNA)]


def _people() -> EmbeddedKG:
    return _store(PEOPLE)


def _alive(kg: KG, question: str, name: str, qid: str, lang: str = "en") -> list[Candidate]:
    return [c for c in ComplexGenerator(kg).candidates(question, lang, [_at(question, name, qid)]) if c.excluded]


def test_a_person_the_kg_says_died_is_not_alive():
    kg = _people()
    found = _alive(kg, "Is Mozart still alive?", "Mozart", MOZART)
    assert len(found) == 1
    cand = found[0]
    assert cand.shape == "ask" and cand.triples == () and cand.entities == (MOZART,)
    assert (f"wd:{MOZART}", "wdt:P20", "?value") in cand.excluded  # the death fact the KG holds
    assert (f"wd:{MOZART}", "wdt:P570", "?value") in cand.excluded  # and always the date of death
    written = check_query(cand.sparql)
    assert "NOT EXISTS" in written and kg.query(written).boolean is False


def test_no_yes_for_a_person_without_death_facts():
    assert _alive(_people(), "Is Keith still alive?", "Keith", KEITH) == []  # not known to be alive


def test_alive_is_read_in_several_languages():
    kg = _people()
    for lang, question, name in (("es", "¿Sigue vivo Mozart?", "Mozart"), ("ru", "Моцарт ещё жив?", "Моцарт"),
                                 ("de", "Ist Mozart noch am Leben?", "Mozart"),
                                 ("fr", "Mozart est-il encore en vie ?", "Mozart"),
                                 ("it", "Mozart è ancora vivo?", "Mozart")):
        assert analyze(question, lang).yes_no, question
        assert _alive(kg, question, name, MOZART, lang), question
    assert not analyze("Where is Mozart living now?", "en").yes_no  # a question word: not whether


def test_alive_is_verbalized_as_alive():
    sparql = check_query(f"ASK {{ FILTER NOT EXISTS {{ wd:{MOZART} wdt:P570 ?value }} "
                         f"FILTER NOT EXISTS {{ wd:{MOZART} wdt:P20 ?value }} }}")
    labels = {f"http://www.wikidata.org/entity/{MOZART}": {"en": (["Mozart"], [])}}
    assert render(parse(sparql), labels, "en") == "ask Mozart alive"
    # a negated place of death alone, or a positive pattern beside it, is said as written
    only_place = parse(f"ASK {{ FILTER NOT EXISTS {{ wd:{MOZART} wdt:P20 ?value }} }}")
    assert only_place.alive is None and render(only_place, labels, "en").startswith("ask not Mozart")
    assert parse(f"ASK {{ wd:{MOZART} wdt:P31 wd:Q5 . FILTER NOT EXISTS {{ wd:{MOZART} wdt:P570 ?v }} }}").alive is None


def _dead(kg: KG, question: str, name: str, qid: str, lang: str = "en") -> list[Candidate]:
    return [c for c in ComplexGenerator(kg).candidates(question, lang, [_at(question, name, qid)])
            if c.shape == "ask" and not c.excluded]


def test_a_person_the_kg_says_died_is_dead():
    kg = _people()
    found = _dead(kg, "Is Mozart dead?", "Mozart", MOZART)
    assert len(found) == 1
    cand = found[0]
    assert cand.triples == ((f"wd:{MOZART}", "wdt:P20", "?value"),) and cand.entities == (MOZART,)
    written = check_query(cand.sparql)
    assert kg.query(written).boolean is True


def test_no_no_for_a_person_without_death_facts():
    assert _dead(_people(), "Is Keith dead?", "Keith", KEITH) == []  # not known to be alive


def test_dead_is_read_in_several_languages_and_never_inside_a_name():
    kg = _people()
    for lang, question, name in (("es", "¿Está muerto Mozart?", "Mozart"), ("ru", "Моцарт умер?", "Моцарт"),
                                 ("de", "Ist Mozart tot?", "Mozart"), ("fr", "Mozart est-il mort ?", "Mozart"),
                                 ("it", "Mozart è morto?", "Mozart"),
                                 ("ja", "モーツァルトは死んだの？", "モーツァルト")):
        a = analyze(question, lang)
        assert a.yes_no and a.dead and not a.alive, question
        assert _dead(kg, question, name, MOZART, lang), question
    assert not analyze("Where did Mozart die?", "en").dead  # a question word: not whether
    question = "Is Dead Poets Society a film?"
    start = question.index("Dead")
    assert not analyze(question, "en", [(start, start + len("Dead Poets Society"))]).dead


def test_dead_is_verbalized_as_dead():
    labels = {f"http://www.wikidata.org/entity/{MOZART}": {"en": (["Mozart"], [])}}
    assert render(parse(f"ASK {{ wd:{MOZART} wdt:P20 ?value }}"), labels, "en") == "ask Mozart dead"
    assert parse(f"ASK {{ wd:{MOZART} wdt:P19 ?value }}").dead is None  # not a death fact
    assert parse(f"ASK {{ wd:{MOZART} wdt:P20 wd:{VIENNA} }}").dead is None  # a place of death asked about


# --------------------------------------------------------------------------- exclusions

def _neighbour_facts(*, danish: bool = True) -> list[tuple[str, str, object]]:
    facts: list[tuple[str, str, object]] = [
        (GERMANY, "P47", FRANCE), (GERMANY, "P47", AUSTRIA), (GERMANY, "P47", POLAND),
        (DENMARK, "P47", GERMANY),  # the border is listed from Denmark's side only
        (FRANCE, "P37", FRENCH), (AUSTRIA, "P37", GERMAN), (POLAND, "P37", POLISH), (GERMANY, "P37", GERMAN)]
    if danish:
        facts.append((DENMARK, "P37", DANISH))
    for qid in (GERMANY, FRANCE, AUSTRIA, POLAND, DENMARK):
        facts.append((qid, "P31", COUNTRY))
    return facts


def _neighbours(*, danish: bool = True) -> EmbeddedKG:
    return _store(_neighbour_facts(danish=danish))


QUESTION = "Which countries border Germany but do not have German as an official language?"


def _simple(*bodies: tuple[tuple[str, str, str], ...]) -> list[Candidate]:
    out = []
    for rank, body in enumerate(bodies):
        sparql = "SELECT DISTINCT ?answer WHERE { " + " ".join(" ".join(t) + " ." for t in body) + " }"
        out.append(Candidate(sparql, 0.8 - 0.1 * rank, (("prop_score", 0.9),), shape="plain", triples=body,
                             entities=tuple(t[3:] for tr in body for t in (tr[0], tr[2]) if t.startswith("wd:"))))
    return out


BOTH = (("wd:Q183", "wdt:P47", "?answer"), ("?answer", "wdt:P37", "wd:Q188"))


def _excluding(kg: KG, question: str, lang: str, simple: list[Candidate], mentions: list[Mention]) -> list[Candidate]:
    """The exclusions the complex layer builds on ``simple``."""
    return [c for c in extend_candidates(ComplexGenerator(kg), question, lang, simple, mentions) if c.excluded]


def _exclusions(kg: KG, question: str = QUESTION) -> list[Candidate]:
    mentions = [_at(question, "Germany", GERMANY), _at(question, "German ", GERMAN)]
    out = extend_candidates(ComplexGenerator(kg), question, "en", _simple(BOTH), mentions)
    return out


def test_an_exclusion_leaves_out_the_members_tied_to_the_excluded_entity():
    kg = _neighbours()
    found = _exclusions(kg)
    assert found and all(c.shape == "exclusion" for c in found), [c.sparql for c in found]
    top = found[0]
    assert top.triples == (("wd:Q183", "wdt:P47", "?answer"),)
    assert top.excluded == (("?answer", "wdt:P37", "wd:Q188"),)
    assert {GERMANY, GERMAN} <= set(top.entities)
    # Austria speaks German; Denmark is a neighbour the KG lists from its own side only
    assert _run(kg, check_query(top.sparql)) == [FRANCE, POLAND]
    # the reading that asserts what the question excludes is gone: it answers the opposite
    assert all(c.triples != BOTH for c in found)


def test_no_exclusion_where_a_member_has_no_value_for_the_tie():
    kg = _neighbours()
    store_less = _store([(GERMANY, "P47", FRANCE), (GERMANY, "P47", AUSTRIA), (GERMANY, "P47", POLAND),
                         (FRANCE, "P37", FRENCH), (AUSTRIA, "P37", GERMAN)])  # Poland's languages unknown
    assert _exclusions(kg)
    assert _exclusions(store_less) == []  # Poland is not known to lack German: no answer at all


def test_a_symmetric_relation_is_excluded_both_ways():
    kg = _neighbours()
    question = "Which countries have German as an official language but do not border Denmark?"
    mentions = [_at(question, "German ", GERMAN), _at(question, "Denmark", DENMARK)]
    simple = _simple((("?answer", "wdt:P37", "wd:Q188"),))
    found = _excluding(kg, question, "en", simple, mentions)
    assert found
    assert {(f"wd:{DENMARK}", "wdt:P47", "?answer"), ("?answer", "wdt:P47", f"wd:{DENMARK}")} <= set(found[0].excluded)
    assert _run(kg, check_query(found[0].sparql)) == [AUSTRIA]  # Germany borders Denmark, said from Denmark's side


def test_a_negated_question_is_answered_by_an_exclusion_or_not_at_all():
    a = analyze(QUESTION, "en")
    plain = _simple(BOTH)
    assert merge(a, plain, []) == []
    assert merge(analyze("Which countries border Germany?", "en"), plain, []) == plain
    # a negation word inside a name negates nothing
    title = "Who directed No Country for Old Men?"
    assert not analyze(title, "en", [(title.index("No"), title.index("?"))]).negated


# --------------------------------------------------------------------------- over an endpoint

@pytest.fixture(scope="module")
def endpoint(tmp_path_factory) -> RemoteKG:
    """``oxigraph serve-read-only`` on 127.0.0.1 over the same facts."""
    root = tmp_path_factory.mktemp("new_shapes")
    nt = root / "facts.nt"
    facts = [*_country_facts(), *PEOPLE, *_neighbour_facts()]
    nt.write_bytes(ox.serialize(_quads(facts), format=ox.RdfFormat.N_TRIPLES))
    paths = build_store(Path(nt), root / "cache", progress=False)
    port = free_port()
    process = start_oxigraph(paths.store, "127.0.0.1", port)
    yield RemoteKG(query_url("127.0.0.1", port), timeout_s=10)
    process.kill()
    process.wait()


def test_the_new_shapes_give_the_same_answers_over_an_endpoint(endpoint: RemoteKG):
    embedded = _store([*_country_facts(), *PEOPLE, *_neighbour_facts()])
    for kg in (embedded, endpoint):
        largest = _largest(kg)
        assert largest and _run(kg, check_query(largest[0].sparql)) == ["Q657"]
        alive = _alive(kg, "Is Mozart still alive?", "Mozart", MOZART)
        assert alive and kg.query(check_query(alive[0].sparql)).boolean is False
        excluded = _exclusions(kg)
        assert excluded and _run(kg, check_query(excluded[0].sparql)) == [FRANCE, POLAND]
    assert [c.sparql for c in _largest(embedded)] == [c.sparql for c in _largest(endpoint)]


def test_an_exclusion_is_built_from_a_relation_the_words_name_without_a_simple_reading():
    kg = _neighbours()
    question = "¿Qué países limitan con Alemania pero no tienen el alemán como idioma oficial?"
    mentions = [_at(question, "Alemania", GERMANY), _at(question, "alemán", GERMAN)]
    found = extend_candidates(ComplexGenerator(kg), question, "es", [], mentions)  # the lexicon names P47 and P37
    assert found and found[0].shape == "exclusion", [c.sparql for c in found]
    assert _run(kg, check_query(found[0].sparql)) == [FRANCE, POLAND]


def test_the_excluded_entity_is_no_answer_and_a_type_is_no_tie():
    liechtenstein, monarchy = "Q347", "Q7269"
    kg = _store([*_neighbour_facts(), (liechtenstein, "P37", GERMAN), (liechtenstein, "P31", COUNTRY),
                 (liechtenstein, "P31", monarchy), (DENMARK, "P31", monarchy)])
    question = "Which countries have German as an official language but do not border Germany?"
    mentions = [_at(question, "German ", GERMAN), _at(question, "Germany", GERMANY)]
    found = _excluding(kg, question, "en", _simple((("?answer", "wdt:P37", "wd:Q188"),)), mentions)
    assert found and _run(kg, check_query(found[0].sparql)) == [liechtenstein]  # not Germany itself
    question = "Which countries border Germany but are not a monarchy?"
    mentions = [_at(question, "Germany", GERMANY), _at(question, "monarchy", monarchy)]
    assert not _excluding(kg, question, "en", _simple((("wd:Q183", "wdt:P47", "?answer"),)), mentions)


def test_what_follows_a_contrast_word_after_the_negation_is_kept_not_excluded():
    liechtenstein = "Q347"
    kg = _store([*_neighbour_facts(), (liechtenstein, "P37", GERMAN), (liechtenstein, "P31", COUNTRY)])
    simple = _simple((("?answer", "wdt:P37", "wd:Q188"),))
    for question, lang, names in (
            ("Which countries do not border Germany but have German as an official language?", "en",
             ("Germany", "German ")),
            ("¿Qué países no limitan con Alemania pero tienen el alemán como idioma oficial?", "es",
             ("Alemania", "alemán"))):
        mentions = [_at(question, names[0], GERMANY), _at(question, names[1], GERMAN)]
        found = _excluding(kg, question, lang, simple, mentions)
        assert found, question
        assert found[0].triples == (("?answer", "wdt:P37", "wd:Q188"),)
        assert _run(kg, check_query(found[0].sparql)) == [liechtenstein]


def test_the_thing_excluded_can_be_named_in_a_relative_clause_before_the_negation():
    kg = _neighbours()
    question = "Give me the countries bordering Germany where German is not an official language."
    mentions = [_at(question, "Germany", GERMANY), _at(question, "German ", GERMAN)]
    simple = _simple((("wd:Q183", "wdt:P47", "?answer"),))
    found = _excluding(kg, question, "en", simple, mentions)
    assert found and _run(kg, check_query(found[0].sparql)) == [FRANCE, POLAND]
    # without a relative word the thing before the negation is not read as excluded
    plain = "Give me the countries bordering Germany and German that are not an official language."
    mentions = [_at(plain, "Germany", GERMANY), _at(plain, "German ", GERMAN)]
    assert not _excluding(kg, plain, "en", simple, mentions)
