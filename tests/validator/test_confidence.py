"""The answer confidence: name-span features, evidence over the tiny KG, the JSON model,
the decision, the pipeline stage, and the leave-one-source-out threshold choice."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from backends.fake import FakeBackend
from backends.local.names import aligned_cased, name_features, name_words
from backends.local.ranker import TreeRanker
from core.errors import ModelLoadError
from core.text import tokenize
from kg.client import EmbeddedKG
from qa.candidate import Candidate
from qa.pipeline import Pipeline
from tests import tiny_kg
from tests.stages import PrefersEnglish, Verbalize
from training.confidence import (
    Outcome,
    Record,
    choose_floor,
    figures,
    fit_trees,
    oracle_figures,
    platt,
    threshold_for,
)
from validator.confidence import AnswerConfidence, ConfidenceModel, answer_kinds, decide, execute, features

BIRTHPLACE = "SELECT DISTINCT ?answer WHERE { wd:Q937 wdt:P19 ?answer . }"
BIRTHDATE = "SELECT DISTINCT ?answer WHERE { wd:Q937 wdt:P569 ?answer . }"
CAPITAL = "SELECT DISTINCT ?answer WHERE { wd:Q183 wdt:P36 ?answer . }"
NOTHING = "SELECT DISTINCT ?answer WHERE { wd:Q937 wdt:P36 ?answer . }"
PEOPLE = "SELECT DISTINCT ?answer WHERE { ?answer wdt:P27 wd:Q183 . }"


def _span(question: str, words: str) -> tuple[int, int]:
    tokens, target = tokenize(question), tokenize(words)
    for i in range(len(tokens)):
        if tokens[i:i + len(target)] == target:
            return i, i + len(target)
    raise AssertionError(words)


@pytest.mark.parametrize(("question", "mention", "extra", "cover"), [
    ("Where was Roger Federer born?", "Roger", 1.0, 0.5),  # a namesake sharing the first name
    ("Where was Roger Federer born?", "Federer", 1.0, 0.5),  # ... or the last name
    ("Where was Roger Federer born?", "Roger Federer", 0.0, 1.0),
    ("Wo wurde Albert Einstein geboren?", "Albert Einstein", 0.0, 1.0),
    ("Где родился Роджер Федерер?", "Роджер", 1.0, 0.5),
    ("where was roger federer born?", "roger", 0.0, 1.0),  # no case, no evidence
    ("阿尔伯特·爱因斯坦出生在哪里？", "爱因斯坦", 0.0, 1.0),
])
def test_name_features_see_a_partly_covered_name(question, mention, extra, cover):
    start, end = _span(question, mention)
    feats = name_features(aligned_cased(question, len(tokenize(question))), start, end)
    assert feats == {"name_extra": extra, "name_cover": cover}


def test_a_word_naming_the_entitys_class_ends_its_name():
    question = "Wer hat den Film Titanic gedreht?"
    cased = aligned_cased(question, len(tokenize(question)))
    start, end = _span(question, "Titanic")
    film = _span(question, "Film")[0]
    assert name_features(cased, start, end) == {"name_extra": 1.0, "name_cover": 0.5}
    assert name_features(cased, start, end, {film}) == {"name_extra": 0.0, "name_cover": 1.0}
    federer = "Where was Roger Federer born?"
    roger = _span(federer, "Roger")  # a word that names no class of the entity stays in the name
    assert name_features(aligned_cased(federer, len(tokenize(federer))), *roger, {0})["name_cover"] == 0.5


def test_a_span_of_words_that_are_no_name_has_nothing_to_cover():
    question = "Frankreich Hauptstadt"  # « Hauptstadt » linked as the class "capital"
    cased = aligned_cased(question, len(tokenize(question)))
    assert name_features(cased, 1, 2) == {"name_extra": 1.0, "name_cover": 0.5}
    assert name_features(cased, 1, 2, {1}) == {"name_extra": 0.0, "name_cover": 1.0}
    assert name_features(cased, 0, 1, {1}) == {"name_extra": 0.0, "name_cover": 1.0}


@pytest.mark.parametrize("question, words, count", [
    ("Which member of The Rolling Stones sang?", "The Rolling Stones", 2),  # "The" is a function word
    ("Where was Albert Einstein born?", "Albert Einstein", 2),
    ("Where was albert Einstein born?", "albert Einstein", 0),
    ("who founded the rolling stones?", "the rolling stones", 0),  # no case
])
def test_name_words_count_a_span_written_as_a_name(question, words, count):
    cased = aligned_cased(question, len(tokenize(question)))
    assert name_words(cased, *_span(question, words)) == count


def test_answer_kinds_type_people_places_and_literals(tiny_kg_client):
    results = [execute(tiny_kg_client, s, 5.0) for s in (BIRTHPLACE, BIRTHDATE, PEOPLE, NOTHING, "SELECT nonsense")]
    kinds = answer_kinds(tiny_kg_client, results, 5.0)
    place, date, people, nothing, broken = kinds
    assert (place.n, place.uri, place.located, place.human) == (1, 1.0, 1.0, 0.0)
    assert (date.n, date.date, date.uri) == (1, 1.0, 0.0)
    assert (people.n, people.human) == (1, 1.0)
    assert nothing.n == 0 and not nothing.error
    assert broken.error and broken.n == 0


def test_features_compare_expected_and_actual_answer_types(tiny_kg_client):
    cands = [Candidate(BIRTHPLACE, 0.8, (("link_score", 0.9),), shape="plain"),
             Candidate(BIRTHDATE, 0.3, shape="plain")]
    kinds = answer_kinds(tiny_kg_client, [execute(tiny_kg_client, c.sparql, 5.0) for c in cands], 5.0)
    rows = features("Where was Albert Einstein born?", "en", "place", cands, kinds, [0.9, 0.2])
    assert rows[0]["atype_fit"] == 1.0 and rows[0]["atype_mismatch"] == 0.0
    assert rows[1]["atype_fit"] == 0.0 and rows[1]["atype_mismatch"] == 1.0
    assert rows[0]["backend_margin"] == pytest.approx(0.5) and rows[1]["backend_gap_best"] == pytest.approx(0.5)
    assert rows[0]["v_margin"] == pytest.approx(0.7) and rows[1]["v_rank"] == 1.0
    assert rows[0]["link_score"] == 0.9 and rows[0]["has_features"] == 1.0 and rows[1]["has_features"] == 0.0
    assert rows[0]["qtype_place"] == 1.0 and rows[0]["lang_en"] == 1.0 and rows[0]["shape_plain"] == 1.0


def _stump(feature: str, at: float, low: float, high: float) -> TreeRanker:
    """One tree: ``low`` log-odds when ``feature <= at``, else ``high``."""
    return TreeRanker((feature,), 0.0, [{"feature": [0, 0, 0], "threshold": [at, 0.0, 0.0], "left": [1, 0, 0],
                                         "right": [2, 0, 0], "value": [0.0, low, high], "leaf": [0, 1, 1]}])


def test_model_round_trips_as_json_and_refuses_a_corrupt_file(tmp_path: Path):
    model = ConfidenceModel(_stump("rank", 0.5, 3.0, -3.0), a=0.5, b=0.1, threshold=0.7, k=3,
                            info={"floor": 0.93})
    path = tmp_path / "confidence.json"
    model.save(path)
    again = ConfidenceModel.load(path)
    rows = [{"rank": 0.0}, {"rank": 1.0}]
    assert again.probabilities(rows) == pytest.approx(model.probabilities(rows))
    assert (again.threshold, again.k, again.info) == (0.7, 3, {"floor": 0.93})
    assert "pickle" not in path.read_text(encoding="utf-8")
    path.write_text(json.dumps({"kind": "answer-confidence"}), encoding="utf-8")
    with pytest.raises(ModelLoadError):
        ConfidenceModel.load(path)
    with pytest.raises(ModelLoadError):
        ConfidenceModel.load(tmp_path / "missing.json")


def test_decide_keeps_the_most_probable_when_it_reaches_the_threshold():
    assert decide([0.2, 0.9, 0.9], 0.5).index == 1  # earliest of equals
    low = decide([0.2, 0.4], 0.5)
    assert low.index is None and low.probability == 0.4
    assert decide([], 0.5).index is None


def _confident_pipeline(answers, model: ConfidenceModel) -> Pipeline:
    kg = EmbeddedKG(tiny_kg.memory_store())
    return Pipeline(FakeBackend(answers), kg, confidence=AnswerConfidence(kg, model, None))


def test_pipeline_shows_the_most_probable_candidate_with_its_probability():
    # the model trusts the second candidate (rank 1); the first has no answers anyway
    model = ConfidenceModel(_stump("rank", 0.5, -2.0, 2.0), threshold=0.6)
    question = "Where was Albert Einstein born?"
    pipe = _confident_pipeline({question: [Candidate(NOTHING, 0.9), Candidate(BIRTHPLACE, 0.5)]}, model)
    turn = pipe.answer(question)
    assert turn.answered and turn.rank == 2 and [a.id for a in turn.answers] == ["Q3012"]
    assert turn.confidence == pytest.approx(1 / (1 + math.exp(-2.0)), rel=1e-4)
    assert turn.candidates[1].kept and turn.candidates[1].passed and not turn.candidates[0].passed
    assert "gate" in turn.timings_ms and turn.candidates[1].compared.score_name == "confidence"


def test_pipeline_abstains_below_the_threshold():
    model = ConfidenceModel(_stump("rank", 0.5, 0.0, -2.0), threshold=0.6)  # at most 0.5
    question = "What is the capital of Germany?"
    turn = _confident_pipeline({question: [Candidate(CAPITAL, 0.9)]}, model).answer(question)
    assert not turn.answered and turn.status == "abstained" and turn.confidence is None
    assert turn.message_key == "not_understood" and turn.withheld_by == "gate"
    assert turn.candidates[0].passed is False


def test_evidence_reads_candidates_as_the_pipeline_does(tiny_kg_client):
    # the records the gate is calibrated on score a German question's plain candidates by
    # their best reading, German or English, and a complex one in German only
    ask = "ASK { wd:Q937 wdt:P19 wd:Q3012 }"
    model = ConfidenceModel(_stump("v_score", 0.5, -2.0, 2.0), uses_validator=True)
    scorer = PrefersEnglish()
    stage = AnswerConfidence(tiny_kg_client, model, None, scorer=scorer,
                             verbalize=Verbalize(lambda sparql, lang: f"{lang}|{sparql}"))
    candidates = [Candidate(BIRTHPLACE, 0.9), Candidate(ask, 0.8, shape="ask")]
    ev = stage.evidence("Wo wurde Einstein geboren?", "de", candidates)
    assert ev.validator_scores == pytest.approx((0.95, 0.1))
    assert [v.split("|")[0] for v in scorer.seen] == ["de", "en", "de"]
    assert [v.split("|")[0] for v in ev.verbalizations] == ["de", "de"]  # the explanation's reading
    scorer.seen.clear()
    stage.evidence("Where was Einstein born?", "en", [Candidate(BIRTHPLACE, 0.9)])
    assert len(scorer.seen) == 1


def test_fallback_keeps_the_complex_candidate_the_validators_gate_prefers():
    rows = [{"shape_plain": 1.0, "v_score": 0.99, "backend": 0.9},  # plain: never a fallback
            {"shape_plain": 0.0, "v_score": 0.985, "backend": 0.9},
            {"shape_plain": 0.0, "v_score": 0.995, "backend": 0.1},
            {"shape_plain": 0.0, "v_score": 0.97, "backend": 1.0}]  # under the complex floor
    model = ConfidenceModel(_stump("rank", 0.5, 0.0, 0.0), complex_validator_threshold=0.98)
    assert model.fallback(rows, [1, 1, 1, 1]) == 2  # validator alone
    model.complex_rank_weight = 0.5
    assert model.fallback(rows, [1, 1, 1, 1]) == 1  # blended with the backend score
    assert model.fallback(rows, [1, 0, 1, 1]) == 2  # no answers: never kept
    assert ConfidenceModel(_stump("rank", 0.5, 0.0, 0.0)).fallback(rows, [1, 1, 1, 1]) is None


def test_model_needing_the_validator_refuses_to_run_without_it(tiny_kg_client):
    model = ConfidenceModel(_stump("v_score", 0.5, -2.0, 2.0), uses_validator=True)
    with pytest.raises(ModelLoadError):
        AnswerConfidence(tiny_kg_client, model, None)


def test_threshold_for_reaches_the_floor_on_its_data():
    items = [Outcome(p, ok, True, "en", "x") for p, ok in
             [(0.99, True)] * 30 + [(0.9, False)] * 2 + [(0.8, True)] * 20 + [(0.7, False)] * 10]
    t = threshold_for(items, 0.9)
    fig = figures(items, t)
    assert fig.precision >= 0.9 and fig.correct == 50 and t == pytest.approx(0.8)
    assert threshold_for(items, 0.99) == pytest.approx(0.99)


def test_the_oracle_threshold_shows_the_most_right_answers_at_the_target():
    items = [Outcome(p, ok, True, "en", "x") for p, ok in
             [(0.99, True)] * 30 + [(0.9, False)] * 2 + [(0.8, True)] * 20 + [(0.7, False)] * 10]
    assert oracle_figures(items, 0.9).correct == 50  # down to 0.8: 50 right of 52
    assert oracle_figures(items, 0.99).correct == 30
    assert oracle_figures(items, 0.7).shown == 52  # as many right with 10 fewer wrong
    assert oracle_figures([Outcome(0.9, False, True, "en", "x")], 0.5) is None


def test_choose_floor_keeps_the_worst_source_above_target():
    def fig(shown, correct):
        return figures([Outcome(1.0, i < correct, True, "en", "s") for i in range(shown)], 0.5)

    per_source = {"a": {0.9: fig(100, 88), 0.95: fig(50, 48)}, "b": {0.9: fig(100, 95), 0.95: fig(60, 58)}}
    assert choose_floor(per_source, floors=(0.9, 0.95), target=0.92, judged=("a", "b")) == (0.95, 0.96)
    # a source that misses the target at every floor is reported, not allowed to silence the others
    per_source["c"] = {0.9: fig(20, 2), 0.95: fig(12, 1)}
    floor, worst = choose_floor(per_source, floors=(0.9, 0.95), target=0.92, judged=("a", "b", "c"))
    assert floor == 0.95 and worst == pytest.approx(1 / 12)


def test_trees_are_fitted_exported_and_calibrated():
    records = []
    for i in range(200):
        good = i % 3 == 0
        records.append(Record(f"q{i}", "s", "en", "en", "train", True, "q",
                              rows=[{"link_score": 0.9 if good else 0.2, "rank": 0.0}], correct=[good],
                              n_answers=[1]))
    trees = fit_trees(records, ("link_score", "rank"), iterations=20)
    a, b = platt(trees, records)
    model = ConfidenceModel(trees, a, b)
    hi, lo = model.probabilities([{"link_score": 0.9}, {"link_score": 0.2}])
    assert hi > 0.9 and lo < 0.1
