"""Name-span features of the local generator: how much of a question's capitalized name a
linked span covers, and how many of its words are written as a name."""

from __future__ import annotations

import pytest

from core.text import tokenize
from qa.reading.names import aligned_cased, list_breaks, name_features, name_words


def _span(question: str, words: str) -> tuple[int, int]:
    tokens, target = tokenize(question), tokenize(words)
    for i in range(len(tokens)):
        if tokens[i:i + len(target)] == target:
            return i, i + len(target)
    raise AssertionError(words)


@pytest.mark.parametrize(("question", "mention", "extra", "cover"), [
    ("Where was Roger Federer born?", "Roger", 1.0, 0.5),  # a namesake sharing the first name
    ("Where was Roger Federer born?", "Federer", 1.0, 0.5),  # ... or the last name
    ("Where was Roger Federer born?", "Roger Federer", 0.0, 1.0),
    ("Wo wurde Albert Einstein geboren?", "Albert Einstein", 0.0, 1.0),
    ("Где родился Роджер Федерер?", "Роджер", 1.0, 0.5),
    ("where was roger federer born?", "roger", 0.0, 1.0),  # no case, no evidence
    ("阿尔伯特·爱因斯坦出生在哪里？", "爱因斯坦", 0.0, 1.0),
])
def test_name_features_see_a_partly_covered_name(question, mention, extra, cover):
    start, end = _span(question, mention)
    feats = name_features(aligned_cased(question, len(tokenize(question))), start, end)
    assert feats == {"name_extra": extra, "name_cover": cover}


def test_a_word_naming_the_entitys_class_ends_its_name():
    question = "Wer hat den Film Titanic gedreht?"
    cased = aligned_cased(question, len(tokenize(question)))
    start, end = _span(question, "Titanic")
    film = _span(question, "Film")[0]
    assert name_features(cased, start, end) == {"name_extra": 1.0, "name_cover": 0.5}
    assert name_features(cased, start, end, {film}) == {"name_extra": 0.0, "name_cover": 1.0}
    federer = "Where was Roger Federer born?"
    roger = _span(federer, "Roger")  # a word that names no class of the entity stays in the name
    assert name_features(aligned_cased(federer, len(tokenize(federer))), *roger, {0})["name_cover"] == 0.5


def test_a_span_of_words_that_are_no_name_has_nothing_to_cover():
    question = "Frankreich Hauptstadt"  # « Hauptstadt » linked as the class "capital"
    cased = aligned_cased(question, len(tokenize(question)))
    assert name_features(cased, 1, 2) == {"name_extra": 1.0, "name_cover": 0.5}
    assert name_features(cased, 1, 2, {1}) == {"name_extra": 0.0, "name_cover": 1.0}
    assert name_features(cased, 0, 1, {1}) == {"name_extra": 0.0, "name_cover": 1.0}


def test_no_name_runs_across_a_comma():
    """« Frankreich, Deutschland und Italien » lists three names: « Frankreich » covers its own."""
    question = "Welches Land grenzt an Frankreich, Deutschland und Italien?"
    cased = aligned_cased(question, len(tokenize(question)))
    start, end = _span(question, "Frankreich")
    assert list_breaks(question) == frozenset({end})
    assert name_features(cased, start, end) == {"name_extra": 1.0, "name_cover": 0.5}
    assert name_features(cased, start, end, (), list_breaks(question)) == {"name_extra": 0.0, "name_cover": 1.0}
    assert list_breaks("Where was Roger Federer born?") == frozenset()
    assert list_breaks("北京、上海和广州") == frozenset({2})  # a CJK character is a token


@pytest.mark.parametrize("question, words, count", [
    ("Which member of The Rolling Stones sang?", "The Rolling Stones", 2),  # "The" is a function word
    ("Where was Albert Einstein born?", "Albert Einstein", 2),
    ("Where was albert Einstein born?", "albert Einstein", 0),
    ("who founded the rolling stones?", "the rolling stones", 0),  # no case
])
def test_name_words_count_a_span_written_as_a_name(question, words, count):
    cased = aligned_cased(question, len(tokenize(question)))
    assert name_words(cased, *_span(question, words)) == count
