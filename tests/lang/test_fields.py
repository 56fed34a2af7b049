"""A language's script, morphology and detection fields are well-formed, and the code that
used to keep them in its own tables reads them from the registry."""

from __future__ import annotations

import snowballstemmer

from core.text import LABEL_SCRIPTS, script_pattern
from lang import MAIN, SUPPORTED, supported
from lang import get as language
from lang.morphology import inflection_prefix, lemmas, same_word, stem
from lang.others import OTHER_LABEL_LANGUAGES, OTHER_SCRIPTS, OTHER_WORDS


def test_scripts_and_morphology_name_what_exists() -> None:
    algorithms = set(snowballstemmer.algorithms())
    for lang in supported():
        assert lang.script in LABEL_SCRIPTS, lang.code
        assert all(script_pattern(s).pattern for s in lang.own_scripts)  # a Unicode script name, else ValueError
        assert not lang.stemmer or lang.stemmer in algorithms, lang.code
        assert not (lang.stemmer and lang.lemmatizer), lang.code  # one way to find a word's other forms
        assert not lang.cased_names or lang.stemmer or lang.lemmatizer, lang.code
    assert set(OTHER_LABEL_LANGUAGES) <= set(LABEL_SCRIPTS)


def test_morphology_follows_the_language_fields() -> None:
    assert stem("франции", "ru") == stem("франция", "ru") == "франц"
    assert lemmas("франції", "uk") >= {"франція"} and not lemmas("франции", "ru")
    assert same_word("франції", "франція", "uk") and not same_word("berlin", "paris", "de")
    assert inflection_prefix("новой", "ru") == "нов"
    assert stem("франции", "xx") is None and not lemmas("франції", "xx")  # an unsupported code: none


def test_the_lists_of_languages_are_the_registry_s() -> None:
    from backends.local.linking import CASE_LANGUAGES
    from kg.cldr import NAME_LANGUAGES
    from kg.endpoint import name_languages
    from qa.reading.detect import CYRILLIC_LANGUAGES, LANGUAGE_BY_SCRIPT, LATIN_LANGUAGES
    from qa.reading.detect import OTHER_WORDS as DETECT_OTHER_WORDS
    from qa.reading.lexicon import LANGUAGES
    from training.synthetic import LANGS

    assert NAME_LANGUAGES == SUPPORTED and LANGUAGES == MAIN
    assert set(LATIN_LANGUAGES) == {"en", "de", "fr", "es", "it", "pt", "lt", "nl"}
    assert CYRILLIC_LANGUAGES == ("ru", "uk", "be") and {"ru", "uk"} == CASE_LANGUAGES
    assert set(LANGS) == {code for code in SUPPORTED if language(code).complex_templates}
    assert [code for code, _ in LANGUAGE_BY_SCRIPT][-1] == "zh"  # Han last: kana and Hangul decide ja and ko
    own = {code for code in SUPPORTED if language(code).own_scripts}
    assert {code for code, _ in LANGUAGE_BY_SCRIPT} == own | set(OTHER_SCRIPTS)
    assert set(name_languages("ru", "Москва")) >= {"ru", "uk", "be", "ba", "bg", "sr"}
    assert {code: w for code, w in OTHER_WORDS.items() if code not in SUPPORTED} == DETECT_OTHER_WORDS


def test_script_languages_are_told_by_their_script() -> None:
    from qa.reading.detect import detect_language

    assert detect_language("東京タワーはどこですか") == "ja" and detect_language("北京在哪里") == "zh"
    assert detect_language("서울은 어디에 있나요") == "ko" and detect_language("Որտե՞ղ է Երևանը") == "hy"
