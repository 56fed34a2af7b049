"""SPARQL building blocks, settings and input limits."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import EmptyQuestion, QuestionTooLong
from core.settings import Settings, load_settings
from kg.client import EmbeddedKG
from kg.sparql import entity_iri, escape_string, iri_ref, literal, local_id, prop_iri, short
from qa.reading.detect import clean_question, strip_courtesies
from tests import tiny_kg


def test_ids_are_validated():
    assert entity_iri("Q64").endswith("/Q64") and prop_iri("P19").endswith("/P19")
    for bad in ("Q64 } DROP", "q64", "P", "Q0", "Q64>"):
        with pytest.raises(ValueError):
            entity_iri(bad)
    with pytest.raises(ValueError):
        prop_iri("Q5")
    assert local_id("http://www.wikidata.org/entity/Q5") == "Q5" and local_id("http://x/y") is None
    assert short("http://www.wikidata.org/prop/direct/P31") == "wdt:P31"


def test_literals_cannot_break_out_of_the_query():
    nasty = 'x" } ; DELETE WHERE { ?s ?p ?o } #\n\\'
    lit = literal(nasty, lang="en")
    store = tiny_kg.memory_store()
    before = len(store)
    result = EmbeddedKG(store).query(f"SELECT ?s WHERE {{ ?s rdfs:label {lit} }}")
    assert result.rows == [] and len(store) == before
    assert escape_string('a"b') == 'a\\"b'
    with pytest.raises(ValueError):
        iri_ref("http://x/> } <y")
    with pytest.raises(ValueError):
        literal("x", lang="en} ")


def test_settings_from_env_and_overrides():
    env = {"KGQA_BACKEND": "qanswer", "KGQA_QANSWER_URL": "http://127.0.0.1:1", "KGQA_VALIDATOR": "false",
           "KGQA_PORT": "9000", "KGQA_THRESHOLD": "0.7", "KGQA_CACHE_DIR": "/tmp/c", "HOME": "/root"}
    s = load_settings(env, port=9100, kg_endpoint=None)
    assert s.backend == "qanswer" and s.validator is False and s.threshold == 0.7
    assert s.port == 9100 and s.cache_dir == Path("/tmp/c") and s.kg_endpoint is None
    assert s.model_dir == Path("/tmp/c/models/e5-small")
    with pytest.raises(AttributeError):
        s.port = 1  # type: ignore[misc]
    assert Settings().host == "127.0.0.1"


@pytest.mark.parametrize("typed, asked", [
    ("Please tell me: Where was Albert Einstein born?", "Where was Albert Einstein born?"),
    ("Hi! Can you tell me where Einstein was born?", "where Einstein was born?"),
    ("Hallo, wo wurde Einstein geboren?", "wo wurde Einstein geboren?"),
    ("S’il vous plaît, où est né Einstein ?", "où est né Einstein ?"),
    ("Скажите, пожалуйста, где родился Пушкин?", "где родился Пушкин?"),
    ("请问法国的首都是哪里？", "法国的首都是哪里？"),
    ("Hey Jude was written by whom?", "Hey Jude was written by whom?"),  # a greeting needs punctuation after it
    ("Tellurium is what?", "Tellurium is what?"),  # "tell" is no word of its own here
    ("Hi!", "Hi!"),  # nothing would be left
    ("Where was Einstein born, please?", "Where was Einstein born?"),
    ("Hi! Wo wurde Einstein geboren, bitte? Danke!", "Wo wurde Einstein geboren?"),
    ("法国的首都是哪里？谢谢！", "法国的首都是哪里？"),
    ("Who wrote the song Please?", "Who wrote the song Please?"),  # "please" closes only after a comma
    ("Who sang Thank You?", "Who sang Thank You?"),  # thanks close only after the question's end
    ("Bitte nenne mir den Geburtsort von Albert Einstein.", "den Geburtsort von Albert Einstein."),
    ("Gib mir die Hauptstadt von Frankreich.", "die Hauptstadt von Frankreich."),
    ("Назовите место рождения Альберта Эйнштейна.", "место рождения Альберта Эйнштейна."),
    ("Dammi la capitale del Giappone.", "la capitale del Giappone."),
    ("Erzähl mir, wo Albert Einstein geboren wurde.", "wo Albert Einstein geboren wurde."),
    ("Расскажите, где родился Пушкин.", "где родился Пушкин."),
    ("Nennewitz liegt wo?", "Nennewitz liegt wo?"),  # an imperative is a word of its own
    ("Dame Judi Dench was born where?", "Dame Judi Dench was born where?"),  # « dame » is no request here
    ("アルベルト・アインシュタインの出生地を教えてください。", "アルベルト・アインシュタインの出生地"),
    ("首都を教えて", "首都"),
    ("教えてください", "教えてください"),  # nothing would be left
])
def test_strip_courtesies(typed, asked):
    assert strip_courtesies(typed) == asked


def test_clean_question():
    assert clean_question("  Where\x00 was\u200b Einstein\n born? ", 100) == "Where was Einstein born?"
    with pytest.raises(EmptyQuestion):
        clean_question("\x01\x02  ", 100)
    with pytest.raises(QuestionTooLong):
        clean_question("a" * 101, 100)
