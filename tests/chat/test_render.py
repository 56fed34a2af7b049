"""Rendering: localized answers, numbers, dates, yes/no, fallbacks, lists, escaping, explanation."""

from __future__ import annotations

import re
from dataclasses import replace
from html.parser import HTMLParser

import pyoxigraph as ox
import pytest

from backends.fake import FakeBackend
from chat.render import (
    LIST_LIMIT,
    escape,
    format_boolean,
    format_date,
    format_number,
    render_html,
    render_question_html,
    render_text,
)
from kg.client import EmbeddedKG
from qa.candidate import Candidate
from qa.pipeline import AnswerItem, CandidateView, Pipeline, Turn, Validation
from service.formats import qald_answers
from tests import tiny_kg
from tests.stages import Verbalize
from tests.tiny_kg import WD
from validator.gate import GatePolicy, LearnedGate
from validator.probability import AnswerModel

BIRTHPLACE = "SELECT ?x WHERE { wd:Q937 wdt:P19 ?x }"
CITIES = "SELECT ?x WHERE { ?x wdt:P31 wd:Q515 }"


class _Collect(HTMLParser):
    """Collects tags and attributes, to check what a browser would build."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def _tags(html: str) -> list[tuple[str, dict[str, str | None]]]:
    parser = _Collect()
    parser.feed(html)
    return parser.tags


def _pipeline(tiny_kg_client, script: dict[str, list[Candidate]]) -> Pipeline:
    return Pipeline(FakeBackend(script), tiny_kg_client)


# ---------------------------------------------------------------- values


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "3,644,826"), ("de", "3.644.826"), ("ru", "3\u00a0644\u00a0826"), ("fr", "3\u202f644\u202f826"),
    ("zh", "3,644,826"),
])
def test_numbers_are_localized(lang: str, expected: str) -> None:
    assert format_number("3644826", lang) == expected


def test_decimals_keep_their_digits_and_garbage_is_not_a_number() -> None:
    assert format_number("1.23456", "de") == "1,23456"
    assert format_number("12.0", "en") == "12"
    assert format_number("abc", "en") is None
    assert format_number("NaN", "en") is None


@pytest.mark.parametrize(("value", "lang", "expected"), [
    ("1879-03-14T00:00:00Z", "en", "March 14, 1879"),
    ("1879-03-14T00:00:00Z", "de", "14. März 1879"),
    ("1879-03-14T00:00:00Z", "ru", "14 марта 1879\u202fг."),
    ("1879-03-14T00:00:00Z", "zh", "1879年3月14日"),
    ("0800-12-25T00:00:00Z", "en", "December 25, 800"),
    ("1879-01-01T00:00:00Z", "en", "1879"),
    ("1879-01-01T00:00:00Z", "ja", "1879年"),
    ("-0043-03-15T00:00:00Z", "en", "March 15 44 BC"),
    ("-0043-01-01T00:00:00Z", "de", "44 v. Chr."),
    ("0000-01-01T00:00:00Z", "en", "1 BC"),
    ("1999", "en", "1999"),
])
def test_dates_are_localized_including_early_and_bce_years(value: str, lang: str, expected: str) -> None:
    assert format_date(value, lang) == expected


def test_unparsable_dates_give_none_and_impossible_dates_stay_raw() -> None:
    assert format_date("yesterday", "en") is None
    assert format_date("1879-02-30T00:00:00Z", "en") == "1879-02-30T00:00:00Z"


@pytest.mark.parametrize(("lang", "yes", "no"), [
    ("en", "Yes.", "No."), ("de", "Ja.", "Nein."), ("ru", "Да.", "Нет."), ("zh", "是。", "否。"),
    ("uk", "Так.", "Ні."), ("xx", "Yes.", "No."),
])
def test_yes_no_is_localized(lang: str, yes: str, no: str) -> None:
    assert (format_boolean(True, lang), format_boolean(False, lang)) == (yes, no)


# ---------------------------------------------------------------- answers through the pipeline


def test_entity_label_in_the_user_language_with_wikidata_link(tiny_kg_client) -> None:
    pipeline = _pipeline(tiny_kg_client, {"Где родился Эйнштейн?": [Candidate(BIRTHPLACE, 0.9)]})
    turn = pipeline.answer("Где родился Эйнштейн?")
    html = render_html(turn)
    assert turn.lang == "ru"
    assert "Ульм" in html and "место рождения" in html  # what was understood, read from the query's text
    links = [a for tag, a in _tags(html) if tag == "a" and "class" not in a]  # the answer's own link
    assert links == [{"href": "https://www.wikidata.org/wiki/Q3012", "target": "_blank",
                      "rel": "noopener noreferrer"}]
    assert "kgqa-fallback" not in html
    assert render_text(turn) == "Альберт Эйнштейн · место рождения: Ульм"


def test_missing_label_falls_back_with_a_marker(tiny_kg_client) -> None:
    pipeline = _pipeline(tiny_kg_client, {"Wo wurde Einstein geboren?": [Candidate(BIRTHPLACE, 0.9)]})
    turn = pipeline.answer("Wo wurde Einstein geboren?")
    html = render_html(turn)
    assert turn.lang == "de"
    marker = [a for tag, a in _tags(html) if tag == "sup"]
    assert marker and "kgqa-fallback" in marker[0]["class"].split() and "kgqa-badge" in marker[0]["class"].split()
    assert "Englisch" in (marker[0]["title"] or "")
    assert " <sup" in html and ">EN</sup>" in html  # a badge apart from the word, not "Ulmen" once copied
    assert render_text(turn) == "Albert Einstein · Geburtsort: Ulm [en]"


def test_a_name_in_the_users_language_or_the_kgs_own_label_gets_no_badge() -> None:
    items = [AnswerItem(WD + "Q1", "Q1", "Salzburg", "de"), AnswerItem(WD + "Q2", "Q2", "Salzburg", "")]
    turn = Turn(question="q", lang="de", detected_lang="de", answered=True, status="ok", message_key="answer_intro",
                answers=items, total_answers=2)
    assert "kgqa-fallback" not in render_html(turn)


def test_a_value_without_a_name_is_never_an_answer() -> None:
    store = tiny_kg.memory_store()  # Einstein's place of death is a thing with no name in the KG
    store.add(ox.Quad(tiny_kg.e("Q937"), tiny_kg.p("P20"), tiny_kg.e("Q123456")))
    nameless = "SELECT DISTINCT ?answer WHERE { wd:Q937 wdt:P20 ?answer }"
    turn = _pipeline(EmbeddedKG(store), {"Where did Einstein die?": [Candidate(nameless, 0.9)]}).answer(
        "Where did Einstein die?")
    assert not turn.answered and not turn.answers and turn.status == "abstained"
    assert any("without a name" in note for note in turn.notes)


def test_a_nameless_value_is_not_shown_but_stays_in_the_qald_answer() -> None:
    store = tiny_kg.memory_store()  # one named and one nameless value: the chat shows one, QALD carries both
    store.add(ox.Quad(tiny_kg.e("Q937"), tiny_kg.p("P20"), tiny_kg.e("Q123456")))
    store.add(ox.Quad(tiny_kg.e("Q937"), tiny_kg.p("P20"), tiny_kg.e("Q64")))
    query = "SELECT DISTINCT ?answer WHERE { wd:Q937 wdt:P20 ?answer }"
    turn = _pipeline(EmbeddedKG(store), {"Where did Einstein die?": [Candidate(query, 0.9)]}).answer(
        "Where did Einstein die?")
    assert turn.answered and [a.id for a in turn.answers] == ["Q64"] and turn.unnamed == [WD + "Q123456"]
    assert "Q123456" not in render_html(turn) and "Q123456" not in render_text(turn)
    bindings = qald_answers(turn)[0]["results"]["bindings"]
    assert sorted(b["answer"]["value"] for b in bindings) == [WD + "Q123456", WD + "Q64"]
    assert turn.to_json()["unnamed"] == [WD + "Q123456"]

def test_literal_answers_are_localized(tiny_kg_client) -> None:
    pipeline = _pipeline(tiny_kg_client, {
        "Wie viele Einwohner hat Berlin?": [Candidate("SELECT ?x WHERE { wd:Q64 wdt:P1082 ?x }", 0.9)],
        "Когда родился Пушкин?": [Candidate("SELECT ?x WHERE { wd:Q7200 wdt:P569 ?x }", 0.9)],
        "Ist Berlin eine Stadt?": [Candidate("ASK { wd:Q64 wdt:P31 wd:Q515 }", 0.9)],
    })
    assert "3.644.826" in render_html(pipeline.answer("Wie viele Einwohner hat Berlin?"))
    assert "6 июня 1799" in render_html(pipeline.answer("Когда родился Пушкин?"))
    turn = pipeline.answer("Ist Berlin eine Stadt?")
    assert render_text(turn) == "Ja."
    assert "<strong>Ja.</strong>" in render_html(turn)


def test_long_lists_are_shortened_with_and_n_more() -> None:
    answers = [AnswerItem(f"{WD}Q{i}", f"Q{i}", f"Stadt {i}", "de") for i in range(1, 31)]
    turn = Turn(question="q", lang="de", detected_lang="de", answered=True, status="ok", message_key="answer_intro",
                answers=answers, total_answers=250)
    html = render_html(turn)
    assert html.count('class="kgqa-value"') == LIST_LIMIT
    assert "und 240 weitere" in html
    assert render_text(turn).endswith("und 240 weitere")


def test_kg_label_with_html_is_escaped(tiny_kg_client) -> None:
    pipeline = _pipeline(tiny_kg_client, {"Which things are cities?": [Candidate(CITIES, 0.9)]})
    html = render_html(pipeline.answer("Which things are cities?"))
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    assert "<img" not in html
    assert all(tag != "img" and not any(k.startswith("on") for k in attrs) for tag, attrs in _tags(html))


def test_escape_neutralizes_html_markdown_and_latex() -> None:
    text = "<script>alert('x')</script> *bold* _it_ [a](javascript:x) $x$ `c` \\ | # {}"
    out = escape(text)
    assert not re.search(r"[<>*_\[\]$`\\|#{}']", out.replace("&#", "").replace(";", ""))
    assert escape("a\nb") == "a<br>b"


def test_user_question_is_escaped_and_shortened() -> None:
    html = render_question_html("<img src=x onerror=alert(1)>" + "x" * 1000)
    assert html.startswith('<span class="kgqa-question">&lt;img')
    assert html.endswith("…</span>")
    assert len(html) < 700


# ---------------------------------------------------------------- explanation / abstention


def _validated(tiny_kg_client, scores: list[float], threshold: float = 0.5) -> Pipeline:
    class Scorer:
        def predict(self, pairs):
            return scores[: len(pairs)]

    script = {"Where was Einstein born?": [Candidate(BIRTHPLACE, 0.9),
                                           Candidate("SELECT ?x WHERE { wd:Q937 wdt:P27 ?x }", 0.4)]}
    words = Verbalize(lambda sparql, lang: f"<b>{sparql[-20:]}</b> in words")
    return Pipeline(FakeBackend(script), tiny_kg_client, validation=Validation(words, Scorer(), GatePolicy()),
                    threshold=threshold)


def test_explanation_shows_sparql_verbalization_confidence_and_rank(tiny_kg_client) -> None:
    pipeline = _validated(tiny_kg_client, [0.2, 0.87])
    turn = pipeline.answer("Where was Einstein born?")
    html = render_html(turn, threshold=pipeline.threshold)
    assert turn.rank == 2
    details = html[html.index("<details"):]
    assert "How I found this" in details
    assert "wdt:P27" in details and "&lt;b&gt;" in details  # SPARQL and escaped verbalization
    assert "87%" in details and "threshold 50%" in details
    assert "2 of 2" in details
    assert "Validator: on" in details
    assert "Germany" in html


def test_the_explanation_shows_the_calibrated_chance_of_the_kept_answer_in_the_users_language(
        tiny_kg_client) -> None:
    pipeline = _validated(tiny_kg_client, [0.2, 0.87])
    plain = pipeline.answer("Where was Einstein born?")
    assert plain.answered and plain.confidence is None  # a score gate: no probability is claimed
    assert "kgqa-probability" not in render_html(plain)
    model = AnswerModel(("validator",), (0.0,), (1.0,), (4.0,), -2.272, 0.5)  # 0.87 -> about 77 %
    pipeline.validation = replace(pipeline.validation, gate=LearnedGate(model))
    turn = pipeline.answer("Where was Einstein born?", "de")
    assert turn.confidence == pytest.approx(model.probability({"validator": 0.87}), abs=1e-6)
    html = render_html(turn)
    assert "Wahrscheinlichkeit, dass die Antwort stimmt" in html and "etwa 77" in html
    rejected = _validated(tiny_kg_client, [0.1, 0.3])
    rejected.validation = replace(rejected.validation, gate=LearnedGate(model))
    turn = rejected.answer("Where was Einstein born?")
    assert not turn.answered and turn.confidence is None and "kgqa-probability" not in render_html(turn)


def test_abstention_is_a_localized_dont_know_with_the_rejected_candidate(tiny_kg_client) -> None:
    pipeline = _validated(tiny_kg_client, [0.1, 0.3])
    turn = pipeline.answer("Where was Einstein born?", "de")
    html = render_html(turn, threshold=pipeline.threshold)
    assert turn.status == "abstained"
    assert "Ich bin nicht sicher, ob ich Ihre Frage verstanden habe" in html and "Warum ich es nicht weiß" in html
    assert 'data-kind="not-understood"' in html
    assert 'data-decided="gate"' in html and "Der Antwortprüfer" in html
    assert "30%" in html and "nicht bestanden" in html
    assert "kgqa-value" not in html  # no answer value is shown
    assert render_text(turn).startswith("Ich bin nicht sicher")


def test_abstention_when_no_candidate_can_reach_the_mix_gate_says_rejected(tiny_kg_client) -> None:
    pipeline = _validated(tiny_kg_client, [1.0, 1.0], threshold=0.99)
    # needs a backend score >= 0.98: none has it, none is scored
    pipeline.validation = replace(pipeline.validation, gate=GatePolicy("mix", 0.5))
    turn = pipeline.answer("Where was Einstein born?", "de")
    html = render_html(turn, threshold=pipeline.threshold)
    assert turn.status == "abstained" and all(c.validator_score is None for c in turn.candidates)
    assert "nicht bewertet" in html  # never scored: not "rejected by the validator", not "returned nothing"
    assert "vom Validator abgelehnt" not in html and "lieferte im Wissensgraphen nichts" not in html
    assert "kgqa-value" not in html


def test_a_candidate_below_the_mix_is_rejected_even_with_a_validator_score_above_the_threshold(
        tiny_kg_client) -> None:
    pipeline = _validated(tiny_kg_client, [0.95, 0.95], threshold=0.9)
    # 0.5 * 0.95 + 0.5 * 0.9 = 0.925 passes; 0.675 does not
    pipeline.validation = replace(pipeline.validation, gate=GatePolicy("mix", 0.5))
    assert pipeline.answer("Where was Einstein born?").answered
    pipeline.threshold = 0.93  # now neither blend passes, though both validator scores are above 0.93
    turn = pipeline.answer("Where was Einstein born?", "de")
    # the second (backend 0.4) could not reach 0.93 even with a perfect score: it is not scored
    assert turn.status == "abstained" and [c.passed for c in turn.candidates] == [False, None]
    assert [c.validator_score for c in turn.candidates] == [0.95, None]
    assert 'data-decided="gate"' in render_html(turn, threshold=pipeline.threshold)


def test_no_candidates_is_explained(tiny_kg_client) -> None:
    turn = _pipeline(tiny_kg_client, {}).answer("Кто такой Иван?")
    html = render_html(turn)
    # the typed name matches nothing the backend linked: the reply names it, it does not blame the question
    assert turn.message_key == "unknown_entity" and turn.message_args == {"name": "Иван"}
    assert "Я не знаю никого и ничего с названием Иван" in html and "Чтение вопроса: в моих данных не нашлось" in html
    turn = _pipeline(tiny_kg_client, {}).answer("кто такой иван?")  # no capitals: no typed name to go by
    assert turn.message_key == "not_understood"
    assert "Я не уверен, что правильно понял вопрос" in render_html(turn)


def test_validator_unavailable_is_stated_in_the_explanation(tiny_kg_client) -> None:
    pipeline = Pipeline(FakeBackend({"Where was Einstein born?": [Candidate(BIRTHPLACE, 0.9)]}), tiny_kg_client,
                        validator_state="unavailable")
    html = render_html(pipeline.answer("Where was Einstein born?"))
    assert 'class="kgqa-validator-unavailable"' in html
    assert "Validator unavailable" in html


def test_bad_input_has_no_explanation_and_the_limit_is_filled(tiny_kg_client) -> None:
    pipeline = Pipeline(FakeBackend({}), tiny_kg_client, max_question_chars=1000)
    too_long = render_html(pipeline.answer("x" * 10_000))
    assert "1000" in too_long and "{limit}" not in too_long and "<details" not in too_long
    assert "Please type a question" in render_html(pipeline.answer("\x00\x07  "))


def test_turn_id_and_status_travel_as_classes() -> None:
    turn = Turn(question="q", lang="en", detected_lang="en", status="no_candidates", message_key="dont_know")
    html = render_html(turn, turn_id="ab" * 12)
    assert "kgqa-status-no_candidates" in html and "kgqa-turn-" + "ab" * 12 in html
    assert "kgqa-turn-" not in render_html(turn, turn_id="<script>")


def test_candidate_view_sparql_with_blank_lines_stays_one_line() -> None:
    view = CandidateView("SELECT ?x\n\nWHERE { ?x ?p ?o }", 0.5, kept=True)
    turn = Turn(question="q", lang="en", detected_lang="en", answered=True, status="ok", message_key="answer_intro",
                answers=[AnswerItem("v", None, "v", None, None, "literal")], candidates=[view], rank=1,
                total_answers=1)
    html = render_html(turn)
    assert "\n" not in html and "&#10;&#10;WHERE" in html


def test_a_yes_no_answer_reads_as_a_sentence_with_its_subject(tiny_kg_client) -> None:
    ask = "ASK { wd:Q183 wdt:P36 wd:Q64 }"
    turn = _pipeline(tiny_kg_client, {"Is Berlin the capital of Germany?": [Candidate(ask, 0.9)]}).answer(
        "Is Berlin the capital of Germany?")
    html = render_html(turn)
    text = re.sub(r"<[^>]+>", "", html[html.index('class="kgqa-boolean"'):html.index("</p>")])
    assert text.endswith("Yes: Berlin is the capital of Germany.")
