"""Cross-script linking: a name written in Arabic, Devanagari, Cyrillic or katakana finds an
entity that the KG names only in Latin letters (phonetic keys of the label index)."""

from __future__ import annotations

from pathlib import Path

import pytest

from backends.local.linking import Linker
from core.text import latin_form, phonetic_key, phonetic_keys, sound_similarity
from kg.labels import LabelIndex, build_label_index

BERLIN, PARIS, EINSTEIN, PUSHKIN = "Q64", "Q90", "Q937", "Q7200"


@pytest.fixture
def index(tiny_store, tmp_path: Path) -> LabelIndex:
    build_label_index(tiny_store, tmp_path / "labels")
    return LabelIndex.open(tmp_path / "labels")


@pytest.mark.parametrize(("latin", "foreign"), [
    ("Lewis Carroll", "Льюис Кэрролл"),
    ("Nelson Mandela", "नेल्सन मंडेला"),
    ("Nelson Mandela", "نيلسون مانديلا"),
    ("Albert Einstein", "アルベルト・アインシュタイン"),
    ("Woody Allen", "Вуди Аллен"),
    ("Washington", "ワシントン"),
    ("Brazil", "برازيل"),
])
def test_sound_alike_names_share_a_key(latin: str, foreign: str):
    assert phonetic_key(foreign) in phonetic_keys(latin)
    assert sound_similarity(latin_form(foreign), latin_form(latin)) >= 0.7


def test_a_word_initial_iotated_letter_is_also_heard_as_the_latin_j():
    # « Якоб » keys as "kb" (« я » a vowel), Jacob as "skb" (a Latin "j" a consonant): the span
    # also gets the key and sound form with "j", and "Jacob Grimm" sounds exactly alike
    from backends.local.linking import _inflection_variants

    variants = dict(_inflection_variants("якоб гримм"))
    assert phonetic_key("Якоб Гримм") not in phonetic_keys("Jacob Grimm")
    assert set(variants) & phonetic_keys("Jacob Grimm")
    assert sound_similarity(variants[phonetic_keys("Jacob Grimm").pop()], latin_form("Jacob Grimm")) == 1.0
    assert all("j" not in sound for sound in dict(_inflection_variants("эльба")).values())  # only я, ю, й


def test_keys_need_a_transliterable_script_and_some_length():
    assert phonetic_key("Berlin") is None  # Latin spans use the ordinary (fuzzy) lookup
    assert phonetic_key("北京") is None  # Han characters are not transliterated
    assert phonetic_key("Ио") is None  # too short to mean anything
    assert phonetic_keys("Q2") == set()


def test_similarity_prefers_the_closer_spelling():
    spans = latin_form("Вуди Аллен")
    assert sound_similarity(spans, latin_form("Woody Allen")) > sound_similarity(spans, latin_form("Bob Dylan"))


@pytest.mark.parametrize(("question", "lang", "qid"), [
    ("ما هي عاصمة برلين؟", "ar", BERLIN),  # Berlin has no Arabic name in the tiny KG
    ("बर्लिन की जनसंख्या कितनी है?", "hi", BERLIN),
    ("باريس", "ar", PARIS),
    ("आइंस्टाइन का जन्म कहाँ हुआ था?", "hi", EINSTEIN),  # a surname, sound-alike
    ("Где родился Alexander Pushkin?", "ru", PUSHKIN),  # Latin names still link as written
])
def test_cross_script_questions_link_latin_names(index: LabelIndex, question: str, lang: str, qid: str):
    mentions = Linker(index).link(question, lang)
    assert mentions and mentions[0].qid == qid


def test_sound_alike_mentions_are_marked_and_weaker_than_exact_ones(index: LabelIndex):
    sound = next(m for m in Linker(index).link("برلين", "ar") if m.qid == BERLIN)
    exact = next(m for m in Linker(index).link("Берлин", "ru") if m.qid == BERLIN)
    assert sound.phonetic and sound.fuzzy and not exact.phonetic
    assert sound.score < exact.score


def test_where_capitals_mark_names_only_capitalized_cyrillic_words_are_read_as_names(index: LabelIndex):
    capitalized = Linker(index).link("Где родился Айнштайн?", "ru")  # no Russian name spelt so
    assert capitalized[0].qid == EINSTEIN and capitalized[0].phonetic
    marked = Linker(index).link("Что связывает Берлин и айнштайн?", "ru")  # « Берлин » marks the names
    assert not any(m.phonetic and m.qid == EINSTEIN for m in marked)


@pytest.mark.parametrize("question", ["где родился айнштайн?", "Где родился айнштайн?", "ГДЕ РОДИЛСЯ АЙНШТАЙН?"])
def test_where_case_marks_no_name_every_cyrillic_word_may_be_one(index: LabelIndex, question: str):
    # typed all in lower case, capitalized only as a sentence is, or shouted: nothing marks the
    # names, so a word is heard as a Latin name as in a script without case
    top = Linker(index).link(question, "ru")[0]
    assert top.qid == EINSTEIN and top.phonetic


@pytest.mark.slow
def test_cross_script_names_over_the_full_kg(shared_kg_source: Path):
    """Entities the KG names only in Latin letters, asked for in other scripts."""
    from core.settings import load_settings
    from kg.build import build_kg

    settings = load_settings({}, kg_source=shared_kg_source)
    index = LabelIndex.open(build_kg(shared_kg_source, settings.cache_dir, progress=False).labels)
    linker = Linker(index)
    cases = [
        ("На каком музыкальном инструменте играет Вуди Аллен?", "ru", "Q25089"),  # Woody Allen
        ("В каком городе родился Эрнесто Че Гевара?", "ru", "Q5809"),
        ("ليبرون جيمس", "ar", "Q36159"),  # LeBron James
        ("ما هي عاصمة البرازيل؟", "ar", "Q155"),  # Brazil, with the article
    ]
    for question, lang, qid in cases:
        top = [m.qid for m in linker.link(question, lang)[:5]]
        assert qid in top, (question, top)


def test_a_function_word_of_the_question_language_in_lower_case_links_nothing_alone():
    # « van » (Dutch "of") is Vanuatu's code « VAN »: written in lower case in a question whose
    # capitals mark its names, it is grammar; capitalized, or in a question all in one case, it may be a name
    from backends.local.linking import _grammar_words
    from core.text import tokenize

    def grammar(question: str, lang: str) -> set[str]:
        tokens = tokenize(question)
        return {tokens[i] for i in _grammar_words(question, tokens, lang)}

    assert "van" in grammar("Wat is de hoofdstad van Spanje?", "nl")
    assert "spanje" not in grammar("Wat is de hoofdstad van Spanje?", "nl")
    assert "van" not in grammar("Wie schilderde Van Gogh?", "nl")  # capitalized: a name's word
    assert grammar("wat is de hoofdstad van spanje", "nl") == set()  # all in lower case: no case evidence
    assert "van" not in grammar("What is the capital of van?", "en")  # not an English function word


def test_a_heard_span_holding_a_word_the_kg_names_something_by_is_not_heard():
    # « жену ленина » typed in lower case: « ленина » is Lenin's Russian name (inflected), so the
    # two words are not heard as "John Lennon"; a span of words the KG names nothing by is
    from backends.local.linking import _holds_a_known_name, _Match
    from kg.labels import KIND_ALT, NameHit

    lenin = _Match(1, 2, "ленин", 0.95, False, inflected=True)
    heard = _Match(0, 2, "snrn", 0.88, True, phonetic=True, sound="zhenulenina", unmarked=True)
    alone = _Match(0, 1, "sn", 0.88, True, phonetic=True, sound="zhenu", unmarked=True)
    hits = {"ленин": [NameHit("Q1394", KIND_ALT, ("ru",))]}
    assert _holds_a_known_name(heard, [lenin], hits)
    assert not _holds_a_known_name(alone, [lenin], hits)
    assert not _holds_a_known_name(heard, [lenin], {})
