"""Wordings first-time users type (issue 40, kind 3): the lexicon knows the casual verb forms
and words of each language (Dutch past tenses, "band" words), and the particles of a casual
Japanese or Chinese question are function words."""

from __future__ import annotations

import pytest

from lang.stopwords import is_stopword
from qa.decisions.coverage import function_word
from qa.reading.lexicon import PropertyLexicon


@pytest.fixture(scope="module")
def lexicon() -> PropertyLexicon:
    return PropertyLexicon.load()


@pytest.mark.parametrize(("question", "lang", "pid"), [
    ("waar overleed rembrandt", "nl", "P20"),
    ("waar is rembrandt gestorven", "nl", "P20"),
    ("in welke band zat ringo starr", "nl", "P463"),
    ("wanneer werd ajax opgericht", "nl", "P571"),
    ("waaraan overleed van gogh", "nl", "P509"),
    ("waar ligt mozart begraven", "nl", "P119"),
    ("op welk continent ligt egypte", "nl", "P30"),
    ("van welke partij is rutte", "nl", "P102"),
    ("met wie was john lennon getrouwd", "nl", "P26"),
    ("in welcher band war ringo starr", "de", "P463"),
    ("ringo starr in che gruppo suonava", "it", "P463"),
    ("dans quel groupe jouait ringo starr", "fr", "P463"),
    ("em que banda tocava ringo starr", "pt", "P463"),
    ("в какой группе играл ринго старр", "ru", "P463"),
    ("в якому гурті грав рінго старр", "uk", "P463"),
    ("リンゴ・スターってどのバンドにいたの？", "ja", "P463"),
    ("林戈·斯塔尔是哪个乐队的", "zh", "P463"),
    ("what group was ringo starr in", "en", "P463"),
])
def test_a_casual_wording_finds_the_property(lexicon: PropertyLexicon, question: str, lang: str, pid: str) -> None:
    assert pid in {m.pid for m in lexicon.match_properties(question, lang)}


def test_a_wording_does_not_find_a_property_it_does_not_say(lexicon: PropertyLexicon) -> None:
    assert "P20" not in {m.pid for m in lexicon.match_properties("waar is rembrandt geboren", "nl")}
    assert "P463" not in {m.pid for m in lexicon.match_properties("waar overleed rembrandt", "nl")}


@pytest.mark.parametrize(("char", "lang"), [("っ", "ja"), ("て", "ja"), ("け", "ja"), ("儿", "zh"), ("呀", "zh")])
def test_a_particle_of_a_casual_question_is_a_function_word(char: str, lang: str) -> None:
    # « レーニンの妻って誰？ », « 中国的首都ってどこだっけ », « 首都在哪儿 »: the particle explains nothing
    assert is_stopword(char)
    assert function_word(char, lang)


def test_a_content_character_is_no_function_word() -> None:
    assert not is_stopword("妻")
    assert not is_stopword("川")
