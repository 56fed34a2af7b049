"""Gradio entry point: ``python app.py [--port N] [--backend …] [--kg-endpoint URL] …``.

Settings are read once here (flags over ``KGQA_*`` environment variables)."""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.settings import Settings

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
# Gradio's queue rebuilds a pandas summary of up to 10,000 past events after EVERY event
# (2 ms at 200 events, 18 ms at 10,000, under the GIL); refresh it every 1,000 events
# over the last 2,000 instead.
os.environ.setdefault("GRADIO_ANALYTICS_CACHE_FREQUENCY", "1000")
os.environ.setdefault("GRADIO_ANALYTICS_MAX_EVENTS", "2000")


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """Command-line flags for the chat app."""
    from cli.checks import non_negative_int, port_number
    from cli.main import OneLineParser, add_common

    parser = OneLineParser(prog="app.py", description="KGQA chat (Gradio) on http://HOST:PORT")
    add_common(parser)
    parser.add_argument("--host", dest="host", help="interface to listen on (default 127.0.0.1)")
    parser.add_argument("--port", dest="port", type=port_number, help="port (default 7860)")
    parser.add_argument("--log-path", dest="log_path", help="SQLite session log")
    parser.add_argument("--no-validator", dest="no_validator", action="store_true",
                        help="answer with the backend's top candidate (the UI says so)")
    parser.add_argument("--concurrency", type=non_negative_int, default=None, metavar="N",
                        help="questions answered at the same time (default 2; each session stays in order)")
    parser.add_argument("--workers", type=non_negative_int, default=None, metavar="N",
                        help="worker processes answering the questions (default: one per question answered "
                             "at once; 0: answer in the app process)")
    args = parser.parse_args(argv)
    if args.qanswer_url and not args.backend:
        args.backend = "qanswer"  # a QAnswer-compatible URL alone selects that backend
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Build settings, start loading the worker processes, then serve the chat.

    The worker processes are started before gradio is imported: they load the pipeline
    while this process serves the page that answers at once and loads the UI behind it
    (:mod:`chat.serve`); the workers carry no copy of gradio."""
    from cli.checks import VALIDATOR_HINT, check_start
    from cli.main import settings_from_args, start_error
    from core.errors import KGSourceError, ModelLoadError, SettingsError
    from service.workers import DEFAULT_WORKERS, WorkerPipeline

    signal.signal(signal.SIGTERM, _interrupt)  # SIGTERM stops the chat as Ctrl-C does, at any moment
    args = parse_args(argv)
    try:
        settings = settings_from_args(args)
        check_start(settings)
    except (SettingsError, KGSourceError, ModelLoadError) as exc:  # one line, exit 2, before anything loads
        return start_error("chat", exc, VALIDATOR_HINT if isinstance(exc, ModelLoadError) else "")
    concurrency = args.concurrency or None
    processes = args.workers if args.workers is not None else (concurrency or DEFAULT_WORKERS)
    if processes == 0:  # the pipeline in this process: Gradio's own launch once it has loaded
        return _serve_in_process(settings, concurrency)
    pool = WorkerPipeline(settings, processes, wait=False, early=True)
    from chat.serve import ServerStartError, serve_chat  # no gradio yet: it loads behind the served page

    try:
        serve_chat(settings, pool, concurrency=concurrency)
    except ServerStartError as exc:
        pool.close()
        return start_error("chat", exc)
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM: stopped, not failed
        return 0
    if pool.failure is not None:  # the workers could not load: the chat was closed
        from service.workers import WorkerStartError

        error = pool.start_error or WorkerStartError(pool.failure)
        return start_error("chat", error, VALIDATOR_HINT if isinstance(error, ModelLoadError) else "")
    return 0


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _serve_in_process(settings: Settings, concurrency: int | None) -> int:
    """``--workers 0``: load the pipeline here, then serve the chat with Gradio's launch."""
    from cli.checks import VALIDATOR_HINT
    from cli.main import start_error
    from core.errors import KGSourceError, ModelLoadError
    from core.memory import loading

    with loading():  # gradio's import: no collections meanwhile, then frozen
        from chat.ui import launch

    try:
        launch(settings, **({"concurrency": concurrency} if concurrency else {}))
    except (KGSourceError, ModelLoadError) as exc:  # the pipeline loads here, and failed
        return start_error("chat", exc, VALIDATOR_HINT if isinstance(exc, ModelLoadError) else "")
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM before Gradio waits for them itself: stopped, not failed
        return 0
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # Ctrl-C before the chat serves: no traceback
        sys.exit(130)
