"""Complex question shapes (backends/local: analysis, numbers, shapes, complex): cue analysis, number/date parsing,
SPARQL builders, comparison evaluation, the generator over the tiny KG, the pipeline's
comparison contract, and (slow) the written multilingual questions over the full KG."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from backends.fake import FakeBackend
from backends.local.complex import ComplexGenerator, merge, plain_body
from backends.local.linking import Mention
from backends.local.shapes import comparison_query, count_query, filter_query, superlative_query
from backends.qanswer import shape_of
from chat.messages import turn_message
from kg.client import EmbeddedKG, Term
from qa.candidate import Candidate
from qa.execute import ComparisonSpec, evaluate_comparison, value_key
from qa.pipeline import Pipeline
from qa.reading.analysis import analyze, answer_form_is_fixed
from qa.reading.numbers import parse_decimal, parse_filters
from training.written import judge, load_written

XSD_DECIMAL = "http://www.w3.org/2001/XMLSchema#decimal"
QUESTIONS = Path(__file__).resolve().parent.parent / "data" / "complex_questions.json"
EINSTEIN, PUSHKIN, BERLIN, MOSCOW, PARIS, CITY, GERMANY, ULM = (
    "Q937", "Q7200", "Q64", "Q649", "Q90", "Q515", "Q183", "Q3012")


def _run(kg: EmbeddedKG, sparql: str) -> object:
    result = kg.query(sparql)
    if result.boolean is not None:
        return result.boolean
    return sorted(t.value.rsplit("/", 1)[-1] for t in result.column())


# --------------------------------------------------------------------------- analysis


@pytest.mark.parametrize(("question", "lang", "pid", "direction"), [
    ("Who is older, Albert Einstein or Alexander Pushkin?", "en", "P569", "ASC"),
    ("Wer ist jünger, Tom Boonen oder André Greipel?", "de", "P569", "DESC"),
    ("Кто старше, Эйнштейн или Пушкин?", "ru", "P569", "ASC"),
    ("爱因斯坦和普希金谁更年长？", "zh", "P569", "ASC"),
    ("Which city has more inhabitants, Berlin or Moscow?", "en", "P1082", "DESC"),
    ("Welches Land hat weniger Einwohner, Japan oder Chile?", "de", "P1082", "ASC"),
    ("В каком городе больше жителей: Берлин или Москва?", "ru", "P1082", "DESC"),
    ("柏林和莫斯科哪个城市人口更多？", "zh", "P1082", "DESC"),
    ("Qui est le plus âgé, Einstein ou Pouchkine ?", "fr", "P569", "ASC"),
    ("Хто старший, Ейнштейн чи Пушкін?", "uk", "P569", "ASC"),
])
def test_two_entity_comparisons_are_read_with_their_direction(question, lang, pid, direction):
    a = analyze(question, lang)
    assert a.alternative and not a.yes_no
    assert (a.readings[0].pid, a.readings[0].direction) == (pid, direction)


@pytest.mark.parametrize(("question", "lang", "cue"), [
    ("How many countries have fewer than 20,000 inhabitants?", "en", "count"),
    ("Wie viele Amtssprachen hat Pakistan?", "de", "count"),
    ("Сколько официальных языков в Пакистане?", "ru", "count"),
    ("巴基斯坦有几个官方语言？", "zh", "count"),
    ("Was Albert Einstein born in 1879?", "en", "yes_no"),
    ("Ist Nairobi die Hauptstadt von Kenia?", "de", "yes_no"),
    ("Является ли Берлин столицей Германии?", "ru", "yes_no"),
    ("东京是日本的首都吗？", "zh", "yes_no"),
    ("Est-ce que Berlin est une ville ?", "fr", "yes_no"),
    ("Чи є Київ столицею України?", "uk", "yes_no"),
    ("What is the smallest country by area?", "en", "superlative"),
    ("Welches Land hat die kleinste Fläche?", "de", "superlative"),
    ("Какая страна самая маленькая по площади?", "ru", "superlative"),
    ("面积最小的国家是哪个？", "zh", "superlative"),
])
def test_cues_in_every_language(question, lang, cue):
    assert getattr(analyze(question, lang), cue) is True


def test_plain_questions_have_no_complex_cue():
    for question, lang in [("What is the capital of Germany?", "en"), ("Где родился Пушкин?", "ru"),
                           ("柏林在哪个国家？", "zh"), ("Wo wurde Einstein geboren?", "de")]:
        a = analyze(question, lang)
        assert not (a.count or a.yes_no or a.superlative or a.filters or a.alternative), question


@pytest.mark.parametrize(("question", "lang"), [
    ("Was ist die Hauptstadt von Frankreich?", "de"),
    ("Welche Länder grenzen an Frankreich und Österreich?", "de"),
    ("Wer ist Österreicher?", "de"),
])
def test_a_name_holding_a_direction_word_is_no_direction(question, lang):
    # "Frankreich" and "Österreich" hold "reich" ("bevölkerungsreicher"): a name that holds a
    # cue word grades nothing, and a plain lookup still answers the question
    a = analyze(question, lang)
    assert not a.directed and not answer_form_is_fixed(a)


@pytest.mark.parametrize(("question", "lang"), [
    ("Welche Länder grenzen sowohl an Frankreich als auch an Deutschland?", "de"),
    ("quali paesi confinano sia con la francia che con la germania", "it"),
    ("Welke landen grenzen zowel aan Frankrijk als aan Duitsland?", "nl"),
])
def test_both_a_and_b_asks_what_two_share_and_compares_nothing(question, lang):
    # « als » and « che » are also "than": after « sowohl » / « sia » they join two things
    a = analyze(question, lang)
    assert a.both and not a.comparative and not answer_form_is_fixed(a)


@pytest.mark.parametrize(("question", "lang"), [
    ("¿Cuál es el país más grande de África?", "es"),
    ("¿Cuál es el país sin litoral más grande de África?", "es"),
    ("Qual é o país mais rico da América do Sul?", "pt"),
])
def test_a_gradable_word_without_than_is_a_superlative_where_the_comparative_says_both(question, lang):
    # « el país más grande de África » is the largest: no « que » follows, no choice is offered
    a = analyze(question, lang)
    assert a.superlative and not a.comparative


def test_a_gradable_word_with_than_or_a_choice_still_compares():
    assert analyze("¿Es España más grande que Francia?", "es").comparative
    assert analyze("¿Cuál es más grande, España o Francia?", "es").comparison_form


@pytest.mark.parametrize(("question", "lang"), [
    ("Que país faz fronteira com a França, a Alemanha e a Itália?", "pt"),
    ("Che film ha diretto Tarantino?", "it"),
    ("que paises limitan con francia", "es"),
])
def test_a_than_word_that_is_a_function_word_compares_nothing_without_a_degree(question, lang):
    # as the read stage reads it (qa.reading.reading.cue_positions): « Que », « Che » ask "which"
    assert not analyze(question, lang).comparative


def test_than_without_its_correlative_still_compares():
    assert analyze("O Brasil é maior que a Argentina?", "pt").comparative
    assert analyze("Welches Land ist größer als Frankreich?", "de").comparative
    assert analyze("Il Po è più lungo che largo?", "it").comparative


def test_german_richer_and_most_populous_still_grade():
    assert analyze("Welches Land ist reicher, Österreich oder die Schweiz?", "de").directed
    assert analyze("Welches ist das bevölkerungsreichste Land Afrikas?", "de").directed


@pytest.mark.parametrize(("question", "lang"), [
    ("Which US state has the largest number of lakes?", "en"),
    ("Welcher Staat der USA hat die größte Anzahl an Seen?", "de"),
    ("¿Qué estado en los Estados Unidos tiene la mayor cantidad de lagos?", "es"),
    ("Qual estado dos Estados Unidos tem o maior número de lagos?", "pt"),
    ("Какой штат США имеет наибольшее количество озёр?", "ru"),
])
def test_a_size_word_that_grades_an_amount_reads_no_size(question, lang):
    # "the largest number of lakes" asks for the most lakes (a count the layer does not
    # build), not for the largest state: no area/population reading, and the form stays fixed
    a = analyze(question, lang)
    assert a.superlative and answer_form_is_fixed(a)
    assert not any(r.pid in ("P2046", "P1082", "P2048") for r in a.readings)


@pytest.mark.parametrize(("question", "lang", "pid"), [
    ("Which US state is the largest?", "en", "P2046"),
    ("¿Qué país tiene el mayor número de habitantes?", "es", "P1082"),
    ("Welches Land hat die größte Zahl an Einwohnern?", "de", "P1082"),
])
def test_size_words_and_named_quantities_still_read(question, lang, pid):
    assert analyze(question, lang).readings[0].pid == pid


@pytest.mark.parametrize(("raw", "lang", "value"), [
    ("1,9", "de", Decimal("1.9")), ("1.9", "en", Decimal("1.9")), ("100,000", "en", Decimal(100000)),
    ("100.000", "de", Decimal(100000)), ("20 000", "ru", Decimal(20000)), ("3,5", "ru", Decimal("3.5")),
])
def test_decimal_parsing_follows_the_language(raw, lang, value):
    assert parse_decimal(raw, lang) == value


@pytest.mark.parametrize(("question", "lang", "op", "value", "is_year"), [
    ("Which countries have more than 100 million inhabitants?", "en", ">", Decimal(10) ** 8, False),
    ("Welche Länder haben mehr als 100 Millionen Einwohner?", "de", ">", Decimal(10) ** 8, False),
    ("Сколько стран имеют население меньше 20 000 человек?", "ru", "<", Decimal(20000), False),
    ("哪些国家的人口超过1亿？", "zh", ">", Decimal(10) ** 8, False),
    ("Which cyclists were born before 1985?", "en", "<", Decimal(1985), True),
    ("Кто родился до 1990 года?", "ru", "<", Decimal(1990), True),
    ("1990年以前出生的自行车手有哪些？", "zh", "<", Decimal(1990), True),
    ("Was Albert Einstein born in 1879?", "en", "year", Decimal(1879), True),
    ("Wurde Chris Froome 1985 geboren?", "de", "year", Decimal(1985), True),
    ("Which footballers are taller than 190 cm?", "en", ">", Decimal("1.9"), False),
    ("Which countries were founded in the 1990s?", "en", "decade", Decimal(1990), True),
    ("Wie viele Städte haben mehr als eine Million Einwohner?", "de", ">", Decimal(10) ** 6, False),
    ("How many cities have a population greater than one million?", "en", ">", Decimal(10) ** 6, False),
])
def test_filters_become_typed_values(question, lang, op, value, is_year):
    from core.text import normalize_cue_text

    f = analyze(question, lang).filters[0]
    assert f == parse_filters(normalize_cue_text(question), lang, dated=True)[0]
    assert (f.op, f.value, f.is_year) == (op, value, is_year)


# --------------------------------------------------------------------------- SPARQL builders


def test_builders_emit_compact_typed_sparql():
    body = (("?answer", "wdt:P31", "wd:Q515"),)
    assert count_query(body) == "SELECT (COUNT(DISTINCT ?answer) AS ?count) WHERE { ?answer wdt:P31 wd:Q515 }"
    assert superlative_query(body, "P1082", "DESC") == (
        "SELECT ?answer WHERE { ?answer wdt:P31 wd:Q515 . ?answer wdt:P1082 ?value } ORDER BY DESC(?value) LIMIT 1")
    f = parse_filters("born before 1400", "en")[0]
    sparql = filter_query(body, "P569", f)
    assert '"1400-01-01T00:00:00Z"^^<http://www.w3.org/2001/XMLSchema#dateTime>' in sparql
    assert "PREFIX" not in sparql


def _plain(*triples: tuple[str, str, str], score: float = 0.8, features=()) -> Candidate:
    """A plain base candidate with its structure, as the simple generator builds it."""
    body = " . ".join(" ".join(t) for t in triples)
    return Candidate(f"SELECT DISTINCT ?answer WHERE {{ {body} . }}", score, tuple(features), shape="plain",
                     triples=triples)


def test_plain_body_accepts_only_plain_direct_triple_patterns():
    assert plain_body(_plain(("wd:Q64", "wdt:P17", "?answer"))) == (("wd:Q64", "wdt:P17", "?answer"),)
    two = (("?answer", "wdt:P31", "wd:Q5"), ("?answer", "wdt:P27", "wd:Q183"))
    assert plain_body(_plain(*two)) == two
    assert plain_body(_plain(("?answer", "wdt:P31/wdt:P279*", "wd:Q5"))) is None  # a property path
    assert plain_body(_plain(("wd:Q64", "wdt:P17", "?x"))) is None  # no ?answer
    assert plain_body(Candidate("ASK { wd:Q64 wdt:P17 wd:Q183 }", 0.5, shape="ask",
                                triples=(("wd:Q64", "wdt:P17", "wd:Q183"),))) is None


def test_value_keys_order_dates_with_negative_years_and_odd_decimals():
    def date(v: str) -> Term:
        return Term("literal", v, "http://www.w3.org/2001/XMLSchema#dateTime")

    assert value_key(date("-0399-01-01T00:00:00Z")) < value_key(date("0301-09-04T00:00:00Z"))
    assert value_key(date("1799-06-06T00:00:00Z")) < value_key(date("1879-03-14T00:00:00Z"))
    dec = "http://www.w3.org/2001/XMLSchema#decimal"
    assert value_key(Term("literal", "2.64855e+09", dec)) > value_key(Term("literal", "2548108800", dec))
    assert value_key(Term("literal", "9.9655555555555555563528", dec)) < Decimal(10)


def test_question_text_never_reaches_the_query(tiny_kg_client):
    gen = ComplexGenerator(tiny_kg_client)
    question = 'Who is older, Albert Einstein or Alexander Pushkin? " } DROP ALL { #'
    cands = gen.candidates(question, "en", [_mention(EINSTEIN, 0.9, 14, 29), _mention(PUSHKIN, 0.9, 33, 50)])
    assert cands
    assert all("DROP" not in c.sparql and "Einstein" not in c.sparql for c in cands)


# --------------------------------------------------------------------------- comparison evaluation


def test_comparison_winner_tie_and_missing(tiny_kg_client):
    older = evaluate_comparison(tiny_kg_client, ComparisonSpec(EINSTEIN, PUSHKIN, "P569", "ASC"))
    assert (older.winner, older.missing) == (2, ())
    younger = evaluate_comparison(tiny_kg_client, ComparisonSpec(EINSTEIN, PUSHKIN, "P569", "DESC"))
    assert younger.winner == 1
    bigger = evaluate_comparison(tiny_kg_client, ComparisonSpec(BERLIN, MOSCOW, "P1082", "DESC"))
    assert bigger.winner == 2 and bigger.to_json()["values"] == ["3644826", "12506468"]
    same = evaluate_comparison(tiny_kg_client, ComparisonSpec(PARIS, PARIS, "P1082", "DESC"))
    assert same.winner == 0
    missing = evaluate_comparison(tiny_kg_client, ComparisonSpec(BERLIN, EINSTEIN, "P569", "ASC"))
    assert (missing.winner, missing.missing) == (None, (1,))


def _comparison(qid1: str, qid2: str, pid: str, direction: str) -> Candidate:
    return Candidate(comparison_query(qid1, qid2, pid, direction), 0.9, shape="order",
                     comparison=ComparisonSpec(qid1, qid2, pid, direction))


def test_pipeline_fills_the_comparison_contract(tiny_kg_client):
    backend = FakeBackend({"q": [_comparison(EINSTEIN, PUSHKIN, "P569", "ASC")]})
    turn = Pipeline(backend, tiny_kg_client).answer("q", "ru")
    out = turn.to_json()
    assert out["answered"] and [a["id"] for a in out["answers"]] == [PUSHKIN]
    assert {k: out["comparison"][k] for k in ("entity1", "entity2", "property", "winner")} == {
        "entity1": EINSTEIN, "entity2": PUSHKIN, "property": "P569", "winner": 2}


def test_pipeline_abstains_naming_the_unknown_value(tiny_kg_client):
    backend = FakeBackend({"q": [_comparison(BERLIN, EINSTEIN, "P569", "ASC")]})
    for lang, name, prop in (("en", "Berlin", "date of birth"), ("ru", "Берлин", "дата рождения"),
                             ("zh", "柏林", "出生日期"), ("de", "Berlin", "Geburtsdatum")):
        turn = Pipeline(backend, tiny_kg_client).answer("q", lang)
        assert not turn.answered and turn.status == "abstained" and turn.comparison is None
        assert name in turn_message(turn) and prop in turn_message(turn)


def test_unknown_value_message_reads_property_labels_on_wd_nodes(tiny_kg_client, tiny_store):
    import pyoxigraph as ox

    from tests.tiny_kg import LABEL, e

    tiny_store.add(ox.Quad(e("P569"), LABEL, ox.Literal("date de naissance", language="fr")))  # as in Wikidata dumps
    backend = FakeBackend({"q": [_comparison(BERLIN, EINSTEIN, "P569", "ASC")]})
    turn = Pipeline(backend, tiny_kg_client).answer("q", "fr")
    assert not turn.answered and "date de naissance" in turn_message(turn)


# --------------------------------------------------------------------------- generator on the tiny KG


def _mention(qid: str, score: float, char_start: int = -1, char_end: int = -1) -> Mention:
    """A linked entity at characters ``[char_start, char_end)`` of the question."""
    return Mention(0, 1, "", qid, 1.0, 0.5, score, True, 1, False, 10, 0, 0.5,
                   char_start=char_start, char_end=char_end)


def _at(question: str, name: str, qid: str, score: float = 0.9) -> Mention:
    start = question.casefold().index(name.casefold())
    return _mention(qid, score, start, start + len(name))


def test_unlinked_list_items_block_comparisons(tiny_kg_client):
    gen = ComplexGenerator(tiny_kg_client)
    question = "Which city is the largest: Ulm, Berlin or Moscow?"
    two_of_three = [_at(question, "Berlin", BERLIN), _at(question, "Moscow", MOSCOW)]
    assert not gen.candidates(question, "en", two_of_three)  # Ulm is not linked: no guess between the others
    assert gen.candidates(question, "en", [*two_of_three, _at(question, "Ulm", ULM)]) == []  # Ulm has no value
    question = "В каком городе больше жителей: в Берлине или в Москве?"
    pair = [_at(question, "Берлине", BERLIN), _at(question, "Москве", MOSCOW)]
    top = gen.candidates(question, "ru", pair)[0]
    assert top.comparison == ComparisonSpec(BERLIN, MOSCOW, "P1082", "DESC")


def _top(gen: ComplexGenerator, question: str, lang: str, mentions, base=()) -> str:
    return _best(gen, question, lang, mentions, base).sparql


def _best(gen: ComplexGenerator, question: str, lang: str, mentions, base=()) -> Candidate:
    cands = gen.candidates(question, lang, mentions, base)
    assert cands, question
    for c in cands:  # the structure the generator knew, consistent with the text it rendered
        assert c.shape == shape_of(c.sparql), c.sparql
        assert all(f"wd:{q}" in c.sparql for q in c.entities) and all(f"wdt:{p}" in c.sparql for p in c.properties)
        assert all(" ".join(t) in c.sparql for t in c.triples), c.sparql
    return cands[0]


def test_generator_comparison_candidates(tiny_kg_client):
    gen = ComplexGenerator(tiny_kg_client)
    top = _best(gen, "Who is older, Albert Einstein or Alexander Pushkin?", "en",
                [_mention(EINSTEIN, 0.9, 14, 29), _mention(PUSHKIN, 0.9, 33, 50)])
    assert top.comparison == ComparisonSpec(EINSTEIN, PUSHKIN, "P569", "ASC")
    assert (top.shape, top.entities, top.properties) == ("order", (EINSTEIN, PUSHKIN), ("P569",))
    top = _best(gen, "柏林和莫斯科哪个城市人口更多？", "zh", [_mention(BERLIN, 0.9, 0, 2), _mention(MOSCOW, 0.9, 3, 6)])
    assert top.comparison == ComparisonSpec(BERLIN, MOSCOW, "P1082", "DESC")
    plain = _best(gen, "Was Albert Einstein born in 1879?", "en", [_mention(EINSTEIN, 0.9, 4, 19)])
    assert (plain.shape, plain.comparison) == ("ask", None)


def test_generator_yes_no_candidates(tiny_kg_client):
    gen = ComplexGenerator(tiny_kg_client)
    e = [_mention(EINSTEIN, 0.9, 4, 19)]
    assert _run(tiny_kg_client, _top(gen, "Was Albert Einstein born in 1879?", "en", e)) is True
    assert _run(tiny_kg_client, _top(gen, "Was Albert Einstein born in 1880?", "en", e)) is False
    pair = [_mention(MOSCOW, 0.9, 3, 9), _mention(BERLIN, 0.9, 22, 28)]
    bigger = _top(gen, "Is Moscow bigger than Berlin?", "en", pair)
    assert _run(tiny_kg_client, bigger) is True
    base = [_plain(("wd:Q937", "wdt:P19", "?answer"))]
    ulm = _top(gen, "Was Albert Einstein born in Ulm?", "en", [*e, _mention(ULM, 0.9, 28, 31)], base)
    assert _run(tiny_kg_client, ulm) is True
    berlin = _top(gen, "Was Albert Einstein born in Berlin?", "en", [*e, _mention(BERLIN, 0.9, 28, 34)], base)
    assert _run(tiny_kg_client, berlin) is False  # P19 is single-valued and the KG says Ulm


def test_no_without_evidence_is_never_emitted(tiny_kg_client):
    gen = ComplexGenerator(tiny_kg_client)
    # occupation is multi-valued: "no" would be a guess
    base = [_plain(("wd:Q937", "wdt:P106", "?answer"))]
    cands = gen.candidates("Was Albert Einstein a Berlin?", "en",
                           [_mention(EINSTEIN, 0.9, 4, 19), _mention(BERLIN, 0.9, 22, 28)], base)
    assert all(_run(tiny_kg_client, c.sparql) is not False for c in cands)
    # Pushkin has no birth year 1900 and the value exists -> "no" is fine; Berlin has no date -> nothing
    assert not gen.candidates("Was Berlin founded in 1237?", "en", [_mention(BERLIN, 0.9, 4, 10)])


def test_generator_superlative_filter_and_count(populated_kg):
    gen = ComplexGenerator(populated_kg)
    assert _run(populated_kg, _top(gen, "Which is the most populous city?", "en", [_mention(CITY, 0.8, 27, 31)])) == [
        "Q956"]
    smallest = "Which city has the smallest population?"
    assert _run(populated_kg, _top(gen, smallest, "en", [_mention(CITY, 0.8, 6, 10)])) == ["Q99999999"]
    cities = [_mention(CITY, 0.8, 6, 12)]
    over = _top(gen, "Which cities have more than 3 million inhabitants?", "en", cities)
    assert _run(populated_kg, over) == sorted([BERLIN, MOSCOW, "Q956"])
    count = _top(gen, "How many cities have more than 3 million inhabitants?", "en", [_mention(CITY, 0.8, 9, 15)])
    assert count.startswith("SELECT (COUNT(DISTINCT ?x) AS ?answer)") and _run(populated_kg, count) == ["3"]
    base = [_plain(("?answer", "wdt:P17", "wd:Q183"), ("?answer", "wdt:P31", "wd:Q515"), score=0.7,
                   features=(("prop_score", 0.9),))]
    mentions = [_mention(CITY, 0.8, 9, 15), _mention(GERMANY, 0.9, 23, 30)]
    assert _run(populated_kg, _top(gen, "How many cities are in Germany?", "en", mentions, base)) == ["2"]
    question = "Which is the most populous of Berlin, Moscow and Paris?"
    three = [_at(question, name, qid) for name, qid in (("Berlin", BERLIN), ("Moscow", MOSCOW), ("Paris", PARIS))]
    top = _top(gen, question, "en", three)
    assert "VALUES ?answer { wd:Q64 wd:Q649 wd:Q90 }" in top and _run(populated_kg, top) == [MOSCOW]
    # Berlin's birth date is unknown, so "the oldest of the three" would be a guess
    unknown = [_mention(EINSTEIN, 0.9, 21, 36), _mention(PUSHKIN, 0.9, 38, 55), _mention(BERLIN, 0.9, 60, 66)]
    cands = gen.candidates("Who is the oldest of Albert Einstein, Alexander Pushkin and Berlin?", "en", unknown)
    assert not [c for c in cands if "wd:Q937 wd:Q7200 wd:Q64" in c.sparql]


def test_partly_described_sets_get_no_superlative_or_count(tiny_kg_client):
    # three of the six cities have a population: "the most populous city" would be a guess
    gen = ComplexGenerator(tiny_kg_client)
    assert not gen.candidates("Which is the most populous city?", "en", [_mention(CITY, 0.8, 27, 31)])
    assert not gen.candidates("How many cities have more than 3 million inhabitants?", "en",
                              [_mention(CITY, 0.8, 9, 15)])
    # a plain "how many" over the words of no property counts nothing
    assert not gen.candidates("How many cities are in Germany?", "en",
                              [_mention(CITY, 0.8, 9, 15), _mention(GERMANY, 0.9, 23, 30)])


def test_zero_counts_need_an_explicit_completeness_mark(tiny_kg_client):
    base = [_plain(("wd:Q7200", "wdt:P20", "?answer"), score=0.9)]
    mentions = [_mention(PUSHKIN, 0.9, 14, 31)]
    question = "How many places of death does Alexander Pushkin have?"
    assert not ComplexGenerator(tiny_kg_client).candidates(question, "en", mentions, base)
    marked = ComplexGenerator(tiny_kg_client, complete_properties={"P20"}).candidates(question, "en", mentions, base)
    assert marked and _run(tiny_kg_client, marked[0].sparql) == ["0"]


def test_superlative_ties_are_dropped(tiny_store, populated_kg):
    import pyoxigraph as ox

    from tests.tiny_kg import P1082, XSD
    from tests.tiny_kg import ULM as ULM_NODE

    tiny_store.remove(ox.Quad(ULM_NODE, P1082, ox.Literal("126329", datatype=ox.NamedNode(XSD + "decimal"))))
    tiny_store.add(ox.Quad(ULM_NODE, P1082, ox.Literal("21542000", datatype=ox.NamedNode(XSD + "decimal"))))
    gen = ComplexGenerator(populated_kg)
    cands = gen.candidates("Which is the most populous city?", "en", [_mention(CITY, 0.8, 27, 31)])
    assert not [c for c in cands if "DESC(?value)" in c.sparql]


# --------------------------------------------------------------------------- written questions (full KG)


def _load_questions() -> list[dict]:
    return load_written(QUESTIONS)


def test_written_questions_cover_four_languages():
    questions = _load_questions()
    for lang in ("en", "de", "ru", "zh"):
        mine = [q for q in questions if q["lang"] == lang]
        assert len(mine) >= 30, lang
        assert {q["kind"] for q in mine} >= {"comparison", "comparison_unknown", "yes_no", "count", "superlative",
                                              "filter"}
    assert len({q["question"] for q in questions}) == len(questions)


@pytest.fixture(scope="module")
def full_kg(full_store_kg):
    return full_store_kg


def _gold_direction(gold_sparql: str) -> str:
    """The ORDER BY direction of a written comparison's gold query (text from the file)."""
    return "ASC" if "ORDER BY ASC(" in gold_sparql else "DESC"


def _expected_holds(kg: EmbeddedKG, q: dict) -> bool:
    exp = q["expected"]
    if q["kind"] == "comparison":
        c = q["comparison"]
        spec = ComparisonSpec(c["entity1"], c["entity2"], c["property"], _gold_direction(q["gold_sparql"]))
        outcome = evaluate_comparison(kg, spec)
        winner = (c["entity1"], c["entity2"])[outcome.winner - 1] if outcome.winner else None
        return outcome.winner == c["winner"] and [winner] == exp["values"]
    result = kg.query(q["gold_sparql"])
    if exp["type"] == "abstain":
        return result.boolean is False
    if exp["type"] == "boolean":
        return result.boolean is exp["value"]
    values = sorted(t.value.rsplit("/", 1)[-1] for t in result.column())
    return values == (sorted(exp["values"]) if exp["type"] == "uri" else [exp["value"]])


@pytest.mark.slow
def test_written_questions_verified(full_kg):
    kg, _ = full_kg
    wrong = [q["id"] for q in _load_questions() if not _expected_holds(kg, q)]
    assert not wrong


@pytest.mark.slow
def test_written_questions_are_never_answered_wrongly(full_kg):
    from backends.local.generator import LocalBackend
    from core.settings import load_settings

    kg, _ = full_kg
    settings = load_settings({}, validator=False)
    pipeline = Pipeline(LocalBackend.from_settings(settings, kg), kg)
    verdicts: dict[str, str] = {}
    for q in _load_questions():
        turn = pipeline.answer(q["question"], q["lang"], use_validator=False, question_lang=q["lang"])
        verdicts[q["id"]] = judge(turn.to_json(), q)
    wrong = sorted(k for k, v in verdicts.items() if v == "wrong")
    correct = sum(v == "correct" for v in verdicts.values())
    print(f"written complex questions: {correct}/{len(verdicts)} correct, {len(wrong)} wrong")
    assert not wrong, wrong


@pytest.mark.slow
def test_written_questions_pass_the_shipped_validator(shipped_pipeline):
    """With the shipped validator and its complex-shape threshold the written questions
    are answered (117 of 132 when measured), and never wrongly."""
    pipeline = shipped_pipeline
    assert pipeline.validator_state == "on"
    verdicts = {q["id"]: judge(pipeline.answer(q["question"], q["lang"], question_lang=q["lang"]).to_json(), q)
                for q in _load_questions()}
    wrong = sorted(k for k, v in verdicts.items() if v == "wrong")
    correct = sum(v == "correct" for v in verdicts.values())
    print(f"written complex questions, validator on: {correct}/{len(verdicts)} correct, {len(wrong)} wrong")
    assert not wrong, wrong
    assert correct >= 0.75 * len(verdicts)


def test_merge_keeps_only_candidates_of_the_asked_form():
    simple = [_plain(("wd:Q64", "wdt:P17", "?answer"), score=0.9, features=(("single_answer", 1.0),)),
              _plain(("wd:Q64", "wdt:P1082", "?answer"), score=0.5)]
    ask = Candidate("ASK { wd:Q64 wdt:P17 wd:Q183 }", 0.6, (("complex", 1.0), ("shape_ask_relation", 1.0)),
                    shape="ask", triples=(("wd:Q64", "wdt:P17", "wd:Q183"),))
    assert [c.sparql for c in merge(analyze("Is Berlin in Germany?", "en"), simple, [ask])] == [ask.sparql]
    assert merge(analyze("Ist Berlin in Deutschland?", "de"), simple, []) == []
    counted = merge(analyze("How many inhabitants does Berlin have?", "en"), simple, [])
    assert [c.sparql for c in counted] == [simple[1].sparql]  # a number, not a list
    assert merge(analyze("Which is bigger, Berlin or Moscow?", "en"), simple, []) == []  # "A or B?": one of the two
    plain = merge(analyze("What is the country of Berlin?", "en"), simple, [])
    assert [c.score for c in plain] == [0.9, 0.5]


@pytest.mark.parametrize(("question", "alternative"), [
    ("アルベルト・アインシュタインはどこで生まれましたか？", False),  # the final « か » asks
    ("アインシュタインとニュートンのどちらが先に生まれましたか？", True),
    ("東京か大阪か、どちらが大きいですか？", True),  # « か » between the two offers the choice
])
def test_a_japanese_question_particle_is_not_an_alternative(question: str, alternative: bool):
    a = analyze(question, "ja")
    assert a.alternative is alternative
    assert answer_form_is_fixed(a) is alternative


@pytest.mark.parametrize(("question", "lang", "ordinal"), [
    ("¿Quién fue el cuadragésimo presidente de los EE. UU.?", "es", True),
    ("Who was the fortieth president of the United States?", "en", True),
    ("Wer war der vierzigste Präsident der USA?", "de", True),
    ("Qui était le quarantième président des États-Unis ?", "fr", True),
    ("Chi era il quarantesimo presidente degli Stati Uniti?", "it", True),
    ("Who is the president of the United States?", "en", False),
    ("Quel est le thème du film ?", "fr", False),
])
def test_ordinals_past_the_listed_words_are_read_by_their_form(question: str, lang: str, ordinal: bool):
    a = analyze(question, lang)
    assert a.ordinal is ordinal and answer_form_is_fixed(a) is ordinal
