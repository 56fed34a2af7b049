"""(slow) The written test sets through the full pipeline with the shipped gate: short
questions in eight languages about facts the KG holds, and questions
about people the KG does not hold who share a first or last name with someone it does."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest

from core.text import normalize
from kg.sparql import entity_iri, prop_iri

pytestmark = pytest.mark.slow

DATA = Path(__file__).resolve().parent.parent / "data"
WRITTEN = json.loads((DATA / "written_simple.json").read_text(encoding="utf-8"))
NAMESAKES = json.loads((DATA / "namesakes.json").read_text(encoding="utf-8"))
LANGS = {"en", "de", "ru", "zh", "fr", "es", "uk", "ja"}


@pytest.fixture(scope="module")
def full(shared_kg_source, full_store_kg):
    from core.settings import PROJECT_ROOT, load_settings
    from kg.build import ensure_label_index

    index = ensure_label_index(shared_kg_source, PROJECT_ROOT / ".cache")
    return full_store_kg[0], index, load_settings({})


@pytest.fixture(scope="module")
def pipeline(shipped_pipeline):
    """The shipped pipeline (the calibrated gate with the partial-name rule)."""
    return shipped_pipeline


def test_the_sets_are_large_and_multilingual():
    assert len(WRITTEN) >= 60 and {q["lang"] for q in WRITTEN} == LANGS
    assert len(NAMESAKES) >= 20


def test_every_written_fact_holds_in_the_kg(full):
    kg, _, _ = full
    for q in WRITTEN:
        rows = kg.query(f"SELECT ?o WHERE {{ <{entity_iri(q['subject'])}> <{prop_iri(q['property'])}> ?o }}").rows
        objects = {row["o"].value.rsplit("/", 1)[-1] for row in rows}
        assert objects == set(q["expected"]), q


def test_namesakes_are_not_in_the_kg_but_share_a_name(full):
    _, index, _ = full
    for q in NAMESAKES:
        full_name = normalize(q["person"])
        assert not index.lookup({full_name}).get(full_name), q["person"]
        parts = index.lookup({normalize(p) for p in q["person"].split()})
        assert any(parts.values()), q["person"]


def _verdict(pipeline, text: str, expected: list[str]) -> str:
    """``abstain``, ``right`` or ``wrong: <ids>`` for ``text`` asked of ``pipeline``."""
    turn = pipeline.answer(text)
    if not turn.answered:
        return "abstain"
    assert 0.0 < (turn.confidence or 0.0) <= 1.0
    got = sorted(a.id for a in turn.answers if a.id)
    return "right" if got == sorted(expected) else f"wrong: {got}"


def _tally(pipeline, asked: list[tuple[str, list[str]]]) -> tuple[int, int]:
    """How many of the ``(text, expected ids)`` are answered right, and how many wrongly."""
    verdicts = [_verdict(pipeline, text, expected) for text, expected in asked]
    return verdicts.count("right"), sum(v.startswith("wrong") for v in verdicts)


@pytest.fixture(scope="module")
def verdicts(pipeline) -> dict[str, str]:
    return {q["question"]: _verdict(pipeline, q["question"], q["expected"]) for q in WRITTEN}


def test_written_questions_are_never_answered_wrongly(verdicts):
    wrong = {k: v for k, v in verdicts.items() if v.startswith("wrong")}
    assert not wrong, wrong


def test_written_questions_are_mostly_answered(verdicts):
    right = sum(v == "right" for v in verdicts.values())
    print(f"written simple questions: {right}/{len(verdicts)} right")
    assert right >= 0.8 * len(verdicts)


def test_namesakes_are_never_answered(pipeline):
    answered = {q["question"]: sorted(a.id for a in turn.answers if a.id)
                for q in NAMESAKES for turn in [pipeline.answer(q["question"])] if turn.answered}
    assert not answered, answered


@pytest.mark.parametrize("form", [str.lower, str.upper], ids=["in lower case", "in capitals"])
def test_namesakes_are_never_answered_without_case(pipeline, form):
    # no capitals mark the name: "where was tom brady born?" was answered with the
    # birthplace of Tom Kaulitz (alias "Tom"), in lower case, in capitals and in Title Case
    answered = {form(q["question"]): sorted(a.id for a in turn.answers if a.id)
                for q in NAMESAKES for turn in [pipeline.answer(form(q["question"]))] if turn.answered}
    assert not answered, answered


@pytest.mark.parametrize("form", [str.upper, str.title], ids=["in capitals", "every word capitalized"])
def test_written_questions_keep_their_answers_when_case_says_nothing(pipeline, verdicts, form):
    # the validator rejected most shouted questions' right readings (7 of the 48 answered
    # as written, Title Case 18); read in lower case, 37 and 38 of them, and never wrongly;
    # paired with the reading's capitals outside English, 46 and 47
    cased = [q for q in WRITTEN if q["lang"] not in ("zh", "ja") and verdicts[q["question"]] == "right"]
    right, wrong = _tally(pipeline, [(form(q["question"]), q["expected"]) for q in cased])
    print(f"{form.__name__}: {right}/{len(cased)} right, {wrong} wrong")
    assert wrong == 0 and right >= 0.7 * len(cased)


def test_written_questions_typed_in_lower_case_keep_their_answers(pipeline, verdicts):
    # outside English the validator learned cased questions: of the 64 answered as written,
    # 54 kept their answer typed in lower case; paired with the reading's capitals, 63
    answered = [q for q in WRITTEN if verdicts[q["question"]] == "right"]
    right, wrong = _tally(pipeline, [(q["question"].lower(), q["expected"]) for q in answered])
    print(f"in lower case: {right}/{len(answered)} right, {wrong} wrong")
    assert wrong == 0 and right >= 0.9 * len(answered)


def test_written_questions_typed_without_accents_are_still_answered(pipeline, verdicts):
    # « Was ist die Hauptstadt von Osterreich? » scored 0.10 against « Österreich … » (0.98
    # with the accent); with the reading's accents borrowed, 12 of the 16 accented questions
    # answered as written are answered without accents (9 before), never wrongly
    def plain(text: str) -> str:
        return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))

    accented = [q for q in WRITTEN if q["lang"] in ("de", "fr", "es") and plain(q["question"]) != q["question"]
                and verdicts[q["question"]] == "right"]  # Latin accents (NFD also splits й and kana)
    right, wrong = _tally(pipeline, [(plain(q["question"]), q["expected"]) for q in accented])
    print(f"without accents: {right}/{len(accented)} right, {wrong} wrong")
    assert wrong == 0 and right >= 0.7 * len(accented)


PREAMBLES = {"en": ("Please tell me: ", "Hi! ", "Can you tell me: "), "de": ("Bitte sag mir: ", "Hallo! "),
             "fr": ("Dis-moi : ", "Bonjour ! "), "es": ("Por favor, ", "¡Hola! "),
             "ru": ("Скажите, пожалуйста, ", "Привет! "), "uk": ("Скажіть, будь ласка, ",),
             "zh": ("请问", "你好！"), "ja": ("すみません、",)}
CLOSINGS = {"en": (", please?", "? Thanks!"), "de": (", bitte?",), "fr": (", s'il vous plaît ?",),
            "es": (", por favor?",), "ru": (", пожалуйста?",), "uk": (", будь ласка?",), "zh": ("？谢谢！",),
            "ja": ("？ありがとう。",)}


def _with_courtesies(q: dict, k: int) -> list[str]:
    """``q`` opened with one greeting or request and closed with one "please" or "thanks":
    for the ``k``-th question of its language the ``k``-th of each (in turn), so that every
    phrase is asked with a third or more of its language's questions."""
    preambles, closings = PREAMBLES[q["lang"]], CLOSINGS[q["lang"]]
    bare = q["question"].rstrip(" ?？")
    return [preambles[k % len(preambles)] + q["question"], bare + closings[k % len(closings)]]


def test_written_questions_keep_their_answers_with_chat_courtesies(pipeline):
    # the validator learned from benchmark questions, which have no greeting, "can you tell
    # me" or "please": with every phrase on every question (206 asked), 103 were answered
    # right and 2 wrongly (a yes/no reading of "Can you tell me: …") before the courtesies
    # were set aside; 201 and 0 since (2026-11-28).  Each question gets one phrase of each kind, in
    # turn (136 asked; the same phrases, a third of the time or more): 132 right, 0 wrong
    position = dict.fromkeys(LANGS, 0)
    asked: list[tuple[str, list[str]]] = []
    for q in WRITTEN:
        asked += [(text, q["expected"]) for text in _with_courtesies(q, position[q["lang"]])]
        position[q["lang"]] += 1
    right, wrong = _tally(pipeline, asked)
    print(f"with courtesies: {right}/{len(asked)} right, {wrong} wrong")
    assert wrong == 0 and right >= 0.85 * len(asked)


# requests typed as imperatives, about facts of the written set (« Nenne … », « Gib mir … »:
# QALD's German questions are often written so), and Japanese ones (« …を教えてください »)
REQUESTS = [
    ("Nenne die Hauptstadt von Japan.", ["Q1490"]),
    ("Nenne mir den Geburtsort von Albert Einstein.", ["Q3012"]),
    ("Nennen Sie mir die Hauptstadt von Ägypten.", ["Q85"]),
    ("Gib mir die Hauptstadt von Frankreich.", ["Q90"]),
    ("Gib mir den Regisseur von Pulp Fiction.", ["Q3772"]),
    ("Zeig mir die Hauptstadt von Österreich.", ["Q1741"]),
    ("Nenne die Amtssprache von Ungarn.", ["Q9067"]),
    ("Dammi la capitale del Giappone.", ["Q1490"]),
    ("Indicami la capitale della Francia.", ["Q90"]),
    ("Donne-moi la capitale du Japon.", ["Q1490"]),
    ("Donnez-moi le lieu de naissance d'Albert Einstein.", ["Q3012"]),
    ("Назовите столицу Японии.", ["Q1490"]),
    ("Назовите место рождения Альберта Эйнштейна.", ["Q3012"]),
    ("Назвіть столицю Франції.", ["Q90"]),
    ("告诉我日本的首都是哪里？", ["Q1490"]),
    ("Dê-me a capital da França.", ["Q90"]),
    ("アルベルト・アインシュタインの出生地を教えてください。", ["Q3012"]),
    ("パルプ・フィクションの監督を教えて", ["Q3772"]),
    ("イタリアの首都を教えてください。", ["Q220"]),
    ("Erzähl mir, wo Albert Einstein geboren wurde.", ["Q3012"]),
    ("Dígame la capital de Francia.", ["Q90"]),
    ("Mi dici la capitale della Francia?", ["Q90"]),
    ("Расскажите, где родился Пушкин.", ["Q649"]),
    ("Розкажи, де народився Альберт Ейнштейн.", ["Q3012"]),
]


def test_requests_are_read_as_questions(pipeline):
    # 6 of these 24 were answered (0 wrong) while the request stayed in the question the
    # validator read ("Nenne die Hauptstadt von Japan." scored 0.004); 16 since with the
    # 4-layer validator, 14 with the 8-layer one (it doubts some bare noun phrases left
    # once the request is set aside: « die Hauptstadt von Frankreich. »), 13 with the gate
    # chosen by leaving each source out (training.transfer), which weighs the backend more
    right, wrong = _tally(pipeline, REQUESTS)
    print(f"requests: {right}/{len(REQUESTS)} right, {wrong} wrong")
    assert wrong == 0 and right >= 13
