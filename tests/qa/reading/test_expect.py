"""A "how many" question is never answered with a list of entities (qa.reading.expect), over the
tiny KG through the real pipeline."""

from __future__ import annotations

from backends.fake import FakeBackend
from kg.client import QueryResult, Term
from qa.candidate import Candidate
from qa.pipeline import Pipeline
from qa.reading.expect import count_mismatch, role_mismatch
from qa.reading.lexicon import default_lexicon

ENTITIES = QueryResult(["x"], [{"x": Term("uri", "http://www.wikidata.org/entity/Q64")}])
NUMBER = QueryResult(["x"], [{"x": Term("literal", "3", datatype="http://www.w3.org/2001/XMLSchema#integer")}])


def test_a_count_needs_numbers_from_a_plain_candidate() -> None:
    assert count_mismatch("count", "plain", ENTITIES)
    assert not count_mismatch("count", "plain", NUMBER)  # a stored count ("number of children")
    assert not count_mismatch("count", "count", ENTITIES)  # the COUNT shape answers it itself
    assert not count_mismatch("place", "plain", ENTITIES)
    assert not count_mismatch(None, "plain", ENTITIES)
    assert not count_mismatch("count", "plain", QueryResult(boolean=True))


def _ask(kg, question: str, lang: str) -> object:
    capital = Candidate("SELECT ?x WHERE { wd:Q183 wdt:P36 ?x }", 0.9, shape="plain", entities=("Q183",),
                        properties=("P36",))
    pipeline = Pipeline(FakeBackend({question: [capital]}), kg, answer_types=default_lexicon())
    return pipeline.answer(question, lang)


def test_how_many_answered_by_a_list_abstains_in_every_language(tiny_kg_client) -> None:
    for question, lang in (("How many capitals does Germany have?", "en"),
                           ("¿Cuántas capitales tiene Alemania?", "es"),
                           ("Сколько столиц у Германии?", "ru")):
        turn = _ask(tiny_kg_client, question, lang)
        assert not turn.answered and turn.answers == []
        assert any("count was asked" in note for note in turn.notes)


def test_the_same_candidate_answers_a_question_that_asks_for_it(tiny_kg_client) -> None:
    turn = _ask(tiny_kg_client, "What is the capital of Germany?", "en")
    assert turn.answered and [a.id for a in turn.answers] == ["Q64"]


def test_a_number_the_question_states_must_be_accounted_for() -> None:
    from qa.candidate import Link
    from qa.reading.expect import unused_numbers

    assert unused_numbers("Which team did Ronaldinho play for in 2013?", "plain", [], [], ENTITIES) == ["2013"]
    assert unused_numbers("Qui était le 40e Président des États-Unis ?", "plain", [], [], ENTITIES) == ["40"]
    assert unused_numbers("¿Cuántos estados tienen más de 20 millones?", "plain", [], [], NUMBER) == ["20"]
    film = Link("Q1", "gold diggers of 1933", "Gold Diggers of 1933", "label", 0.9)
    assert unused_numbers("Who produced Gold Diggers of 1933?", "plain", [], [film], ENTITIES) == []
    assert unused_numbers("Who directed 1941?", "plain", ["1941 director ?answer"], [], ENTITIES) == []
    assert unused_numbers("What 1 city is the capital of Germany?", "plain", [], [], ENTITIES) == []  # 1 answer
    assert unused_numbers("２０１３年のチーム", "plain", [], [], ENTITIES) == ["2013"]  # full-width digits
    assert unused_numbers("How many people lived there in 2013?", "count", [], [], NUMBER) == []
    assert unused_numbers("Who was born in 2013?", "plain", [], [], QueryResult(["x"], [])) == []  # nothing shown


def test_a_plain_answer_that_ignores_a_stated_year_abstains(tiny_kg_client) -> None:
    turn = _ask(tiny_kg_client, "What was the capital of Germany in 1950?", "en")
    assert not turn.answered and turn.answers == []
    assert any("1950" in note for note in turn.notes)
    assert _ask(tiny_kg_client, "What is the capital of Germany?", "en").answered


def test_a_role_is_not_answered_by_a_works_cast_list() -> None:
    lexicon = default_lexicon()
    for question, lang in (("Which actor played the role of Beetlejuice?", "en"),
                           ("ビートルジュースの役を演じた俳優は誰ですか？", "ja"),
                           ("Qui a joué le rôle de Forrest Gump ?", "fr"),
                           ("Кто сыграл роль Форреста Гампа?", "ru")):
        cues = lexicon.find_cues(question, lang)
        assert role_mismatch(cues, "plain", ("P161",)), question
        assert not role_mismatch(cues, "plain", ("P57",))  # the film's director is no cast list
    assert not role_mismatch(lexicon.find_cues("Who starred in Titanic?", "en"), "plain", ("P161",))
    assert not role_mismatch(lexicon.find_cues("タイタニックに出演した俳優は誰ですか？", "ja"), "plain", ("P161",))


def test_the_pipeline_abstains_when_a_cast_list_would_answer_a_role(tiny_kg_client) -> None:
    # the candidate declares the cast property (structure travels); its query returns Berlin
    cast = Candidate("SELECT ?x WHERE { wd:Q183 wdt:P36 ?x }", 0.9, shape="plain", entities=("Q183",),
                     properties=("P161",))
    for question, answered in (("Who played the role of Germany?", False), ("Who starred in Germany?", True)):
        pipeline = Pipeline(FakeBackend({question: [cast]}), tiny_kg_client, answer_types=default_lexicon())
        turn = pipeline.answer(question, "en")
        assert turn.answered is answered, question
        assert any("role was asked" in note for note in turn.notes) is not answered
