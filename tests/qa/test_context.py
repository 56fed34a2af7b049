"""Follow-up questions (qa.context): the words that point back, in several languages, and
the pipeline reading a follow-up about the previous turn over the tiny KG with the real
local backend."""

from __future__ import annotations

from pathlib import Path

import pytest

from backends.local.generator import LocalBackend
from chat.render import render_html
from kg.client import EmbeddedKG
from kg.labels import LabelIndex, build_label_index
from lang import SUPPORTED
from lang import get as language
from qa.context import Context, Facts, context_after, references, resolve, split_parts
from qa.pipeline import STAGES, Pipeline
from qa.reading.lexicon import default_lexicon

MOZART, SALZBURG, GOETHE, FAUST = "Q254", "Q34713", "Q5879", "Q152"
NAMES = {MOZART: {"en": "Wolfgang Amadeus Mozart", "ru": "Вольфганг Амадей Моцарт", "zh": "莫扎特"},
         SALZBURG: {"en": "Salzburg"}, GOETHE: {"en": "Johann Wolfgang von Goethe"}, FAUST: {"en": "Faust"},
         "P19": {"en": "place of birth", "de": "Geburtsort"}}
PEOPLE = {MOZART, GOETHE}
AFTER_MOZART = Context(subject=MOZART, entities=(MOZART,), property="P19", answers=(SALZBURG,),
                       question="Where was Mozart born?")


def _facts(lang: str) -> Facts:
    return Facts(is_person=lambda qid: qid in PEOPLE,
                 name=lambda item: NAMES.get(item, {}).get(lang) or NAMES.get(item, {}).get("en"))


@pytest.mark.parametrize(("question", "lang", "expected"), [
    ("and his wife?", "en", "Wife of Wolfgang Amadeus Mozart?"),
    ("And when did he die?", "en", "When did Wolfgang Amadeus Mozart die?"),
    ("Und wo ist er gestorben?", "de", "Wo ist Wolfgang Amadeus Mozart gestorben?"),
    ("Und seine Frau?", "de", "Frau von Wolfgang Amadeus Mozart?"),
    ("а где он умер?", "ru", "Где Вольфганг Амадей Моцарт умер?"),
    ("et sa femme ?", "fr", "La femme de Wolfgang Amadeus Mozart ?"),
    ("¿Y dónde murió?", "es", "Dónde murió Wolfgang Amadeus Mozart?"),
    ("E dove è morto?", "it", "Dove è morto Wolfgang Amadeus Mozart?"),
    ("e a esposa dele?", "pt", "A esposa de Wolfgang Amadeus Mozart?"),
    ("他的妻子是谁？", "zh", "莫扎特的妻子是谁？"),
    ("彼の妻は誰ですか", "ja", "Wolfgang Amadeus Mozartの妻は誰ですか"),
])
def test_a_follow_up_is_read_about_the_previous_subject(question: str, lang: str, expected: str) -> None:
    resolution = resolve(question, lang, AFTER_MOZART, _facts(lang))
    assert resolution is not None and resolution.referent == MOZART
    assert resolution.question == expected


def test_a_new_name_after_an_opener_asks_the_previous_property_of_it() -> None:
    resolution = resolve("and Beethoven?", "en", AFTER_MOZART, _facts("en"))
    assert resolution is not None and resolution.kind == "property" and resolution.property == "P19"
    assert resolution.question == "Place of birth of Beethoven"


@pytest.mark.parametrize("question", ["What is the capital of France?", "Is there a museum in Vienna?",
                                      "Who wrote Faust?", "And what is the capital of Austria?"])
def test_a_question_of_its_own_is_not_glued_to_the_previous_subject(question: str) -> None:
    assert resolve(question, "en", AFTER_MOZART, _facts("en")) is None


def test_he_is_the_answer_when_the_subject_is_no_person_and_there_is_the_place_answered() -> None:
    after_faust = Context(subject=FAUST, entities=(FAUST,), property="P50", answers=(GOETHE,))
    resolution = resolve("When did he die?", "en", after_faust, _facts("en"))
    assert resolution is not None and resolution.referent == GOETHE
    there = resolve("How many people live there?", "en", AFTER_MOZART, _facts("en"))
    assert there is not None and there.referent == SALZBURG
    assert resolve("When did he die?", "en", Context(subject=FAUST, answers=(SALZBURG,)), _facts("en")) is None


def test_pronouns_inside_other_words_are_not_pronouns() -> None:
    zh = language("zh").pronouns
    assert [r.word for r in references("其他人", zh)] == []
    assert [r.word for r in references("他的妻子", zh)] == ["他"]
    en = language("en").pronouns
    assert [r.role for r in references("Who taught her to sing?", en)] == ["person"]
    assert [r.role for r in references("Where was her husband born?", en)] == ["possessive"]


def test_every_supported_language_has_follow_up_words() -> None:
    assert all(language(code).pronouns for code in SUPPORTED)


def test_two_questions_in_one_are_split() -> None:
    assert split_parts("Where was Mozart born and when did he die?", "en") == ("Where was Mozart born?",
                                                                               "When did he die?")
    assert split_parts("Wo wurde Mozart geboren und wann ist er gestorben?", "de") == (
        "Wo wurde Mozart geboren?", "Wann ist er gestorben?")
    assert split_parts("What is the capital and largest city of Austria?", "en") is None


def test_a_context_from_a_client_is_checked() -> None:
    assert Context.from_json({"subject": "Q254", "answers": ["Q1", "x"], "property": "P19"}) == Context(
        subject="Q254", property="P19", answers=("Q1",))
    assert Context.from_json({"subject": "DROP TABLE"}) is None
    assert Context.from_json("Q254") is None


# ---------------------------------------------------------------- the pipeline, tiny KG, local backend


@pytest.fixture
def pipeline(tiny_store, tmp_path: Path) -> Pipeline:
    build_label_index(tiny_store, tmp_path / "labels")
    index = LabelIndex.open(tmp_path / "labels")
    kg = EmbeddedKG(tiny_store)
    return Pipeline(LocalBackend(kg, index, lexicon=default_lexicon()), kg)


def test_the_pipeline_answers_a_follow_up_about_the_previous_subject(pipeline: Pipeline) -> None:
    first = pipeline.answer("Where was Albert Einstein born?")
    assert first.answered and [a.id for a in first.answers] == ["Q3012"]
    context = context_after(first, None)
    assert context is not None and context.subject == "Q937"
    turn = pipeline.answer("And when was he born?", context=context)
    assert turn.answered and turn.answers[0].value.startswith("1879-03-14")
    assert turn.context is not None and turn.context["tied"] and turn.context["resolution"]["referent"] == "Q937"
    assert "Q937" in next(c for c in turn.candidates if c.kept).entities
    assert "context" in STAGES and "context" in turn.timings_ms
    assert 'class="kgqa-followup kgqa-referent-Q937"' in render_html(turn)
    assert turn.to_json()["context"]["given"]["subject"] == "Q937"


def test_the_pipeline_answers_an_unrelated_question_on_its_own(pipeline: Pipeline) -> None:
    context = context_after(pipeline.answer("Where was Albert Einstein born?"), None)
    turn = pipeline.answer("What is the capital of Russia?", context=context)
    assert turn.answered and [a.id for a in turn.answers] == ["Q649"]
    assert turn.context is not None and not turn.context["tied"]


def test_there_is_the_place_answered_before(pipeline: Pipeline) -> None:
    context = context_after(pipeline.answer("What is the capital of France?"), None)
    assert context is not None and context.answers == ("Q90",)
    turn = pipeline.answer("What is the population there?", context=context)
    assert turn.answered and turn.answers[0].value == "2175601"
