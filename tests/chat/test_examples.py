"""Every example question and every placeholder example is answered correctly by the
real pipeline (default settings, the embedded KG in ``.cache``, validator as shipped)."""

from __future__ import annotations

import pytest

from chat.examples import EXAMPLES, example_questions, examples_label, placeholder
from chat.messages import message
from qa.pipeline import Pipeline
from qa.reading.detect import SUPPORTED_LANGUAGES

pytestmark = pytest.mark.slow

ALL = [(lang, example) for lang, examples in EXAMPLES.items() for example in examples]


@pytest.fixture(scope="module")
def pipeline(configured_pipeline) -> Pipeline:
    return configured_pipeline


@pytest.mark.parametrize(("lang", "example"), ALL, ids=[e.question for _, e in ALL])
def test_every_example_is_answered_right(pipeline: Pipeline, lang: str, example) -> None:
    turn = pipeline.answer(example.question)
    assert turn.detected_lang == lang
    assert turn.answered, f"{example.question!r}: {turn.status} {turn.notes}"
    assert {a.id for a in turn.answers} == set(example.expected)


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_every_placeholder_example_is_an_answered_example(lang: str) -> None:
    text = placeholder(lang)
    own = EXAMPLES.get(lang)
    if own:
        assert own[0].question in text  # that example is asked by the test above
    else:
        assert text == message("ui_placeholder_plain", lang)
    assert example_questions(lang)  # every UI language shows some clickable examples


@pytest.mark.parametrize(("lang", "heading"), [
    ("de", "Probieren Sie eine davon"), ("es", "Pruebe una de estas"), ("be", "Паспрабуйце (па-англійску)"),
    ("nl", "Probeer (in het Engels)"),
])
def test_the_examples_heading_says_when_the_examples_are_english(lang: str, heading: str) -> None:
    assert examples_label(lang) == heading
    assert (example_questions(lang) == [e.question for e in EXAMPLES["en"]]) is (lang not in EXAMPLES)


def test_choosing_a_main_language_does_not_shrink_the_examples() -> None:
    english = len(example_questions("en"))
    assert all(len(example_questions(lang)) == english for lang in ("de", "ru", "fr", "es", "it", "pt", "uk"))
