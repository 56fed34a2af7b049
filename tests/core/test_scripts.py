"""core.text's scripts: Unicode's Script_Extensions as the ``regex`` module reads it decides
which script a character is written in, for every stage (no code point ranges of our own)."""

from __future__ import annotations

import re

import pytest

from core.text import (
    CJK,
    CJK_CLASS,
    LABEL_SCRIPTS,
    in_script,
    is_cjk,
    is_katakana,
    is_latin,
    script_class,
    script_pattern,
    script_share,
)
from qa.reading.detect import LANGUAGE_BY_SCRIPT

# one letter (or number) of each script the product tells apart, and the scripts it belongs to
CHARACTERS: list[tuple[str, set[str]]] = [
    ("A", {"Latin"}), ("ß", {"Latin"}), ("ệ", {"Latin"}), ("Ｗ", {"Latin"}),
    ("Ж", {"Cyrillic"}), ("ї", {"Cyrillic"}), ("ў", {"Cyrillic"}), ("ԓ", {"Cyrillic"}),
    ("Ω", {"Greek"}), ("ά", {"Greek"}), ("ἀ", {"Greek"}),
    ("東", {"Han"}), ("々", {"Han"}), ("〇", {"Han"}), ("丽", {"Han"}),
    ("あ", {"Hiragana"}), ("ア", {"Katakana"}), ("ｱ", {"Katakana"}), ("ー", {"Hiragana", "Katakana"}),
    ("한", {"Hangul"}), ("ᄀ", {"Hangul"}), ("ㅋ", {"Hangul"}),
    ("ب", {"Arabic"}), ("٣", {"Arabic"}), ("ک", {"Arabic"}),
    ("क", {"Devanagari"}), ("ि", {"Devanagari"}),
    ("ক", {"Bengali"}), ("ա", {"Armenian"}), ("አ", {"Ethiopic"}), ("ש", {"Hebrew"}), ("ก", {"Thai"}),
]
SCRIPTS = sorted({s for _, scripts in CHARACTERS for s in scripts})


@pytest.mark.parametrize(("ch", "scripts"), CHARACTERS)
def test_each_character_belongs_to_its_scripts_and_no_other(ch: str, scripts: set[str]) -> None:
    assert {s for s in SCRIPTS if in_script(ch, s)} == scripts


@pytest.mark.parametrize("ch", ["。", "、", "・", "؟", "،", "«", "?", " ", "1", "\u0301", "_"])
def test_shared_punctuation_digits_and_marks_belong_to_no_script(ch: str) -> None:
    assert not any(in_script(ch, s) for s in SCRIPTS)


def test_a_letter_latin_text_shares_with_other_scripts_is_latin_alone() -> None:
    # U+02BC: Unicode lists it for Latin, Cyrillic, Devanagari, Bengali and Thai
    assert {s for s in SCRIPTS if in_script("ʼ", s)} == {"Latin"}
    assert is_latin("Oʼahu") and not any(p.search("Where is Oʼahu?") for _, p in LANGUAGE_BY_SCRIPT)


def test_a_script_class_is_an_re_class_of_code_point_ranges() -> None:
    body = script_class("Greek", "Cyrillic")
    assert re.fullmatch(r"(?:\\u[0-9a-f]{4}(?:-\\u[0-9a-f]{4})?)+", body)
    pattern = re.compile(f"[{body}]+")
    assert pattern.fullmatch("ΑθήναМосква") and not pattern.search("Berlin 東京")
    assert script_pattern("Greek", "Cyrillic").pattern == f"[{body}]"
    assert script_class("Cyrillic", "Greek") == body  # the same set, whatever the order
    with pytest.raises(ValueError):
        script_class()
    with pytest.raises(ValueError, match="Klingon"):
        script_class("Klingon")


def test_re_keeps_its_own_word_characters_beside_a_script_class() -> None:
    # numbers and cue words exclude CJK from "a letter before": a kana or Han letter may touch, a Latin one not
    before = re.compile(rf"(?<!\d)(?<![^\W\d_{CJK_CLASS}])\d+")
    assert before.search("東京1964年") and before.search("x 1964") and not before.search("x1964")


def test_cjk_tokens_katakana_latin_and_label_shares() -> None:
    assert is_cjk("東京") and is_cjk("タワー") and is_cjk("ー") and not is_cjk("東京x") and not is_cjk("")
    assert CJK.search("abc 柏林") and not CJK.search("Berlin")
    assert is_katakana("ア") and is_katakana("ー") and not is_katakana("あ") and not is_katakana("アイ")
    assert is_latin("Việt Nam") and is_latin("Zürich, 1291") and not is_latin("Zürich Цюрих") and is_latin("")
    assert script_share("東京タワー", "cjk") == 1.0 and script_share("Москва 2", "cyrillic") == 1.0
    assert script_share("Moskau Москва", "cyrillic") == 0.5 and script_share("", "latin") == 0.0
    assert set(LABEL_SCRIPTS) >= {"latin", "cyrillic", "cjk", "arabic"}


@pytest.mark.parametrize(("text", "lang"), [
    ("東京タワーはどこですか", "ja"), ("서울은 어디에 있습니까", "ko"), ("柏林在哪里", "zh"),
    ("أين ولد أينشتاين", "ar"), ("आइंस्टीन का जन्म कहाँ हुआ", "hi"), ("আইনস্টাইন কোথায় জন্মগ্রহণ করেন", "bn"),
    ("Որտեղ է ծնվել", "hy"), ("አዲስ አበባ የት ነው", "am"), ("Πού γεννήθηκε", "el"), ("איפה נולד", "he"),
    ("ไอน์สไตน์เกิดที่ไหน", "th"), ("Where was Einstein born?", None), ("Где родился Эйнштейн?", None),
])
def test_a_script_names_its_language(text: str, lang: str | None) -> None:
    assert next((code for code, pattern in LANGUAGE_BY_SCRIPT if pattern.search(text)), None) == lang
