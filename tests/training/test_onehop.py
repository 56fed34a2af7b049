"""Templated one-hop questions in every language (training/onehop.py)."""

from __future__ import annotations

from qa.reading.detect import SUPPORTED_LANGUAGES as SUPPORTED
from training.onehop import build, entities_in_test_sets, generate, load_templates
from training.synthetic import Facts, entity_split, to_items

EINSTEIN, PUSHKIN, GERMANY, BERLIN, RUSSIA, MOSCOW, ULM = "Q937", "Q7200", "Q183", "Q64", "Q159", "Q649", "Q3012"


def test_every_template_has_one_subject_slot_in_a_supported_language():
    table = load_templates()
    assert len(table) >= 30
    for pid, by_lang in table.items():
        assert pid.startswith("P")
        assert {"en", "de", "ru", "zh", "fr", "es", "uk", "ja"} <= set(by_lang), pid
        assert set(by_lang) <= set(SUPPORTED), pid
        for templates in by_lang.values():
            assert templates and all(t.count("{s}") == 1 for t in templates)


def test_written_test_entities_are_never_asked_about():
    banned = entities_in_test_sets()
    assert {"Q142", "Q937"} <= banned  # France and Einstein are in the written simple questions


def _facts(subjects: list[str]) -> Facts:
    return Facts({}, {}, {}, {}, {q: {"en": [f"Person {q}"], "ru": [f"Персона {q}"]} for q in subjects})


def test_questions_name_subjects_of_their_own_split_in_their_language():
    subjects = [f"Q{1000 + i}" for i in range(200)]
    by_split: dict[str, list[str]] = {}
    for q in subjects:
        by_split.setdefault(entity_split(q), []).append(q)
    templates = {"P19": {"en": ["Where was {s} born?"], "ru": ["Где родился {s}?"], "zh": ["{s}出生在哪里？"]}}
    questions = generate(templates, {"P19": by_split}, _facts(subjects), per_split={"train": 3, "dev": 1})
    assert {q.split for q in questions} == {"train", "dev"}
    for q in questions:
        subject = q.id.split(":")[2]
        assert entity_split(subject) == q.split
        assert q.gold_sparql == f"SELECT DISTINCT ?answer WHERE {{ wd:{subject} wdt:P19 ?answer }}"
    assert not [q for q in questions if q.lang == "zh"]  # no Chinese name: no Chinese question
    ru = [q for q in questions if q.lang == "ru"]
    assert len(ru) == 4 and all(q.text.startswith("Где родился Персона Q") for q in ru)


def test_a_new_template_leaves_the_other_templates_questions_as_they_were():
    subjects = [f"Q{1000 + i}" for i in range(300)]
    by_split: dict[str, list[str]] = {}
    for q in subjects:
        by_split.setdefault(entity_split(q), []).append(q)
    table = {"P19": {"en": ["Where was {s} born?"], "ru": ["Где родился {s}?"]},
             "P20": {"en": ["Where did {s} die?"]}}
    grown = {"P19": {"en": ["Where was {s} born?", "In which city was {s} born?"], "ru": ["Где родился {s}?"]},
             "P20": {"en": ["Where did {s} die?"]}}
    pools = {"P19": by_split, "P20": by_split}
    before = generate(table, pools, _facts(subjects), per_split={"train": 5, "dev": 2}, seed=13)
    after = generate(grown, pools, _facts(subjects), per_split={"train": 5, "dev": 2}, seed=13)
    assert [(q.id, q.text) for q in before] == [(q.id, q.text) for q in after if "In which city" not in q.text]
    assert len(after) == len(before) + 7
    other_seed = generate(table, pools, _facts(subjects), per_split={"train": 5, "dev": 2}, seed=14)
    assert {q.id for q in other_seed} != {q.id for q in before}


def test_build_reads_subjects_and_gold_from_the_kg(tiny_kg_client):
    templates = {"P19": {"en": ["Where was {s} born?"]}, "P36": {"en": ["What is the capital of {s}?"]}}
    questions = build(tiny_kg_client, per_split={"train": 5, "dev": 5, "test": 5}, exclude=set(),
                      templates=templates)
    texts = {q.text for q in questions}
    assert "Where was Albert Einstein born?" in texts
    assert "What is the capital of Germany?" in texts
    items = {it.text: it for it in to_items(tiny_kg_client, questions)}
    gold = items["Where was Albert Einstein born?"].question.answers
    assert {row["answer"].value.rsplit("/", 1)[-1] for row in gold.rows} == {ULM}
    kept = build(tiny_kg_client, per_split={"train": 5, "dev": 5, "test": 5}, exclude={EINSTEIN, BERLIN},
                 templates=templates)
    assert not {q.text for q in kept} & {"Where was Albert Einstein born?", "What is the capital of Germany?"}
