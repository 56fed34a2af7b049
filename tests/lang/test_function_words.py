"""Function words never count as unexplained content (issue 40, kind 2): every language has
its list, and a "than" word that is only a function word here compares nothing."""

from __future__ import annotations

import pytest

from core.text import tokenize
from lang import SUPPORTED
from lang import get as language
from qa.decisions.coverage import cue_positions, function_word


@pytest.mark.parametrize("code", SUPPORTED)
def test_every_language_has_function_words(code: str) -> None:
    assert len(language(code).stop_words) >= 40, code


@pytest.mark.parametrize(("question", "lang", "word"), [
    ("in che città è morto giuseppe verdi", "it", "che"),
    ("shakira di che nazionalità è", "it", "di"),
    ("¿De qué nacionalidad era Leonard Cohen?", "es", "de"),
    ("dans quelle ville est né charles aznavour", "fr", "dans"),
    ("дзе нарадзіўся янка купала", "be", "дзе"),
    ("इंदिरा गांधी के बेटे का नाम क्या था", "hi", "नाम"),  # "name", as English "name" is
])
def test_a_function_word_is_no_cue_and_needs_no_explaining(question: str, lang: str, word: str) -> None:
    tokens = tokenize(question)
    assert cue_positions(question, tokens, lang) == {}
    assert function_word(word, lang)


def test_a_than_word_is_a_cue_beside_a_word_of_degree() -> None:
    for question, lang, than in [("chi è più alto di mario", "it", "di"),
                                 ("Is Berlin bigger than Paris?", "en", "than"),
                                 ("quelle ville est plus grande que paris", "fr", "que")]:
        tokens = tokenize(question)
        assert cue_positions(question, tokens, lang).get(tokens.index(than)) == "comparative", question
