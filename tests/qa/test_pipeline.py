"""The pipeline over the tiny KG with the fake backend."""

from __future__ import annotations

from dataclasses import replace

import pyoxigraph as ox
import pytest

from backends.fake import FakeBackend
from chat.messages import turn_message
from chat.render import render_html, render_text
from core.errors import BackendTimeout, BackendUnavailable, InputError, KGUnavailable
from core.text import tokenize
from kg.client import EmbeddedKG
from qa.candidate import Candidate, Link
from qa.guard import DEFAULT_LIMIT
from qa.label import pick_label
from qa.pipeline import STAGES, Pipeline, Validation, ignored_name, namesake_rival
from qa.turn import Status, Turn
from tests import tiny_kg
from tests.stages import PrefersEnglish, Verbalize
from validator.gate import GatePolicy

BIRTHPLACE = "SELECT DISTINCT ?answer WHERE { wd:Q937 wdt:P19 ?answer . }"
CAPITAL = "SELECT DISTINCT ?answer WHERE { wd:Q183 wdt:P36 ?answer . }"
NOTHING = "SELECT DISTINCT ?answer WHERE { wd:Q937 wdt:P36 ?answer . }"
DEATHPLACE = "SELECT DISTINCT ?answer WHERE { wd:Q937 wdt:P20 ?answer . }"


def _pipeline(answers, *, kg: EmbeddedKG | None = None, **kwargs) -> Pipeline:
    """A pipeline over the tiny KG whose scripted candidates each say they explain the whole
    question (unless one says otherwise), as the local generator says what it read: the
    coverage decision then lets them through, and these tests see the other stages."""
    def whole(question, lang):
        cands = answers(question, lang) if callable(answers) else answers.get(question, [])
        span = ((0, len(tokenize(question)), "property"),)
        return [c if c.explains else replace(c, explains=span) for c in cands]

    return Pipeline(FakeBackend(whole), kg or EmbeddedKG(tiny_kg.memory_store()), **kwargs)


def _died_in(*places: str) -> EmbeddedKG:
    """The tiny KG where Einstein died in ``places``: ids it gives no name, in no language."""
    store = tiny_kg.memory_store()
    store.extend(ox.Quad(tiny_kg.e("Q937"), tiny_kg.p("P20"), tiny_kg.e(q)) for q in places)
    return EmbeddedKG(store)


def _film_and_band(band_words: int = 2, band_span: tuple[int, int] = (3, 6), kind: str = "label"):
    """« Which member of The Rolling Stones appeared in Titanic? »: the kept candidate reads
    Titanic's cast (token 8), another links the band's typed name (tokens 3-5)."""
    cast = Candidate(BIRTHPLACE, 0.9, entities=("Q937",),
                     links=(Link("Q937", "titanic", "titanic", "label", 0.9, span=(8, 9), name_words=1),))
    band = Candidate(CAPITAL, 0.5, entities=("Q183",),
                     links=(Link("Q183", "the rolling stones", "the rolling stones", kind, 0.9, span=band_span,
                                 name_words=band_words),))
    return [cast, band]


def test_ignored_name_is_a_typed_name_another_candidate_links_and_the_kept_one_leaves_out():
    assert ignored_name(_film_and_band(), 0).qid == "Q183"
    assert ignored_name(_film_and_band(band_words=0), 0) is None  # not written as a name (or no case)
    assert ignored_name(_film_and_band(band_words=1), 0) is None  # one capitalized word says too little
    assert ignored_name(_film_and_band(band_span=(7, 9)), 0) is None  # overlaps the kept mention
    assert ignored_name(_film_and_band(kind="fuzzy"), 0) is None  # not the name as written
    cands = _film_and_band()
    unplaced = [Candidate(BIRTHPLACE, 0.9, links=(Link("Q937", "titanic", "titanic", "label", 0.9),)), cands[1]]
    assert ignored_name(unplaced, 0) is None  # a backend that does not say where it linked


def test_the_pipeline_abstains_when_the_kept_reading_leaves_out_a_typed_name():
    question = "Which member of The Rolling Stones appeared in Titanic?"
    turn = _pipeline({question: _film_and_band()}).answer(question)
    assert not turn.answered and turn.status == "abstained" and turn.message_key == "not_understood"
    assert turn.withheld_by == "coverage"
    assert any("leaves out the name 'the rolling stones'" in n for n in turn.notes)
    lowered = question.lower()
    assert _pipeline({lowered: _film_and_band(band_words=0)}).answer(lowered).answered


def test_chat_courtesies_are_not_read_as_part_of_the_question():
    pipe = _pipeline({"Where was Einstein born?": [Candidate(BIRTHPLACE, 0.9)]})
    turn = pipe.answer("Hi! Can you tell me: Where was Einstein born, please? Thanks!")
    assert turn.answered and [a.id for a in turn.answers] == ["Q3012"]
    assert turn.read_as == "Where was Einstein born?" and "courtesies" in turn.notes[0]
    assert turn.question == "Hi! Can you tell me: Where was Einstein born, please? Thanks!"  # logged as typed


def test_a_shouted_question_is_read_in_lower_case():
    # every word in capitals says nothing about names, and the validator learned from
    # questions in sentence or lower case: the backend and the validator read it lowered
    pipe = _pipeline({"where was einstein born?": [Candidate(BIRTHPLACE, 0.9)]})
    turn = pipe.answer("WHERE WAS EINSTEIN BORN?")
    assert turn.answered and [a.id for a in turn.answers] == ["Q3012"]
    assert turn.read_as == "where was einstein born?" and "read in lower case" in turn.notes[0]
    assert turn.question == "WHERE WAS EINSTEIN BORN?" and turn.to_json()["read_as"] == turn.read_as
    as_written = pipe.answer("Where was Einstein born?")  # not in the script: nothing for it
    assert not as_written.answered and not any("lower case" in n for n in as_written.notes)
    assert as_written.read_as is None


def test_top_candidate_is_answered_with_label_in_question_language():
    pipe = _pipeline({"Где родился Эйнштейн?": [Candidate(BIRTHPLACE, 0.9), Candidate(CAPITAL, 0.1)]})
    turn = pipe.answer("Где родился Эйнштейн?")
    assert turn.detected_lang == "ru"
    assert turn.answered and turn.status == "ok"
    assert [(a.id, a.label, a.label_lang) for a in turn.answers] == [("Q3012", "Ульм", "ru")]
    assert turn.candidates[0].kept and not turn.candidates[1].kept
    assert turn.validator == "off"
    data = turn.to_json()
    for key in ("question", "lang", "detected_lang", "answered", "answers", "boolean", "sparql", "confidence",
                "candidates", "message_key", "message_args"):
        assert key in data


def test_label_falls_back_along_the_chain():
    pipe = _pipeline({"Wo wurde Einstein geboren?": [Candidate(BIRTHPLACE, 0.9)]})
    turn = pipe.answer("Wo wurde Einstein geboren?", "de")
    # Ulm has no German label in the tiny KG: de -> en -> fr
    assert turn.answers[0].label == "Ulm"
    assert turn.answers[0].label_lang == "en"


def test_empty_result_abstains_instead_of_answering_nothing():
    pipe = _pipeline({"q": [Candidate(NOTHING, 0.9)]})
    turn = pipe.answer("q", "en")
    assert not turn.answered and turn.status == "abstained"
    assert turn.sparql is None and not any(c.kept for c in turn.candidates)
    # the reading covers the question whole, but the KG holds nothing for it
    assert turn.message_key == "understood_no_value" and turn.message_args == {"entity": "Q937", "property": "P36"}


def test_values_without_a_name_are_told_as_held_by_the_data_not_as_no_value():
    """The kept reading covers the question and its query finds Einstein's places of death,
    but the KG names none of them: none is shown, the turn is not answered, and the reply
    says the data has them (never "my data has no value"), counted, the names its own."""
    pipe = _pipeline({"Where did Einstein die?": [Candidate(DEATHPLACE, 0.9)]}, kg=_died_in("Q123456", "Q123457"))
    turn = pipe.answer("Where did Einstein die?", "en")
    assert not turn.answered and turn.status == "abstained" and not turn.answers and turn.total_answers == 0
    assert turn.message_key == "understood_unnamed"
    assert turn.message_args == {"entity": "Q937", "property": "P20", "n": 2}
    assert sorted(turn.unnamed) == [tiny_kg.WD + "Q123456", tiny_kg.WD + "Q123457"]  # kept for the QALD output
    assert sorted(turn.to_json()["unnamed"]) == sorted(turn.unnamed)
    assert "2 answer(s) without a name in the data left out" in turn.notes
    assert render_text(turn) == ("I understood: the place of death of Albert Einstein. "
                                 "My data has 2 answers, but no name for them that I can show.")
    html = render_html(turn)
    assert 'data-kind="unnamed"' in html and 'href="https://www.wikidata.org/wiki/Q937"' in html
    assert "no value" not in html and "Q123456" not in html and 'data-decided="unnamed"' in html
    german = pipe.answer("Where did Einstein die?", "de")
    assert german.message_key == "understood_unnamed" and "Sterbeort" in render_text(german)
    assert "2 Antworten" in render_text(german) and "keinen Wert" not in render_text(german)
    one = _pipeline({"Where did Einstein die?": [Candidate(DEATHPLACE, 0.9)]}, kg=_died_in("Q123456")).answer(
        "Where did Einstein die?", "en")
    assert one.message_args == {"entity": "Q937", "property": "P20", "n": 1}
    assert render_text(one).endswith("My data has 1 answer, but no name for it that I can show.")


def test_a_reading_with_a_named_value_answers_and_one_with_none_is_no_value():
    """The new reply only where values were found and none had a name."""
    pipe = _pipeline({"Where did Einstein die?": [Candidate(DEATHPLACE, 0.9)]}, kg=_died_in("Q123456", "Q64"))
    turn = pipe.answer("Where did Einstein die?", "en")
    assert turn.answered and [a.id for a in turn.answers] == ["Q64"] and turn.message_key == "answer_intro"
    empty = _pipeline({"Where did Einstein die?": [Candidate(DEATHPLACE, 0.9)]}).answer("Where did Einstein die?")
    assert empty.message_key == "understood_no_value" and not empty.unnamed


@pytest.mark.parametrize("question, key", [("", "Please"), ("   \n\t ", "Please"), ("x" * 1001, "too long")])
def test_bad_input_gets_a_clear_message(question, key):
    pipe = _pipeline({})
    turn = pipe.answer(question, "en")
    assert turn.status == "bad_input" and not turn.answered
    assert key in turn_message(turn)
    assert pipe.backend.calls == []


@pytest.mark.parametrize("exc", [BackendTimeout("slow"), BackendUnavailable("down"), KGUnavailable("gone")])
def test_service_faults_become_localized_unavailable(exc):
    def handler(question, lang):
        raise exc

    turn = _pipeline(handler).answer("Кто такой Эйнштейн?")
    assert turn.status == "service_error" and not turn.answered and not turn.answers
    assert "недоступен" in turn_message(turn)


def test_validator_gate_picks_first_candidate_above_threshold_or_abstains():
    class Scorer:
        def __init__(self, scores):
            self.scores = scores

        def predict(self, pairs):
            return self.scores[: len(pairs)]

    cands = {"Where was Einstein born?": [Candidate(CAPITAL, 0.9), Candidate(BIRTHPLACE, 0.5)]}
    pipe = _pipeline(cands, validation=Validation(Verbalize(), Scorer([0.1, 0.95]), GatePolicy()), threshold=0.5)
    turn = pipe.answer("Where was Einstein born?", "en")
    assert turn.validator == "on" and turn.rank == 2
    assert [a.id for a in turn.answers] == ["Q3012"]
    assert [c.validator_score for c in turn.candidates] == [0.1, 0.95]
    low = _pipeline(cands, validation=Validation(Verbalize(), Scorer([0.1, 0.2]), GatePolicy()), threshold=0.5)
    turn = low.answer("Where was Einstein born?", "en")
    assert turn.status == "abstained" and not turn.answered
    off = low.answer("Where was Einstein born?", "en", use_validator=False)
    assert off.answered and off.rank == 1 and off.validator == "off"


def test_unsupported_language_code_falls_back_with_a_note():
    turn = _pipeline({"Where was Einstein born?": [Candidate(BIRTHPLACE, 0.9)]}).answer(
        "Where was Einstein born?", "xx")
    assert turn.lang == "en" and turn.notes and "xx" in turn.notes[0]




def _unlimited(sparql: str, lang: str) -> str:
    """The candidate as its backend wrote it (the guard writes it out with a LIMIT on a line of its
    own when it had none; these candidates are already in the form the guard writes)."""
    return sparql.removesuffix(f"\nLIMIT {DEFAULT_LIMIT}")


def test_mix_gate_scores_only_the_candidates_that_could_pass():
    class RecordingScorer:
        def __init__(self, by_text):
            self.by_text, self.seen = by_text, []

        def predict(self, pairs):
            self.seen.extend(v for _, v in pairs)
            return [self.by_text[v] for _, v in pairs]

    policy = GatePolicy("mix", 0.5)  # passes iff 0.5 * v + 0.5 * b >= 0.8, so b >= 0.6 is needed
    by_text = {CAPITAL: 0.2, BIRTHPLACE: 1.0, NOTHING: 1.0}
    cands = {"Where was Einstein born?": [Candidate(CAPITAL, 0.95), Candidate(BIRTHPLACE, 0.7),
                                          Candidate(NOTHING, 0.3)]}
    scorer = RecordingScorer(by_text)
    pipe = _pipeline(cands, validation=Validation(Verbalize(_unlimited), scorer, policy), threshold=0.8)
    turn = pipe.answer("Where was Einstein born?", "en")
    assert scorer.seen == [CAPITAL, BIRTHPLACE]  # NOTHING (b 0.3) stays below 0.8 even with a perfect score
    assert [c.validator_score for c in turn.candidates] == [0.2, 1.0, None]
    assert [c.passed for c in turn.candidates] == [False, True, None]
    assert turn.candidates[2].compared is None and turn.candidates[1].compared.score == 0.85
    assert turn.rank == 2 and [a.id for a in turn.answers] == ["Q3012"]
    assert all(c.verbalization for c in turn.candidates)  # the explanation still shows every candidate
    full = [by_text[c.sparql] for c in cands["Where was Einstein born?"]]  # the same decision as scoring all
    assert policy([c.backend_score for c in turn.candidates], full, 0.8) == turn.rank - 1

    none_reach = {"Where was Einstein born?": [Candidate(BIRTHPLACE, 0.5), Candidate(CAPITAL, 0.1)]}
    scorer = RecordingScorer(by_text)
    turn = _pipeline(none_reach, validation=Validation(Verbalize(_unlimited), scorer, policy),
                     threshold=0.8).answer("Where was Einstein born?", "en")
    assert scorer.seen == [] and turn.status == "abstained" and not turn.answered
    assert all(c.validator_score is None for c in turn.candidates) and "validator not run" in turn.notes[-1]


def test_timings_are_keyed_by_the_stages_in_question_flow_order():
    class Scorer:
        def predict(self, pairs):
            return [0.9] * len(pairs)

    cands = {"Where was Einstein born?": [Candidate(BIRTHPLACE, 0.9)]}
    validated = _pipeline(cands, validation=Validation(Verbalize(), Scorer(), GatePolicy()))
    turn = validated.answer("Where was Einstein born?", "en")
    assert list(turn.timings_ms) == [*STAGES, "total"]
    off = validated.answer("Where was Einstein born?", "en", use_validator=False)
    assert list(off.timings_ms) == ["detect", "context", "read", "generate", "execute", "label", "name", "total"]
    assert list(_pipeline({}).answer("", "en").timings_ms) == ["detect", "total"]


def test_status_is_an_enum_that_reads_as_its_string():
    turn = _pipeline({"q": [Candidate(NOTHING, 0.9)]}).answer("q", "en")
    assert turn.status is Status.ABSTAINED and turn.status == "abstained"
    assert turn.to_json()["status"] == "abstained" and type(turn.to_json()["status"]) is str
    assert _pipeline({}).answer("q", "en").status is Status.NO_CANDIDATES


def test_candidates_is_the_first_half_of_answer():
    backend = FakeBackend({"Где родился Эйнштейн?": [Candidate(BIRTHPLACE, 0.9), Candidate(CAPITAL, 0.1)]})
    pipe = Pipeline(backend, EmbeddedKG(tiny_kg.memory_store()))
    generated = pipe.candidates("  Где родился\tЭйнштейн? ")
    assert (generated.question, generated.lang) == ("Где родился Эйнштейн?", "ru")
    assert [c.sparql for c in generated.candidates] == [BIRTHPLACE, CAPITAL]
    assert pipe.candidates("Где родился Эйнштейн?", "de").lang == "de"
    with pytest.raises(InputError):
        pipe.candidates("   ")

    def down(question, lang):
        raise BackendUnavailable("down")

    with pytest.raises(BackendUnavailable):
        _pipeline(down).candidates("Где родился Эйнштейн?")


def test_a_candidate_is_scored_by_its_best_reading():
    from qa.score import best_reading_scores

    class ByText:
        def predict(self, pairs):
            return [0.9 if text.endswith("столиця") else 0.1 for _, text in pairs]

    readings = [("A capital", "A столиця"), ("B capital",), ("C столиця",)]
    assert best_reading_scores(ByText(), "q", readings) == [0.9, 0.1, 0.9]
    assert best_reading_scores(ByText(), "q", []) == []


class _PairsSeen:
    """A scorer that remembers the pairs it was asked to score (0.5 for each)."""

    pairs: list[tuple[str, str]] = []

    def predict(self, pairs):
        self.pairs = list(pairs)
        return [0.5] * len(pairs)


def test_a_question_typed_without_accents_is_paired_as_each_reading_writes_it():
    from qa.score import best_reading_scores

    seen = _PairsSeen()
    best_reading_scores(seen, "Hauptstadt von Osterreich?", [("Österreich Hauptstadt ?answer", "Austria capital")])
    assert [q for q, _ in seen.pairs] == ["Hauptstadt von Österreich?", "Hauptstadt von Osterreich?"]


def test_a_lower_case_question_is_paired_with_the_readings_capitals_outside_english():
    from qa.score import best_reading_scores

    seen = _PairsSeen()
    best_reading_scores(seen, "wo wurde albert einstein geboren?", [("Albert Einstein Geburtsort ?answer",)], "de")
    assert [q for q, _ in seen.pairs] == ["wo wurde Albert Einstein geboren?"]
    # English questions are paired as typed: the validator learned them in lower case
    best_reading_scores(seen, "where was albert einstein born?", [("Albert Einstein place of birth ?answer",)], "en")
    assert [q for q, _ in seen.pairs] == ["where was albert einstein born?"]


def test_a_noun_said_before_a_candidates_name_is_paired_away_for_that_candidate_only():
    from qa.candidate import Link
    from qa.score import best_reading_scores

    seen = _PairsSeen()
    painter = Link("Q297", "Velázquez", "Velázquez", "alias", 0.7, described="painter", described_span=(5, 6))
    question = "In what city did the painter Velázquez pass away?"
    best_reading_scores(seen, question, [("Velázquez place of death ?answer",), ("Velázquez country ?answer",)],
                        "en", [(painter,), ()])
    assert [q for q, _ in seen.pairs] == [question, "In what city did the Velázquez pass away?", question]


def test_a_question_for_a_year_is_also_paired_as_asked_with_when():
    from qa.score import best_reading_scores

    seen = _PairsSeen()
    best_reading_scores(seen, "¿En qué año se creó Macedonia del Norte?", [("Macedonia del Norte inception ?answer",)],
                        "es")
    assert [q for q, _ in seen.pairs] == ["¿En qué año se creó Macedonia del Norte?",
                                          "¿Cuándo se creó Macedonia del Norte?"]
    best_reading_scores(seen, "Where was Google founded?", [("Google location of formation ?answer",)], "en")
    assert [q for q, _ in seen.pairs] == ["Where was Google founded?"]


def test_a_question_with_an_aside_is_paired_with_and_without_it():
    from qa.score import best_reading_scores

    class Aside:
        pairs: list[tuple[str, str]] = []

        def predict(self, pairs):
            self.pairs = list(pairs)
            return [0.02 if "(" in q else 0.95 for q, _ in pairs]

    seen = Aside()
    readings = [("Bill Walsh country of citizenship ?answer",), ("Bill Walsh occupation ?answer",)]
    assert best_reading_scores(seen, "what is bill walsh (producer)'s nationality", readings) == [0.95, 0.95]
    assert [q for q, _ in seen.pairs[:2]] == ["what is bill walsh (producer)'s nationality",
                                              "what is bill walsh's nationality"]
    best_reading_scores(seen, "where was bill walsh born?", readings)
    assert len(seen.pairs) == 2  # no aside: one pair per reading


def test_a_request_for_answers_is_paired_as_typed_and_as_the_question_it_stands_for():
    from qa.score import best_reading_scores

    class Asked:
        pairs: list[tuple[str, str]] = []

        def predict(self, pairs):
            self.pairs = list(pairs)
            return [0.98 if q.startswith("¿") else 0.004 for q, _ in pairs]

    seen = Asked()
    readings = [("?answer director Christopher Nolan",)]
    request = "Dame todas las películas dirigidas por Christopher Nolan"
    assert best_reading_scores(seen, request, readings, "es") == [0.98]
    assert [q for q, _ in seen.pairs] == [request, "¿Cuáles son las películas dirigidas por Christopher Nolan?"]
    best_reading_scores(seen, "¿Qué películas dirigió Christopher Nolan?", readings, "es")
    assert len(seen.pairs) == 1  # a question: one pair per reading


def test_without_asides():
    from core.text import without_asides

    assert without_asides("who directed the searchers (film)?") == "who directed the searchers?"
    assert without_asides("Где находится банк (МБРР)?") == "Где находится банк?"
    assert without_asides("(film)?") == "(film)?"  # nothing else: kept
    assert without_asides("Where was Einstein born?") == "Where was Einstein born?"


def _about(qid: str, degree: int) -> Candidate:
    return Candidate(f"SELECT ?answer WHERE {{ wd:{qid} wdt:P36 ?answer }}", 0.8,
                     links=(Link(qid, "italien", "italien", "alias", 0.8, degree=degree),))


def test_a_lesser_known_namesake_is_not_kept_while_the_better_known_one_passes_too():
    kingdom, italy, unrelated = _about("Q172579", 90), _about("Q38", 2000), _about("Q1", 5000)
    rival = namesake_rival([kingdom, italy], 0, [True, True])
    assert rival is not None and (rival[0].qid, rival[1].qid) == ("Q172579", "Q38")
    assert namesake_rival([italy, kingdom], 0, [True, True]) is None  # the better-known one is kept
    assert namesake_rival([kingdom, italy], 0, [True, False]) is None  # Italy's reading did not pass
    other_words = Candidate(unrelated.sparql, 0.8, links=(Link("Q1", "universe", "universe", "label", 0.8,
                                                               degree=5000),))
    assert namesake_rival([kingdom, other_words], 0, [True, True]) is None  # other words of the question


def test_a_sound_alike_is_no_namesake_of_a_name_said_as_written():
    # « Республики Конго » is the Republic of the Congo's name inflected; Kenya (« Республика
    # Кения ») is only heard in it: the better-known Kenya is not read instead
    congo = Candidate("SELECT ?answer WHERE { wd:Q971 wdt:P36 ?answer }", 0.9,
                      links=(Link("Q971", "республики конго", "республика конго", "inflected", 0.77, degree=110),))
    kenya = Candidate("SELECT ?answer WHERE { wd:Q114 wdt:P36 ?answer }", 0.7,
                      links=(Link("Q114", "республики конго", "respublikakeniya", "phonetic", 0.64, degree=210),))
    assert namesake_rival([congo, kenya], 0, [True, True]) is None
    heard = Candidate(congo.sparql, 0.9, links=(replace(congo.links[0], kind="phonetic"),))
    assert namesake_rival([heard, kenya], 0, [True, True]) is not None  # two sound-alikes: the better known


def test_when_both_readings_of_a_name_pass_the_better_known_entity_is_read():
    """« Germany » names the Federal Republic and, as an alias, a lesser-known historical
    state: the backend ranks the lesser-known reading first, both pass the gate, and the
    answer is read for the better-known one (as a reader would), with a note, not withheld."""
    historical = Candidate("SELECT DISTINCT ?answer WHERE { wd:Q937 wdt:P19 ?answer . }", 0.9,
                           links=(Link("Q937", "germany", "germany", "alias", 0.8, degree=40),))
    germany = Candidate(CAPITAL, 0.8, links=(Link("Q183", "germany", "germany", "label", 0.9, degree=900),))

    class Sure:
        def predict(self, pairs):
            return [0.99] * len(pairs)

    question = "What is the capital of Germany?"
    pipe = _pipeline({question: [historical, germany]},
                     validation=Validation(Verbalize(), Sure(), GatePolicy("mix", 0.5)), threshold=0.8)
    turn = pipe.answer(question, "en")
    assert turn.answered and turn.rank == 2 and [a.id for a in turn.answers] == ["Q64"]
    assert [c.kept for c in turn.candidates] == [False, True]
    assert "the better-known Q183 is read" in turn.notes[-1]




def test_a_plain_candidate_of_a_question_not_in_english_is_also_read_in_english():
    said = []

    def in_words(sparql, lang):
        said.append((lang, sparql))
        return f"{lang}|{sparql}"

    words = Verbalize(in_words)
    ask = "ASK { wd:Q937 wdt:P19 wd:Q3012 }"
    script = {"Wo wurde Einstein geboren?": [Candidate(BIRTHPLACE, 0.9), Candidate(ask, 0.8, shape="ask"),
                                             Candidate(NOTHING, 0.3)],
              "Where was Einstein born?": [Candidate(BIRTHPLACE, 0.9), Candidate(ask, 0.8, shape="ask")]}
    scorer = PrefersEnglish()
    pipe = _pipeline(script, validation=Validation(words, scorer, GatePolicy("mix", 0.5)), threshold=0.8)
    turn = pipe.answer("Wo wurde Einstein geboren?", "de")
    assert turn.answered and [a.id for a in turn.answers] == ["Q3012"]  # its English reading scored 0.95
    assert turn.candidates[0].verbalization.startswith("de|")  # the explanation shows the question's language
    assert [v.split("|")[0] for v in scorer.seen] == ["de", "en", "de", "en"]  # the ASK, second, in English too
    # NOTHING (backend 0.3) cannot pass 0.8 whatever it scores: read in German for the explanation only
    assert [lang for lang, sparql in said if sparql.startswith(NOTHING.rstrip())] == ["de"]
    scorer.seen.clear()
    assert pipe.answer("Where was Einstein born?", "en").answered and len(scorer.seen) == 2  # English: one reading


def test_no_answer_is_shown_without_a_validator_score_whatever_its_shape():
    """One gate for every candidate: plain, count, superlative (order), filter and yes/no
    candidates are verbalized, scored and gated alike; every shown answer carries its score,
    and a kept candidate without one (a learned decision over candidates it did not score)
    is withheld by the gate, which the turn records."""
    shapes = {
        "Where was Einstein born?": Candidate(BIRTHPLACE, 0.9),
        "How many cities are in Germany?": Candidate(
            "SELECT (COUNT(DISTINCT ?x) AS ?answer) WHERE { ?x wdt:P17 wd:Q183 . ?x wdt:P31 wd:Q515 . }", 0.9,
            shape="count", triples=(("?x", "wdt:P17", "wd:Q183"), ("?x", "wdt:P31", "wd:Q515"))),
        "Which city of Germany has the most inhabitants?": Candidate(
            "SELECT ?answer WHERE { ?answer wdt:P17 wd:Q183 . ?answer wdt:P1082 ?n . } ORDER BY DESC(?n) LIMIT 1",
            0.9, shape="order"),
        "Which cities of Germany have more than a million inhabitants?": Candidate(
            "SELECT ?answer WHERE { ?answer wdt:P17 wd:Q183 . ?answer wdt:P1082 ?n . FILTER(?n > 1000000) }", 0.9,
            shape="filter"),
        "Was Einstein born in Ulm?": Candidate("ASK { wd:Q937 wdt:P19 wd:Q3012 }", 0.9, shape="ask"),
    }

    class Sure:
        def predict(self, pairs):
            return [0.99] * len(pairs)

    pipe = _pipeline({q: [c] for q, c in shapes.items()},
                     validation=Validation(Verbalize(), Sure(), GatePolicy("mix", 0.5, complex_threshold=0.9)),
                     threshold=0.8)
    answered = 0
    for question in shapes:
        turn = pipe.answer(question, "en")
        kept = [c for c in turn.candidates if c.kept]
        if turn.answered:
            answered += 1
            assert len(kept) == 1 and kept[0].validator_score is not None and kept[0].compared is not None, question
        data = turn.to_json()
        assert [d["name"] for d in data["decisions"]][:2] == ["guard", "gate"], (question, turn.status, turn.rejected)
        assert not data["decisions"][1]["withheld"], question  # every shape scored and past the gate
    assert answered == 5  # every shape is answered (a COUNT with the list it counts), each with its score


def test_a_count_is_shown_as_a_number_with_the_list_it_counts():
    """A COUNT is answered with its number, and the things it counts go with it ("my data
    lists 2: Berlin, Ulm"), in the turn's JSON, its text and its HTML."""
    count = Candidate("SELECT (COUNT(DISTINCT ?x) AS ?answer) WHERE { ?x wdt:P17 wd:Q183 . ?x wdt:P31 wd:Q515 . }",
                      0.9, shape="count", triples=(("?x", "wdt:P17", "wd:Q183"), ("?x", "wdt:P31", "wd:Q515")))
    turn = _pipeline({"How many cities are in Germany?": [count]}).answer("How many cities are in Germany?", "en")
    assert turn.answered and [a.value for a in turn.answers] == ["2"] and turn.status == Status.OK
    assert turn.withheld_by is None and turn.counted is not None and turn.counted["n"] == "2"
    assert sorted(turn.counted["items"].split(", ")) == ["Berlin", "Ulm"]
    data = Turn.from_json(turn.to_json()).to_json()  # as `kgqa ask --json` and /api/ask carry it
    assert data["answered"] is True and sorted(data["counted"]["ids"]) == ["Q3012", "Q64"]
    text = render_text(turn)
    assert "2" in text.splitlines()[0] and text.splitlines()[1].startswith("My data lists 2: ")
    assert '<p class="kgqa-counted">My data lists 2: ' in render_html(turn)


@pytest.mark.parametrize("question, key", [
    ("Who is Xavier Quillfeather?", "unknown_entity"),  # a typed name nothing is called
    ("what is the meaning of life?", "not_understood"),  # nothing read, no name typed
])
def test_the_json_contract_carries_which_dont_know_by_its_name(question, key):
    turn = _pipeline({}).answer(question, "en")
    data = Turn.from_json(turn.to_json()).to_json()  # as `kgqa ask --json` and /api/ask carry it
    assert data["message_key"] == key and data["answered"] is False
    assert data["decisions"][0]["name"] == "guard" and "withheld_by" in data


def test_pick_label_goes_from_the_users_language_to_english_to_the_kgs_label_never_a_third_language():
    assert pick_label({"ru": ["Москва"], "en": ["Moscow"]}, "uk") == ("Moscow", "en")
    assert pick_label({"es": ["capital"], "en": ["capital city"]}, "fr") == ("capital city", "en")
    assert pick_label({"zh-hans": ["北京"], "en": ["Beijing"]}, "zh") == ("北京", "zh-hans")
    assert pick_label({"ceb": ["X"], "": ["Y"]}, "de") == ("Y", None)
    assert pick_label({"ceb": ["X"]}, "de") == (None, None)
    assert pick_label({}, "de") == (None, None)


def test_the_learned_gate_judges_the_first_readings_whatever_their_backend_score_and_records_each_chance():
    """Kind 1 of issue 40: the right reading ranked second with a low backend score is still
    judged by the validator, kept when its calibrated probability is the highest and reaches
    the model's threshold, and the turn records that probability (it differs per answer)."""
    from validator.gate import LearnedGate
    from validator.probability import AnswerModel

    class ByText:
        def __init__(self, by_text):
            self.by_text, self.seen = by_text, []

        def predict(self, pairs):
            self.seen.extend(v for _, v in pairs)
            return [self.by_text[v] for _, v in pairs]

    model = AnswerModel(("validator", "rank_log"), (0.5, 1.0), (0.25, 1.0), (4.0, -0.5), 0.0, 0.8, judged=2)
    cands = {"Where was Einstein born?": [Candidate(CAPITAL, 0.9), Candidate(BIRTHPLACE, 0.01),
                                          Candidate(NOTHING, 0.005)]}
    scorer = ByText({CAPITAL: 0.2, BIRTHPLACE: 0.97, NOTHING: 0.99})
    pipe = _pipeline(cands, validation=Validation(Verbalize(_unlimited), scorer, LearnedGate(model)),
                     threshold=model.threshold)
    turn = pipe.answer("Where was Einstein born?", "en")
    assert scorer.seen == [CAPITAL, BIRTHPLACE]  # the first two (judged), not the third
    assert turn.rank == 2 and [a.id for a in turn.answers] == ["Q3012"]
    assert turn.candidates[1].compared.score_name == "probability" and turn.candidates[2].compared is None
    assert turn.confidence == pytest.approx(turn.candidates[1].compared.score) and 0.8 <= turn.confidence < 1.0
    assert "validator not run" not in " ".join(turn.notes)
    weaker = _pipeline({"Where was Einstein born?": [Candidate(CAPITAL, 0.9), Candidate(BIRTHPLACE, 0.01)]},
                       validation=Validation(Verbalize(_unlimited), ByText({CAPITAL: 0.2, BIRTHPLACE: 0.9}),
                                             LearnedGate(model)), threshold=model.threshold)
    other = weaker.answer("Where was Einstein born?", "en")
    assert other.answered and other.confidence != turn.confidence  # one chance per answer
    unsure = _pipeline(cands, validation=Validation(Verbalize(_unlimited), ByText({CAPITAL: 0.2, BIRTHPLACE: 0.5,
                                                                                   NOTHING: 0.99}),
                                                    LearnedGate(model)), threshold=model.threshold)
    abstained = unsure.answer("Where was Einstein born?", "en")
    assert not abstained.answered and abstained.confidence is None and abstained.withheld_by == "gate"


def test_a_question_with_an_honorific_is_paired_with_and_without_it():
    from qa.score import best_reading_scores

    seen = _PairsSeen()
    best_reading_scores(seen, "ホーキング博士ってどこで生まれたの？", [("ホーキング 出生地 ?answer",)], "ja")
    assert [q for q, _ in seen.pairs] == ["ホーキング博士ってどこで生まれたの？", "ホーキングってどこで生まれたの？"]
    best_reading_scores(seen, "ホーキング博士ってどこで生まれたの？", [("ホーキング 出生地 ?answer",)], "xx")
    assert [q for q, _ in seen.pairs] == ["ホーキング博士ってどこで生まれたの？"]  # a language without titles


def test_the_judged_plain_readings_are_run_so_the_gate_knows_which_answer_alike():
    """Two readings that return the same values are one answer said two ways
    (:meth:`qa.gate.Reading.agrees`); a reading left unscored is not run, nor is anything when
    fewer than two were scored."""
    typed = "SELECT DISTINCT ?answer WHERE { wd:Q183 wdt:P36 ?answer . ?answer wdt:P31 ?c . }"
    cands = [Candidate(CAPITAL, 0.8, shape="plain"), Candidate(typed, 0.7, shape="plain"),
             Candidate(BIRTHPLACE, 0.5, shape="plain"), Candidate(NOTHING, 0.4, shape="plain")]
    pipe = _pipeline({})
    answers = pipe.judged_answers(cands, [0.9, 0.8, 0.7, None])
    assert answers[0] == answers[1] and answers[0] and answers[2] and answers[0] != answers[2]
    assert answers[3] is None
    assert pipe.judged_answers(cands, [0.9, None, None, None]) == [None] * 4


def test_when_the_gate_keeps_none_it_is_asked_again_with_what_each_reading_answers():
    """A gate that keeps the first reading only when the second answers alike: it first sees no
    answers (none run), keeps nothing, and is asked again with each judged reading's values."""
    from qa.gate import Decision
    from qa.turn import Compared

    class AgreeGate:
        judged = 5
        seen: list[bool] = []

        def reachable(self, backend_score, threshold, complex_shape=False):
            return False

        def decide(self, readings, threshold):
            self.seen.append(readings[0].answers is not None)
            kept = 0 if readings[0].agrees(readings[1]) else None
            return Decision(tuple(Compared(0.9, threshold) for _ in readings), kept)

    class Scorer:
        def predict(self, pairs):
            return [0.99] * len(pairs)

    typed = "SELECT DISTINCT ?answer WHERE { wd:Q183 wdt:P36 ?answer . ?answer wdt:P31 ?c . }"
    alike = {"Capital of Germany?": [Candidate(CAPITAL, 0.6, shape="plain"), Candidate(typed, 0.5, shape="plain")]}
    gate = AgreeGate()
    turn = _pipeline(alike, validation=Validation(Verbalize(), Scorer(), gate), threshold=0.5).answer(
        "Capital of Germany?", "en")
    assert turn.answered and [a.id for a in turn.answers] == ["Q64"] and gate.seen == [False, True]
    other = {"Capital of Germany?": [Candidate(CAPITAL, 0.6, shape="plain"), Candidate(BIRTHPLACE, 0.5, shape="plain")]}
    gate.seen.clear()
    turn = _pipeline(other, validation=Validation(Verbalize(), Scorer(), gate), threshold=0.5).answer(
        "Capital of Germany?", "en")
    assert not turn.answered and gate.seen == [False, True]
