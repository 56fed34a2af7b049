"""The hand-written property lexicon: the shipped asset, its coverage and the loader's errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from core.errors import LexiconError
from core.settings import Settings
from kg.store import build_store, open_store
from qa.reading.lexicon import (
    ANSWER_TYPES,
    DEFAULT_PATH,
    LANGUAGES,
    QUESTION_TYPES,
    PropertyLexicon,
    default_lexicon,
    language_file,
    language_lexicon,
)

REQUIRED_LANGS = ("en", "de", "ru", "zh", "fr", "es", "uk", "ja")
PROPERTY_IN_SPARQL = re.compile(r"\b(?:wdt|p|ps|pq):(P\d+)\b")
WD = "http://www.wikidata.org/entity/"
WDT = "http://www.wikidata.org/prop/direct/"


@pytest.fixture(scope="module")
def lexicon() -> PropertyLexicon:
    return PropertyLexicon.load()


def bench_properties(bench_dir: Path) -> set[str]:
    """Every property the dev questions use: gold SPARQL (wwq, rubq1) and gold triples (sqwd)."""
    used: set[str] = set()
    for name in ("wwq.json", "rubq1.json", "sqwd.json"):
        for question in json.loads((bench_dir / name).read_text(encoding="utf-8"))["questions"]:
            used.update(PROPERTY_IN_SPARQL.findall((question.get("query") or {}).get("sparql") or ""))
            triple = question.get("gold_triple")
            if triple:
                used.add("P" + triple[1][1:])  # R123 is the inverse of P123
    return used


def test_shipped_asset_loads(lexicon: PropertyLexicon) -> None:
    assert lexicon.source == DEFAULT_PATH
    assert len(lexicon.properties()) >= 150
    assert default_lexicon().properties() == lexicon.properties()


def test_each_language_part_is_what_the_lexicon_holds_of_it(lexicon: PropertyLexicon) -> None:
    from lang import SUPPORTED

    with_file = [code for code in SUPPORTED if language_file(code).exists()]
    assert {"en", "de", "ru", "zh", "fr", "es", "uk", "ja", "it", "pt"} <= set(with_file)
    for code in SUPPORTED:
        own = language_lexicon(code)
        assert {pid: ps for pid in lexicon.properties() if (ps := lexicon.phrases(pid, code))} == own.get("phrases", {})
        assert lexicon.question_words(code) == own.get("question_words", {})
        for kind, cues in own.get("cues", {}).items():
            assert lexicon.cues(kind, code) == cues


def test_a_language_without_its_part_has_no_phrases(lexicon: PropertyLexicon) -> None:
    assert not language_file("be").exists() and language_lexicon("be") == {}
    assert all(not lexicon.phrases(pid, "be") for pid in lexicon.properties())
    assert lexicon.question_words("be") == {}


def test_phrases_of_a_property_without_a_type_name_the_language_file(tmp_path: Path) -> None:
    path = tmp_path / "types.json"
    path.write_text(json.dumps({"version": 1, "properties": {"P19": {"answer_type": "place"}}}), encoding="utf-8")
    with pytest.raises(LexiconError, match=r"lexicon\.json.*types\.json does not type") as info:
        PropertyLexicon.load(path)
    assert info.value.path == language_file("en")


def test_properties_are_sorted_numerically_in_the_file() -> None:
    keys = list(json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))["properties"])
    assert keys == sorted(keys, key=lambda pid: int(pid[1:]))


def test_every_property_has_phrases_in_every_language(lexicon: PropertyLexicon) -> None:
    missing = [
        (pid, lang) for pid in lexicon.properties() for lang in LANGUAGES if not lexicon.phrases(pid, lang)
    ]
    assert missing == []


def test_every_dev_question_property_is_covered(lexicon: PropertyLexicon, bench_dir: Path) -> None:
    used = bench_properties(bench_dir)
    assert len(used) > 100
    uncovered = sorted(
        (pid, lang) for pid in used for lang in REQUIRED_LANGS if not lexicon.phrases(pid, lang)
    )
    assert uncovered == []


@pytest.mark.slow
def test_mintaka_properties_are_covered(lexicon: PropertyLexicon, bench_dir: Path, shared_kg_source: Path) -> None:
    """Mintaka has no gold SPARQL: find the KG properties linking question entities to answers."""
    store = open_store(build_store(shared_kg_source, Settings().cache_dir, progress=False))
    pairs = [
        (entity, answer)
        for question in json.loads((bench_dir / "mintaka.json").read_text(encoding="utf-8"))["questions"]
        for entity in question["question_entities"]
        for answer in question["answer_ids"]
    ]
    used: set[str] = set()
    for entity, answer in pairs:
        for subject, obj in ((entity, answer), (answer, entity)):
            query = f"SELECT ?p WHERE {{ <{WD}{subject}> ?p <{WD}{obj}> }}"
            used.update(row["p"].value.removeprefix(WDT) for row in store.query(query))
    used = {pid for pid in used if re.fullmatch(r"P\d+", pid)}
    assert len(used) > 10
    uncovered = sorted(
        (pid, lang) for pid in used for lang in REQUIRED_LANGS if not lexicon.phrases(pid, lang)
    )
    assert uncovered == []


def test_answer_types_are_allowed(lexicon: PropertyLexicon) -> None:
    assert {lexicon.answer_type(pid) for pid in lexicon.properties()} <= ANSWER_TYPES
    assert lexicon.answer_type("P19") == "place"
    assert lexicon.answer_type("P57") == "person"
    assert lexicon.answer_type("P1082") == "number"
    assert lexicon.answer_type("P99999999") is None


def test_phrases_are_lower_case_and_unique(lexicon: PropertyLexicon) -> None:
    for pid in lexicon.properties():
        for lang, items in lexicon.all_phrases(pid).items():
            assert all(item == item.lower() for item in items), (pid, lang)
            assert len(items) == len(set(items)), (pid, lang)


def test_no_phrase_holds_a_word_names_carry(lexicon: PropertyLexicon) -> None:
    """Dutch « van » is no function word, since names carry it (Van Halen, Van Gogh), so a phrase
    « lid van » would read it in any question with such a name (« ¿Quién es el miembro de la banda
    Van Halen que recientemente murió? » read « van » as the band's members, in Spanish)."""
    for pid in lexicon.properties():
        assert not [p for p in lexicon.all_phrases(pid).get("nl", []) if "van" in p.split()], pid


def test_question_words_cover_ten_languages(lexicon: PropertyLexicon) -> None:
    counting = {"en": "how many", "de": "wie viele", "ru": "сколько", "zh": "多少", "fr": "combien",
                "es": "cuántos", "uk": "скільки", "ja": "いくつ", "it": "quanti", "pt": "quantos"}
    for lang in LANGUAGES:
        words = lexicon.question_words(lang)
        assert set(words.values()) - {None} <= QUESTION_TYPES, lang
        assert {"person", "place", "date", "count"} <= set(words.values()), lang
        assert words[counting[lang]] == "count", lang
        assert lexicon.yes_no_openers(lang), lang
        for kind in ("superlative", "comparative", "count"):
            assert lexicon.cues(kind, lang), (kind, lang)


@pytest.mark.parametrize(
    ("question", "lang", "expected"),
    [
        ("Who directed Alien?", "en", "person"),
        ("Wie viele Einwohner hat Berlin?", "de", "count"),
        ("Где родился Пушкин?", "ru", "place"),
        ("Коли народився Шевченко?", "uk", "date"),
        ("谁是中国的国家主席？", "zh", "person"),
        ("日本の首都はどこですか", "ja", "place"),
        ("¿Cuántos hijos tiene Shakira?", "es", "count"),
        ("Is Berlin the capital of Germany?", "en", "boolean"),
        ("Est-ce que Paris est la capitale de la France ?", "fr", "boolean"),
        ("Which presidents were not elected?", "en", None),
        ("In which town was Jesus born?", "en", "place"),  # a town is asked as a city is
        ("what village was chopin born in", "en", "place"),
    ],
)
def test_expected_answer_type(lexicon: PropertyLexicon, question: str, lang: str, expected: str | None) -> None:
    assert lexicon.expected_answer_type(question, lang) == expected


@pytest.mark.parametrize(
    ("question", "lang", "pid"),
    [
        ("Who directed Alien?", "en", "P57"),
        ("Кто режиссёр фильма «Сталкер»?", "ru", "P57"),
        ("Где похоронен Ленин?", "ru", "P119"),
        ("Wer ist der Ehemann von Angela Merkel?", "de", "P26"),
        ("Quelle est la langue officielle du Brésil ?", "fr", "P37"),
        ("哪个国家的首都是巴黎？", "zh", "P36"),
        ("What books did Jane Austen write?", "en", "P50"),
        ("What team does Messi play for?", "en", "P54"),
        ("Де помер Іван Франко?", "uk", "P20"),
        ("ビートルズのメンバーは誰ですか", "ja", "P527"),
        ("What make of car is a Corolla?", "en", "P176"),  # the wordings people use (issue 40)
        ("¿Qué compañía hace el iPhone?", "es", "P176"),
        ("¿De qué banda era Ringo Starr?", "es", "P463"),
        ("¿Con quién estaba casado John Lennon?", "es", "P26"),
        ("¿Por qué murió Elvis Presley?", "es", "P509"),
        ("what is the name of the river that runs through krakow", "en", "P206"),  # the city's body of water
        ("¿Qué río pasa por Sevilla?", "es", "P206"),
        ("Welcher Fluss fließt durch Heidelberg?", "de", "P206"),
        ("Quel fleuve traverse Lyon ?", "fr", "P206"),
        ("Какая река протекает через Киев?", "ru", "P206"),
    ],
)
def test_match_properties_finds_the_asked_property(
    lexicon: PropertyLexicon, question: str, lang: str, pid: str
) -> None:
    assert pid in {match.pid for match in lexicon.match_properties(question, lang)}


def test_inflected_languages_match_word_forms(lexicon: PropertyLexicon) -> None:
    # "сын" (P40) must find the genitive "сына"; "ё" typed as "е" still matches.
    assert "P40" in {m.pid for m in lexicon.match_properties("Как звали сына Сталина?", "ru")}
    assert "P57" in {m.pid for m in lexicon.match_properties("кто режиссер фильма", "ru")}


def test_cues_are_found(lexicon: PropertyLexicon) -> None:
    assert "superlative" in lexicon.find_cues("What is the largest city in Germany?", "en")
    assert "superlative" in lexicon.find_cues("Какой самый длинный мост?", "ru")
    assert "count" in lexicon.find_cues("Combien de films a réalisé Luc Besson ?", "fr")
    assert "comparative" not in lexicon.find_cues("Who wrote Hamlet?", "en")


def test_unknown_lookups_are_empty(lexicon: PropertyLexicon) -> None:
    assert lexicon.phrases("P99999999", "en") == []
    assert lexicon.all_phrases("P99999999") == {}
    assert lexicon.question_words("xx") == {}
    assert lexicon.cues("superlative", "xx") == []


def test_returned_lists_are_copies(lexicon: PropertyLexicon) -> None:
    lexicon.phrases("P19", "en").append("mutated")
    assert "mutated" not in lexicon.phrases("P19", "en")


def test_missing_file_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.json"
    with pytest.raises(LexiconError, match="nope.json") as info:
        PropertyLexicon.load(path)
    assert info.value.path == path


def test_corrupt_json_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken_lexicon.json"
    path.write_text('{"version": 1, "properties": {', encoding="utf-8")
    with pytest.raises(LexiconError, match="broken_lexicon.json.*not valid JSON"):
        PropertyLexicon.load(path)


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ([], "expected an object"),
        ({"version": 2, "properties": {}, "question_words": {}}, "unsupported version"),
        ({"version": 1, "properties": {"X1": {}}, "question_words": {}}, "not a Wikidata property id"),
        ({"version": 1, "properties": {"P19": {"answer_type": "planet", "phrases": {}}}, "question_words": {}},
         "answer_type"),
        ({"version": 1, "properties": {"P19": {"answer_type": "place", "phrases": {"en": "born"}}},
          "question_words": {}}, "list of non-empty strings"),
        ({"version": 1, "properties": {"P19": {"answer_type": "place", "phrases": {"en": ["Born In"]}}},
          "question_words": {}}, "lower-case"),
        ({"version": 1, "properties": {}, "question_words": {"en": {"who": "alien"}}}, "not allowed"),
    ],
)
def test_malformed_shape_names_the_file(tmp_path: Path, data: object, reason: str) -> None:
    path = tmp_path / "bad_lexicon.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(LexiconError, match=f"bad_lexicon.json.*{reason}"):
        PropertyLexicon.load(path)


def test_gapped_phrase_outranks_a_shorter_exact_one(lexicon: PropertyLexicon) -> None:
    matches = lexicon.match_properties("Where was Joseph Haydn born?", "en")
    assert matches[0].pid == "P19"
    assert not matches[0].exact
    assert matches[0].weight > 1


def test_short_words_do_not_match_longer_ones(lexicon: PropertyLexicon) -> None:
    # "haus" (P53, house/dynasty) must not fire inside "hauptstadt".
    assert "P53" not in {m.pid for m in lexicon.match_properties("Was ist die Hauptstadt von Kanada?", "de")}


def test_lexicon_is_hashable_by_identity(lexicon: PropertyLexicon) -> None:
    assert lexicon in {lexicon}
    assert lexicon != PropertyLexicon.load()


@pytest.mark.parametrize(("pid", "lang", "expected"), [
    ("P36", "uk", "столиця"), ("P36", "ja", "首都"), ("P19", "fr", "né à"), ("P31", "uk", "екземпляр"),
])
def test_a_property_name_is_a_phrase_that_does_not_open_with_a_question_word(pid: str, lang: str, expected: str):
    assert default_lexicon().name(pid, lang) == expected


def test_no_property_name_without_a_phrase_in_that_language():
    lexicon = PropertyLexicon.from_dict({"version": 1, "properties": {"P36": {
        "answer_type": "place", "phrases": {"uk": ["яка столиця"], "en": ["capital"]}}},
        "question_words": {"uk": {"яка": None}}})
    assert lexicon.name("P36", "uk") is None  # only a question phrasing
    assert lexicon.name("P36", "de") is None
    assert lexicon.name("P36", "en") == "capital"


def test_a_film_score_is_its_music_not_its_script(lexicon: PropertyLexicon) -> None:
    # "wrote" alone is the screenwriter's word; "wrote the score" is the composer's
    exact: dict[str, float] = {}
    for m in lexicon.match_properties("Who wrote the score of the film Casablanca?", "en"):
        if m.exact:
            exact[m.pid] = max(exact.get(m.pid, 0.0), m.weight)
    assert exact["P86"] > exact["P58"]
    assert lexicon.match_properties("Who wrote the film Casablanca?", "en")[0].pid == "P58"


def test_a_river_that_runs_through_a_city_is_the_citys_body_of_water(lexicon: PropertyLexicon) -> None:
    # "runs through" is the relation, not only the word "river"
    matches = lexicon.match_properties("what is the name of the river that runs through krakow", "en")
    assert max(m.weight for m in matches if m.pid == "P206" and m.exact) >= 2
