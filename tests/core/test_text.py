"""core.text: the normalizers are distinct on purpose, and the script tables decide as the
stages need (language by script, label script, transliterable and capitalizing scripts)."""

from __future__ import annotations

import pytest

from core.text import (
    CASED_NON_LATIN,
    CJK,
    TRANSLITERABLE,
    as_question,
    borrow_accents,
    borrow_case,
    fold_yo,
    is_katakana,
    join_tokens,
    normalize,
    normalize_cue_text,
    normalize_phrase,
    script_share,
    without_description,
    without_titles,
)
from lang import get as language
from lang.morphology import inflection_prefix, same_word
from lang.stopwords import read_case, uninformative_case


def test_the_three_normalizers_differ_where_their_stages_need_it():
    text = "Ｗｈｅｒｅ  was Ёлкин’s  birth-place?"
    assert normalize(text) == "where was ёлкин s birth place"  # names: punctuation is a space
    assert normalize_cue_text(text) == "where was елкин’s birth-place?"  # cues: punctuation kept, ё -> е
    assert normalize_phrase(text) == "ｗｈｅｒｅ was ёлкин's birth-place?"  # lexicon: apostrophes unified only
    assert fold_yo("ёлка") == "елка"


@pytest.mark.parametrize(("text", "cased", "transliterable", "cue_cjk"), [
    ("Эйнштейн", True, True, False),
    ("Αθήνα", True, True, False),
    ("برلين", False, True, False),
    ("アインシュタイン", False, True, True),
    ("柏林", False, False, True),
    ("Berlin", False, False, False),
])
def test_script_classes(text: str, cased: bool, transliterable: bool, cue_cjk: bool):
    assert bool(CASED_NON_LATIN.search(text)) is cased
    assert bool(TRANSLITERABLE.search(text)) is transliterable
    assert bool(CJK.search(text)) is cue_cjk


def test_label_script_share_and_katakana():
    assert script_share("Москва", language("ru").script) == 1.0
    assert script_share("Moskva", language("ru").script) == 0.0
    assert script_share("東京タワー", language("ja").script) == 1.0
    assert is_katakana("ア") and not is_katakana("あ") and not is_katakana("アイ")


@pytest.mark.parametrize(("a", "b", "lang", "same"), [
    ("франции", "франция", "ru", True),
    ("москвы", "москва", "ru", True),
    ("новой", "новая", "ru", True),  # stemmed as written: folded, « новой » would be « новои »
    ("frankreichs", "frankreich", "de", True),
    ("einstien", "einstein", "en", False),
    ("франції", "франція", "uk", True),  # Ukrainian: the dictionary form (pymorphy3)
    ("україни", "украіна", "uk", True),  # ... also against a diacritic-folded name
    ("франції", "фрази", "uk", False),
    ("на", "на", "ru", False),  # stems shorter than three letters say nothing
    ("родился", "роден", "ru", False),  # a verb (stem « род » and four letters more) is no form of a name
    ("италией", "италия", "ru", True),  # ... a case ending of three letters is
])
def test_same_word_is_the_snowball_stem_or_the_dictionary_form(a: str, b: str, lang: str, same: bool):
    assert same_word(a, b, lang) is same


@pytest.mark.parametrize(("word", "lang", "prefix"), [
    ("новой", "ru", "нов"),
    ("франції", "uk", "франці"),  # shared with its dictionary form « франція »
    ("на", "ru", None),
    ("родился", "ru", None),  # a verb form: no name's word inflects so
    ("東京", "ja", None),  # no stemmer, no dictionary
])
def test_inflection_prefix_is_what_the_word_shares_with_its_other_forms(word: str, lang: str, prefix: str | None):
    assert inflection_prefix(word, lang) == prefix


@pytest.mark.parametrize("text, uninformative", [
    ("WHERE WAS ALBERT EINSTEIN BORN?", True),
    ("What Is The Capital Of France's Neighbour?", True),  # the "s" of "France's" is not a word
    ("Wo Wurde Albert Einstein Geboren?", True),
    ("КТО НАПИСАЛ «ВОЙНУ И МИР»?", True),
    ("Where was Albert Einstein born?", False),
    ("Wo wurde Albert Einstein geboren?", False),  # German nouns are capitalized, its verbs are not
    ("What does NASA do?", False),
    ("IBM CEO?", False),  # two words say too little
    ("Albert Einstein Geburtsort", False),  # names and German nouns, capitalized as they should be
    ("Barack Obama Birthplace", False),
    ("Hauptstadt Von Deutschland", True),
    ("Boyz II Men ने कितने सुपरबाउल हाफ टाइम शो किए?", False),  # Latin names in a script without case
    ("東京は日本の首都ですか", False),
])
def test_uninformative_case(text, uninformative):
    assert uninformative_case(text) is uninformative


def test_read_case_lowers_only_a_question_whose_case_says_nothing():
    assert read_case("WHAT IS THE CAPITAL OF JAPAN?") == "what is the capital of japan?"
    assert read_case("What Is The Capital Of Japan?") == "what is the capital of japan?"
    assert read_case("What is the capital of Japan?") == "What is the capital of Japan?"


def test_borrow_accents_writes_words_typed_without_accents_as_the_reading_does():
    assert borrow_accents("Was ist die Hauptstadt von Osterreich?", "Österreich Hauptstadt ?answer") == (
        "Was ist die Hauptstadt von Österreich?")
    assert borrow_accents("capital de hungria", "Hungría capital ?answer") == "capital de hungría"  # case kept
    assert borrow_accents("¿Cual es la capital?", "Hungría capital ?answer") == "¿Cual es la capital?"  # not in it
    assert borrow_accents("Où est né Einstein ?", "Einstein lieu de naissance") == "Où est né Einstein ?"
    assert borrow_accents("Wo ist Koln?", "Köln Kölner") == "Wo ist Köln?"
    # a name typed with diacritics its reading's name lacks is written as the reading writes it
    assert borrow_accents("¿Dónde nació Medvédev?", "Medvedev lugar de nacimiento ?answer") == "¿Dónde nació Medvedev?"
    assert borrow_accents("¿Qué río pasa por Zúrich?", "Que Zurich ?answer") == "¿Qué río pasa por Zurich?"


def test_borrow_case_writes_a_lower_case_question_as_the_reading_does():
    assert borrow_case("wo wurde albert einstein geboren?", "Albert Einstein Geburtsort ?answer") == (
        "wo wurde Albert Einstein geboren?")
    assert borrow_case("was ist die hauptstadt von frankreich?", "Frankreich Hauptstadt ?answer") == (
        "was ist die Hauptstadt von Frankreich?")
    # a question with any capital keeps the user's case; words the reading lacks stay as typed
    assert borrow_case("Wo wurde albert einstein geboren?", "Albert Einstein Geburtsort") == (
        "Wo wurde albert einstein geboren?")
    assert borrow_case("¿dónde nació einstein?", "Albert Einstein lugar de nacimiento") == "¿dónde nació Einstein?"


def test_the_punctuation_table_spaces_exactly_the_punctuation_of_the_basic_plane():
    """The table filled as characters are met maps every code point as the rule says: a
    punctuation, symbol, separator or other character of the Basic Multilingual Plane to a
    space (but the prolonged sound and iteration marks), anything else to itself."""
    import unicodedata

    from core.text import _PUNCT

    def expected(cp: int) -> str:
        char = chr(cp)
        if cp < 0x10000 and unicodedata.category(char)[0] in "PSZC" and char not in "\u30fc\u3005":
            return " "
        return char

    code_points = [cp for cp in range(0x110000) if not 0xD800 <= cp < 0xE000]
    text = "".join(map(chr, code_points))
    assert text.translate(_PUNCT) == "".join(map(expected, code_points))
    assert "¿Qué?—«ça» ー々 🙂".translate(_PUNCT) == " Qué   ça  ー々 🙂"


def test_tokens_are_joined_back_with_cjk_characters_side_by_side():
    assert join_tokens(["ア", "イ", "ン", "シ", "ュ", "タ", "イ", "ン"]) == "アインシュタイン"
    assert join_tokens(["albert", "einstein"]) == "albert einstein"
    assert join_tokens(["莫", "扎", "特", "mozart", "莫"]) == "莫扎特 mozart 莫"
    assert join_tokens([]) == ""


def test_honorifics_said_with_a_name_are_read_away():
    ja, en = language("ja").titles, language("en").titles
    assert without_titles("ホーキング博士ってどこで生まれたの？", ja) == "ホーキングってどこで生まれたの？"
    assert without_titles("Where was Dr. Salk born?", en) == "Where was Salk born?"
    assert without_titles("where was mrs thatcher born", en) == "where was thatcher born"
    assert without_titles("Who directed Mrs. Doubtfire?", en) == "Who directed Doubtfire?"
    assert without_titles("Where is the Drina?", en) == "Where is the Drina?"  # a word, not a title
    assert without_titles("Dr.", en) == "Dr." and without_titles("博士", ja) == "博士"  # nothing else: kept
    assert without_titles("Where was Dr. Salk born?", ()) == "Where was Dr. Salk born?"


def test_a_noun_said_right_before_a_name_is_read_away():
    assert without_description("In what city did the painter Velázquez pass away?", "painter", "Velázquez") == \
        "In what city did the Velázquez pass away?"
    assert without_description("¿En qué ciudad falleció el Pintor Velázquez?", "pintor", "Velázquez") == \
        "¿En qué ciudad falleció el Velázquez?"
    # the noun elsewhere, or no noun: the question as typed
    assert without_description("Which painter was Velázquez's teacher?", "painter", "Velázquez") == \
        "Which painter was Velázquez's teacher?"
    assert without_description("Where did Velázquez die?", "", "Velázquez") == "Where did Velázquez die?"


def test_a_request_for_answers_is_put_as_the_question_it_stands_for():
    es, fr, it, pt = (language(code).request_questions for code in ("es", "fr", "it", "pt"))
    assert as_question("Dame todas las películas dirigidas por Christopher Nolan", es) == \
        "¿Cuáles son las películas dirigidas por Christopher Nolan?"
    assert as_question("dime los países que limitan con Italia.", es) == \
        "¿Cuáles son los países que limitan con Italia?"
    # a courtesy ("dime") already set aside: the request opens with its article alone
    assert as_question("todos los países donde el español es lengua oficial", es) == \
        "¿Cuáles son los países donde el español es lengua oficial?"
    assert as_question("Dame el nombre de la esposa de Lenin", es) == "¿Cuál es el nombre de la esposa de Lenin?"
    assert as_question("Donne-moi toutes les villes de France", fr) == "Quelles sont les villes de France ?"
    assert as_question("Dammi tutti i film diretti da Quentin Tarantino", it) == \
        "Quali sono i film diretti da Quentin Tarantino?"
    assert as_question("Liste todos os países da América do Sul", pt) == "Quais são os países da América do Sul?"
    # a question, a word that only starts like an opening, a request with nothing after it: as typed
    assert as_question("¿Dónde nació Einstein?", es) == "¿Dónde nació Einstein?"
    assert as_question("lasaña de verduras", es) == "lasaña de verduras"
    assert as_question("Dame los", es) == "Dame los"
    assert as_question("Give me all films", ()) == "Give me all films"
