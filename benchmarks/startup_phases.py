"""One cold start's loading steps, timed one by one (run by ``benchmarks/startup.py``,
which prints the median of several fresh interpreters).

    PYTHONPATH=ROOT python benchmarks/startup_phases.py app|serve|ask

Prints one JSON line: wall seconds per phase, and the process's CPU seconds per phase
(``cpu_<phase>``: what a busy box inflates least).  The code measured is the one on ``PYTHONPATH``
(this file inserts nothing into ``sys.path``), so ``startup.py --root`` times another
checkout with the same steps.
"""

from __future__ import annotations

import json
import os
import sys
import time

QUESTION = "Where was Albert Einstein born?"
PHASES = ("imports", "kg_open", "label_index", "encoder", "language_id", "first_question")
COMMAND_MODULES = {
    "ask": ("cli.main", "cli.ask", "cli.ask_here"),
    "serve": ("cli.main", "cli.serve", "service.workers"),
    "app": ("cli.main", "service.workers", "chat.ui"),
}


def phase_child(command: str) -> dict[str, float]:
    """In this (fresh) interpreter: the loading steps of ``command`` one by one, timed."""
    import importlib

    spent: dict[str, float] = {}
    cpu: dict[str, float] = {}
    clock = time.process_time()
    mark = time.perf_counter()
    for name in COMMAND_MODULES[command]:
        importlib.import_module(name)
    spent["imports"] = time.perf_counter() - mark
    cpu["imports"], clock = time.process_time() - clock, time.process_time()

    from core.settings import load_settings
    from qa.reading.detect import detect_language, warm_up
    from service.factory import build_pipeline, make_backend, open_kg
    from validator.runtime import load_encoder

    settings = load_settings(os.environ)
    mark = time.perf_counter()
    kg = open_kg(settings)
    spent["kg_open"] = time.perf_counter() - mark
    cpu["kg_open"], clock = time.process_time() - clock, time.process_time()
    mark = time.perf_counter()
    backend = make_backend(settings, kg)
    spent["label_index"] = time.perf_counter() - mark
    cpu["label_index"], clock = time.process_time() - clock, time.process_time()
    mark = time.perf_counter()
    if settings.validator:
        load_encoder(settings.validator_dir, settings.model_dir)
    spent["encoder"] = time.perf_counter() - mark
    cpu["encoder"], clock = time.process_time() - clock, time.process_time()
    mark = time.perf_counter()
    if command == "ask":  # one question: what its detection needs
        detect_language("Where was Albert Einstein born?")
        detect_language("Где родился Альберт Эйнштейн?")
    else:  # a service loads the language models before its first user (service.workers.warm)
        warm_up()
    spent["language_id"] = time.perf_counter() - mark
    cpu["language_id"], clock = time.process_time() - clock, time.process_time()
    mark = time.perf_counter()
    build_pipeline(settings, kg=kg, backend=backend, require_validator=True).answer(QUESTION)
    spent["first_question"] = time.perf_counter() - mark
    cpu["first_question"], clock = time.process_time() - clock, time.process_time()
    spent["total"] = sum(spent.values())
    cpu["total"] = sum(cpu.values())
    return {**{k: round(v, 3) for k, v in spent.items()}, **{f"cpu_{k}": round(v, 3) for k, v in cpu.items()}}


if __name__ == "__main__":
    print(json.dumps(phase_child(sys.argv[1])))
