"""Shared pieces of the service tests: a scripted backend over the tiny KG."""

from __future__ import annotations

from backends.fake import FakeBackend
from kg.client import EmbeddedKG
from qa.candidate import Candidate
from qa.pipeline import Pipeline
from tests import tiny_kg

CAPITAL = "SELECT DISTINCT ?answer WHERE { wd:Q183 wdt:P36 ?answer . }"
COUNTRY = "SELECT DISTINCT ?answer WHERE { wd:Q64 wdt:P17 ?answer . }"
BIRTHDATE = "SELECT DISTINCT ?answer WHERE { wd:Q937 wdt:P569 ?answer . }"
IN_GERMANY = "ASK WHERE { wd:Q64 wdt:P17 wd:Q183 . }"
FRENCH_CITIES = "SELECT DISTINCT ?answer WHERE { ?answer wdt:P31 wd:Q515 . ?answer wdt:P17 wd:Q142 . }"
NOTHING = "SELECT DISTINCT ?answer WHERE { wd:Q937 wdt:P36 ?answer . }"

SCRIPT: dict[str, list[Candidate]] = {
    "What is the capital of Germany?": [Candidate(CAPITAL, 0.91), Candidate(COUNTRY, 0.125)],
    "Was ist die Hauptstadt von Deutschland?": [Candidate(CAPITAL, 0.8)],
    "Столица Германии?": [Candidate(CAPITAL, 0.7)],
    "When was Einstein born?": [Candidate(BIRTHDATE, 0.6)],
    "Is Berlin in Germany?": [Candidate(IN_GERMANY, 0.77)],
    "Which cities are in France?": [Candidate(FRENCH_CITIES, 0.5)],
    "What is the capital of Einstein?": [Candidate(NOTHING, 0.4)],
}


def scripted_backend() -> FakeBackend:
    """The scripted backend (unknown questions get no candidates)."""
    return FakeBackend(lambda q, lang: SCRIPT.get(q, []))


def tiny_pipeline(backend=None, kg=None) -> Pipeline:
    """A pipeline over the tiny in-memory KG (validator off)."""
    return Pipeline(backend or scripted_backend(), kg or EmbeddedKG(tiny_kg.memory_store()))
