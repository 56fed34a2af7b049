"""The read stage: a question read once, its function words and cue words."""

from __future__ import annotations

import pytest

from qa.decisions import Case
from qa.reading.analysis import analyze
from qa.reading.reading import Reading, read


def test_a_question_is_read_once_and_frozen() -> None:
    first = read("in che città è morto giuseppe verdi", "it")
    assert read("in che città è morto giuseppe verdi", "it") is first  # cached: read once
    assert isinstance(first, Reading) and first.tokens[:3] == ("in", "che", "città")
    assert {first.tokens[i] for i in first.function_words} >= {"in", "che", "è"}
    assert "verdi" not in {first.tokens[i] for i in first.function_words}
    assert not first.cues  # « che » compares nothing without a word of degree


def test_cue_words_are_placed_by_kind() -> None:
    largest = read("What is the largest city in Germany?", "en")
    assert dict(largest.cues) == {largest.tokens.index("largest"): "superlative"}


def test_the_decisions_get_the_stage_reading() -> None:
    reading = read("Where was Einstein born?", "en")
    case = Case("Where was Einstein born?", "en", [], [], reading=reading)
    assert case.reading is reading and case.tokens == list(reading.tokens)
    other = Case("Where was Einstein born?", "de", [], [], reading=reading)  # another language: read anew
    assert other.reading is not reading and other.reading.lang == "de"


def test_an_or_word_that_ends_the_question_offers_no_choice() -> None:
    from qa.reading.analysis import alternative_words

    assert not alternative_words("stephen hawking est né ou", "fr")  # « où » typed without its accent
    assert not alternative_words("stephen hawking est né ou ?", "fr")
    assert alternative_words("est-il né à paris ou à londres", "fr")


@pytest.mark.parametrize(("question", "lang", "count"), [
    ("Give me the number of films directed by Christopher Nolan.", "en", True),
    ("Dime el número de películas dirigidas por Christopher Nolan", "es", True),
    ("How many films did Nolan direct?", "en", True),
    ("Which films did Nolan direct?", "en", False),
    ("Со сколькими странами граничит Германия?", "ru", True),  # « сколько » declined
    ("Зі скількома країнами межує Німеччина?", "uk", True),
    ("Какие страны граничат с Германией?", "ru", False),
])
def test_the_number_of_things_asks_for_a_count(question: str, lang: str, count: bool) -> None:
    assert analyze(question, lang).count is count


@pytest.mark.parametrize(("question", "lang", "yes_no"), [
    ("¿Rainer Maria Rilke nació en Viena?", "es", True),  # a statement with its question mark
    ("Is Berlin the capital of Germany?", "en", True),
    ("cuantos hijos tiene obama?", "es", False),
    ("Where was Rilke born?", "en", False),
])
def test_the_reading_says_whether_the_question_asks_yes_or_no(question: str, lang: str, yes_no: bool) -> None:
    assert read(question, lang).yes_no is yes_no
