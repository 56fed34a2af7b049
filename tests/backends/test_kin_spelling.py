"""Ukrainian names looked up as Russian spells them (:attr:`lang.base.Language.kin_spelling`):
the KG names few things in Ukrainian and many in Russian."""

from __future__ import annotations

from pathlib import Path

import pytest

from backends.local.linking import Linker
from kg.labels import LabelIndex, build_label_index
from lang import get as language

EINSTEIN, PUSHKIN = "Q937", "Q7200"


@pytest.fixture
def index(tiny_store, tmp_path: Path) -> LabelIndex:
    build_label_index(tiny_store, tmp_path / "labels")
    return LabelIndex.open(tmp_path / "labels")


@pytest.mark.parametrize(("ukrainian", "russian"), [
    ("ейнштейн", "эйнштейн"),  # « е » at a word's start is Russian « э »
    ("іван", "иван"),
    ("київ", "кийив"),
    ("пушкіна", "пушкина"),
    ("берлін", "берлин"),
    ("москва", "москва"),  # spelled alike
])
def test_ukrainian_words_are_respelled_letter_by_letter(ukrainian: str, russian: str):
    kin = language("uk").kin_spelling
    assert kin is not None and kin.lang == "ru"
    assert kin.spell(ukrainian) == russian


def test_only_a_language_with_a_kindred_spelling_has_one():
    assert language("ru").kin_spelling is None
    assert language("en").kin_spelling is None


def test_a_ukrainian_name_links_by_its_russian_label_as_a_folded_name(index: LabelIndex):
    top = Linker(index).link("де народився альберт ейнштейн", "uk")[0]
    assert top.qid == EINSTEIN
    assert top.kind == "folded"  # the Russian label respelled, not a sound-alike
    assert top.surface == "альберт ейнштейн"


def test_an_inflected_ukrainian_name_links_by_its_russian_inflection(index: LabelIndex):
    found = {m.qid: m for m in Linker(index).link("хто дружина пушкіна", "uk")}
    assert PUSHKIN in found
    assert found[PUSHKIN].kind == "inflected"


def test_a_russian_question_is_not_respelled(index: LabelIndex):
    # « ейнштейн » is no Russian spelling: a Russian question hears it by sound only
    found = {m.qid: m for m in Linker(index).link("где родился ейнштейн", "ru")}
    assert found.get(EINSTEIN) is None or found[EINSTEIN].kind == "phonetic"
