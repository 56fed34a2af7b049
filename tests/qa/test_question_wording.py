"""A plain candidate is read once more with its property said by the question's own words
(:func:`qa.verbalize.question_wording`)."""

from __future__ import annotations

from dataclasses import replace

from core.text import tokenize
from qa.candidate import Candidate
from qa.verbalize import COMPLEX_IN_ENGLISH, question_wording, readings_with_english
from tests.stages import Verbalize


def _plain(pid: str, explains: tuple[tuple[int, int, str], ...], shape: str = "plain", pids: tuple[str, ...] = ()
           ) -> Candidate:
    return Candidate(f"SELECT ?answer WHERE {{ wd:Q1 wdt:{pid} ?answer }}", 0.5, shape=shape,
                     properties=pids or (pid,), entities=("Q1",), explains=explains)


def test_the_words_a_candidate_explains_as_its_property_are_its_wording():
    tokens = tokenize("wo starb hawking")
    assert question_wording(_plain("P20", ((1, 2, "property"), (2, 3, "entity"))), tokens) == {"P20": "starb"}
    # CJK characters are written back side by side, spans in question order
    ja = tokenize("エルベ川はどこに注ぐの")
    assert question_wording(_plain("P403", ((9, 10, "property"), (0, 4, "entity"), (8, 9, "property"))), ja) == {
        "P403": "注ぐ"}


def test_no_wording_without_a_property_span_or_for_other_shapes():
    tokens = tokenize("wo starb hawking")
    assert question_wording(_plain("P20", ((2, 3, "entity"),)), tokens) == {}
    assert question_wording(_plain("P20", ((1, 2, "property"),), shape="count"), tokens) == {}
    assert question_wording(_plain("P20", ((1, 2, "property"),), pids=("P20", "P19")), tokens) == {}
    assert question_wording(_plain("P20", ((1, 9, "property"),)), tokens) == {}  # a span past the question


class _Recording(Verbalize):
    """Records the question's wordings of every :meth:`readings` call in ``seen``."""

    def __init__(self, seen: list[object]) -> None:
        super().__init__(lambda sparql, lang: f"{lang}|{sparql}")
        self.seen = seen

    def readings(self, sparqls, lang, links=(), worded=()):  # type: ignore[override]
        self.seen.append(list(worded))
        return super().readings(sparqls, lang, links, worded)


def test_readings_pass_the_wording_only_with_the_question_and_only_for_wanted_candidates():
    seen: list[object] = []
    cands = [_plain("P20", ((1, 2, "property"),)), _plain("P19", ((1, 2, "property"),))]
    verbalizer = _Recording(seen)
    readings_with_english(verbalizer, cands, "de")
    readings_with_english(verbalizer, cands, "de", [True, False], "wo starb hawking")
    readings_with_english(verbalizer, cands, "en", None, "where did hawking die")  # English: what the generator vouches
    assert seen == [[], [{"P20": "starb"}, {}], [{}, {}]]


def test_in_english_a_plain_candidate_is_said_in_the_words_its_generator_vouches_for():
    seen: list[object] = []
    son = Candidate("SELECT ?answer WHERE { wd:Q1149 wdt:P40 ?answer }", 0.7, shape="plain", properties=("P40",),
                    entities=("Q1149",), explains=((0, 2, "entity"), (2, 3, "property")), wording=(("P40", "son"),))
    # the spans it explains are not enough: "what county is tampa located in" read « county » as "country"
    county = _plain("P17", ((1, 2, "property"), (3, 4, "entity"), (4, 5, "property")))
    readings_with_english(_Recording(seen), [son, county], "en", None, "indira gandhi son")
    assert seen == [[{"P40": "son"}, {}]]
    # two properties said in the same words tell the validator nothing: "where did steve jobs work"
    work = [replace(_plain(pid, ((2, 4, "entity"), (4, 5, "property"))), wording=((pid, "work"),))
            for pid in ("P106", "P108")]
    readings_with_english(_Recording(seen), work, "en", None, "where did steve jobs work")
    assert seen[-1] == [{}, {}]
    # in another language the backend's ranker, which reads the question word, settles between them
    readings_with_english(_Recording(seen), work, "de", None, "wo arbeitete steve jobs work")
    assert seen[-1] == [{"P106": "work"}, {"P108": "work"}]


def test_unshared_wording_keeps_a_wording_of_other_entities():
    from qa.verbalize import unshared_wording

    a = _plain("P106", ((1, 2, "property"),))
    b = Candidate("SELECT ?answer WHERE { wd:Q2 wdt:P108 ?answer }", 0.5, shape="plain", properties=("P108",),
                  entities=("Q2",))
    assert unshared_wording([a, b], [{"P106": "work"}, {"P108": "work"}]) == [{"P106": "work"}, {"P108": "work"}]
    assert unshared_wording([a, a], [{"P106": "work"}, {"P106": "work"}]) == [{"P106": "work"}] * 2


def test_a_complex_candidate_among_the_first_is_read_in_english_too():
    verbalizer = Verbalize(lambda sparql, lang: f"{lang}|{sparql}")
    shapes = ["count"] * COMPLEX_IN_ENGLISH + ["count", "plain"]
    cands = [Candidate(f"SELECT ?answer WHERE {{ wd:Q{i} wdt:P161 ?answer }}", 0.5, shape=shape)
             for i, shape in enumerate(shapes)]
    readings = readings_with_english(verbalizer, cands, "es")
    assert [len(r) for r in readings] == [2] * COMPLEX_IN_ENGLISH + [1, 2]  # a lower complex one: Spanish only
    assert readings[0] == ("es|" + cands[0].sparql, "en|" + cands[0].sparql)
    assert [len(r) for r in readings_with_english(verbalizer, cands, "en")] == [1] * len(cands)  # English: once


def test_a_complex_candidate_is_said_in_its_own_words_also_in_english():
    seen: list[object] = []
    excluded = Candidate("SELECT ?answer WHERE { wd:Q142 wdt:P47 ?answer }", 0.7, shape="exclusion",
                         properties=("P47", "P37"), wording=(("P47", "neighbours"),))
    plain = _plain("P20", ((1, 2, "property"),))
    assert question_wording(excluded, tokenize("which neighbours of france")) == {"P47": "neighbours"}
    readings_with_english(_Recording(seen), [excluded, plain], "en", None,
                          "which neighbours of france")
    assert seen == [[{"P47": "neighbours"}, {}]]  # the plain one: no words its generator vouches for


def test_a_reading_that_types_its_answer_says_so_in_the_languages_word_for_it():
    """« ?answer es película » where the reading would say « ?answer instance of película »:
    the typing property is worded by :attr:`lang.base.Language.typing_word`, beside the words
    the question gives its other property, for wanted candidates only."""
    seen: list[object] = []
    typed = Candidate("SELECT ?answer WHERE { ?answer wdt:P57 wd:Q42574 . ?answer wdt:P31 wd:Q11424 }", 0.5,
                      shape="plain", properties=("P57", "P31"), entities=("Q42574", "Q11424"),
                      explains=((3, 4, "class"), (4, 5, "property"), (6, 8, "entity")))
    untyped = _plain("P57", ((4, 5, "property"), (6, 8, "entity")))
    question = "¿Cuáles son las películas dirigidas por James Cameron?"
    readings_with_english(_Recording(seen), [typed, untyped], "es", None, question)
    assert seen[-1] == [{"P31": "es"}, {"P57": "dirigidas"}]
    readings_with_english(_Recording(seen), [typed, untyped], "es", [False, True], question)
    assert seen[-1] == [{}, {"P57": "dirigidas"}]
    readings_with_english(_Recording(seen), [typed], "ja", None, "ジェームズ・キャメロンが監督した映画は？")
    assert seen[-1] == [{}]  # a language without the word: said by the property's name
    counted = replace(typed, sparql="SELECT (COUNT(DISTINCT ?answer) AS ?count) WHERE { ?answer wdt:P57 wd:Q42574 . "
                                    "?answer wdt:P31 wd:Q11424 }", shape="count")
    readings_with_english(_Recording(seen), [counted], "es", None, "¿Cuántas películas ha dirigido James Cameron?")
    assert seen[-1] == [{}]  # a count: "how many films" counts his works


def test_a_worded_reading_whose_every_answer_is_of_the_named_class_is_also_said_typed():
    """« Quali film ha diretto Quentin Tarantino? »: his works are all films, so the reading
    « ?answer director Quentin Tarantino » carries no typing triple, but it knows the noun
    (:attr:`Candidate.typed_noun`); each of its readings is said once more with « ?answer è un
    film ».  Not for a reading that does not read every word, nor in a language with no word for
    it, nor for one typed by its query already; English says "instance of" (its ``class_word``)."""
    question = "Quali film ha diretto Quentin Tarantino?"
    director = replace(_plain("P57", ((2, 4, "property"), (4, 6, "entity"))), worded=True, typed_noun=(1, 2))
    cast = replace(director, sparql=director.sparql.replace("P57", "P161"), properties=("P161",), worded=False)
    verbalizer = Verbalize(lambda sparql, lang: f"{lang}|{sparql}")
    said, unworded = readings_with_english(verbalizer, [director, cast], "it", None, question)
    own, english = "it|" + director.sparql, "en|" + director.sparql
    assert said == (own, english, own + ". ?answer è un film", english + ". ?answer è un film")
    assert not any("è un" in r for r in unworded)
    # English has no typing word: it says "instance of", as its validator reads the class (Language.class_word)
    english_said, = readings_with_english(verbalizer, [director], "en", None,
                                          "Which films did Quentin Tarantino direct?")
    assert english_said == (english, english + ". ?answer instance of films")
    assert not any(". ?answer" in r for r in readings_with_english(verbalizer, [director], "ja", None,
                                                                    "Which films did Quentin Tarantino direct?")[0])
    typed = replace(director, properties=("P57", "P31"))
    assert not any("è un film" in r for r in readings_with_english(verbalizer, [typed], "it", None, question)[0])


def test_an_intersection_its_class_describes_is_also_said_typed_without_reading_every_word():
    """« In welke films spelen Robert De Niro en Al Pacino allebei? »: their joint works carry
    no typing triple (one is a television film), but the class describes them
    (:attr:`Candidate.typed_noun`): the intersection is said once more with « ?answer is een
    films », worded or not; an intersection without the noun is not."""
    question = "In welke films spelen Robert De Niro en Al Pacino allebei?"
    both = Candidate("SELECT ?answer WHERE { ?answer wdt:P161 wd:Q36949 . ?answer wdt:P161 wd:Q41163 }", 0.7,
                     shape="intersection", properties=("P161",), entities=("Q36949", "Q41163"), typed_noun=(2, 3))
    verbalizer = Verbalize(lambda sparql, lang: f"{lang}|{sparql}")
    said, = readings_with_english(verbalizer, [both], "nl", None, question)
    assert "nl|" + both.sparql + ". ?answer is een films" in said
    plain, = readings_with_english(verbalizer, [replace(both, typed_noun=None)], "nl", None, question)
    assert not any("is een" in r for r in plain)
