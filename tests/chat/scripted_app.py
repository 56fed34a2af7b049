"""The real chat app (``chat.ui``) over the tiny KG with a scripted backend, as a process.

Browser tests start it with ``python -m tests.chat.scripted_app --port N --log-path P``.
Only the backend is scripted (it maps a few fixed questions to SPARQL over the tiny
graph); the store, pipeline, rendering, session log and Gradio server are the real ones.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

from backends.fake import FakeBackend
from qa.candidate import Candidate

Q = "SELECT ?x WHERE {{ {s} {p} ?x }}"
SCRIPT: dict[str, list[Candidate]] = {
    # en / ru / zh: Einstein's place of birth (Ulm; no German label -> fallback marker)
    "Where was Albert Einstein born?": [Candidate(Q.format(s="wd:Q937", p="wdt:P19"), 0.9)],
    "Где родился Альберт Эйнштейн?": [Candidate(Q.format(s="wd:Q937", p="wdt:P19"), 0.9)],
    "阿尔伯特·爱因斯坦出生在哪里？": [Candidate(Q.format(s="wd:Q937", p="wdt:P19"), 0.9)],
    "Wo wurde Albert Einstein geboren?": [Candidate(Q.format(s="wd:Q937", p="wdt:P19"), 0.9)],
    # de: capital of Russia (German label "Moskau")
    "Was ist die Hauptstadt von Russland?": [Candidate(Q.format(s="wd:Q159", p="wdt:P36"), 0.8)],
    # numbers and dates
    "Wie viele Einwohner hat Berlin?": [Candidate(Q.format(s="wd:Q64", p="wdt:P1082"), 0.8)],
    "Когда родился Пушкин?": [Candidate(Q.format(s="wd:Q7200", p="wdt:P569"), 0.8)],
    # a list that includes the label "<img src=x onerror=alert(1)>"
    "Which cities are in France?": [Candidate("SELECT ?x WHERE { ?x wdt:P17 wd:Q142 }", 0.7)],
    "Which things are cities?": [Candidate("SELECT ?x WHERE { ?x wdt:P31 wd:Q515 }", 0.7)],
    # yes/no
    "Ist Berlin eine Stadt?": [Candidate("ASK { wd:Q64 wdt:P31 wd:Q515 }", 0.8)],
    # candidates that say what they are about (issue 14): the "what I understood" line
    "Where was Einstein born?": [Candidate(Q.format(s="wd:Q937", p="wdt:P19"), 0.9, shape="plain",
                                           entities=("Q937",), properties=("P19",))],
    "Where did Albert Einstein die?": [Candidate(Q.format(s="wd:Q937", p="wdt:P20"), 0.9, shape="plain",
                                                 entities=("Q937",), properties=("P20",),
                                                 explains=((2, 4, "entity"), (4, 5, "property")))],  # no value
    "Quelles sont les langues officielles de la Suisse ?": [Candidate(
        Q.format(s="wd:Q39", p="wdt:P37"), 0.9, shape="plain", entities=("Q39",), properties=("P37",))],
    "Какая столица Германии?": [Candidate(Q.format(s="wd:Q183", p="wdt:P36"), 0.9, shape="plain",
                                          entities=("Q183",), properties=("P36",))],
    "德国的首都是什么？": [Candidate(Q.format(s="wd:Q183", p="wdt:P36"), 0.9, shape="plain",
                                  entities=("Q183",), properties=("P36",))],
}

WD = "http://www.wikidata.org/entity/"
EXTRA_FACTS = (  # Switzerland's languages: Italian has only a code-like French alias, one has no name at all
    (WD + "Q39", "http://www.w3.org/2000/01/rdf-schema#label", ("Switzerland", "en")),
    (WD + "Q652", "http://www.w3.org/2000/01/rdf-schema#label", ("Italian", "en")),
    (WD + "Q652", "http://www.w3.org/2004/02/skos/core#altLabel", ("it", "fr")),
    (WD + "Q652", "http://www.wikidata.org/prop/direct/P31", WD + "Q1288568"),
    (WD + "Q39", "http://www.wikidata.org/prop/direct/P37", WD + "Q652"),
    (WD + "Q39", "http://www.wikidata.org/prop/direct/P37", WD + "Q76346"),
    (WD + "Q39", "http://www.wikidata.org/prop/direct/P37", WD + "Q188"),
    (WD + "Q188", "http://www.w3.org/2000/01/rdf-schema#label", ("German", "en")),
    (WD + "Q188", "http://www.w3.org/2000/01/rdf-schema#label", ("allemand", "fr")),
    (WD + "Q188", "http://www.w3.org/2004/02/skos/core#altLabel", ("de", "fr")),
)


def store_with_extras():
    """The tiny graph plus :data:`EXTRA_FACTS`."""
    import pyoxigraph as ox

    from tests import tiny_kg

    store = tiny_kg.memory_store()
    for s, p, o in EXTRA_FACTS:
        obj = ox.Literal(o[0], language=o[1]) if isinstance(o, tuple) else ox.NamedNode(o)
        store.add(ox.Quad(ox.NamedNode(s), ox.NamedNode(p), obj))
    return store
SLOW_PREFIX = "Slowly: "
"""A question ``SLOW_PREFIX + q`` waits until the gate file (``--gate``) exists, then answers
like ``q``, so ordering and concurrency tests hold one question open for as long as they
need, on a box of any speed, instead of racing a fixed delay."""
GATE_MAX_S = 120.0
"""A slow question gives up waiting after this long (a test that forgot to open the gate)."""
_gate: Path | None = None


def _wait_for_gate() -> None:
    deadline = time.monotonic() + GATE_MAX_S
    while _gate is not None and not _gate.exists() and time.monotonic() < deadline:
        time.sleep(0.05)


def _scripted(question: str, lang: str) -> list[Candidate]:
    if question.startswith(SLOW_PREFIX):
        _wait_for_gate()
        question = question[len(SLOW_PREFIX):]
    return list(SCRIPT.get(question, []))


def scripted_backend() -> FakeBackend:
    """The scripted backend (anything not in :data:`SCRIPT` gets no candidates)."""
    return FakeBackend(_scripted)


def main(argv: list[str] | None = None) -> int:
    """Serve the chat on ``--port`` with the session log at ``--log-path``."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--log-path", required=True)
    parser.add_argument("--gate", type=Path, help="slow questions wait until this file exists")
    args = parser.parse_args(argv)
    global _gate
    _gate = args.gate

    from chat.ui import build_app, launch_app
    from core.settings import load_settings
    from kg.client import EmbeddedKG
    from qa.pipeline import Pipeline
    from qa.reading.detect import warm_up
    from service.session_log import SessionLog

    settings = load_settings({}, port=args.port, log_path=Path(args.log_path), validator=False,
                             kg_source=Path("tiny.nt"), rate_limit_per_minute=0)  # the suite asks fast on purpose
    pipeline = Pipeline(scripted_backend(), EmbeddedKG(store_with_extras()), validator_state="unavailable")
    warm_up()
    app = build_app(pipeline, settings, SessionLog(settings.log_path))
    launch_app(app, settings)
    return 0


if __name__ == "__main__":
    sys.exit(main())
