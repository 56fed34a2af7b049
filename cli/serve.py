"""``kgqa serve`` (the web API: QAnswer-compatible ``/api/qa/full``, GERBIL ``/gerbil``,
``/health``) and ``kgqa kg-serve`` (the embedded store as a SPARQL endpoint)."""

from __future__ import annotations

import argparse
import logging
import os
import sys
import threading

from cli.checks import VALIDATOR_HINT, check_start, non_negative_int, port_number
from cli.main import add_common, settings_from_args, start_error
from core.errors import KGSourceError, KGUnavailable, ModelLoadError, SessionLogError
from core.settings import Settings
from kg.bounded import DEFAULT_MEMORY_BYTES
from kg.build import build_kg
from kg.name_keys import served_store
from kg.store import check_source, kg_paths
from qa.pipeline import Pipeline
from service.app import MAX_CONCURRENT_QUESTIONS, create_app
from service.doors import allowed_host_names
from service.kgserve import create_sparql_app, oxigraph_command, query_url
from service.ratelimit import ClientLimiter, RateLimiter
from service.server import serve
from service.session_log import SessionLog
from service.workers import WorkerPipeline, WorkerStartError, build_warm_pipeline

DEFAULT_SERVE_PORT = Settings.serve_port
DEFAULT_KG_PORT = 7878
DEFAULT_API_RATE_LIMIT = 600  # per client and minute: GERBIL sends its questions back to back


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``serve`` and ``kg-serve`` to the CLI."""

    p = sub.add_parser("serve", help="run the web API (QAnswer /api/qa/full, GERBIL /gerbil, /health)")
    p.add_argument("--host", dest="host", help="address to bind (default: setting host, 127.0.0.1)")
    p.add_argument("--port", dest="serve_port", type=port_number,
                   help=f"port to bind (default: setting serve_port, {DEFAULT_SERVE_PORT})")
    p.add_argument("--no-validator", dest="no_validator", action="store_true", help="take the top candidate")
    p.add_argument("--log-path", dest="log_path", help="SQLite session log for /gerbil turns (setting log_path)")
    p.add_argument("--rate-limit", dest="api_rate_limit", type=non_negative_int, default=DEFAULT_API_RATE_LIMIT,
                   help=f"requests per client and minute, 0 = off (default {DEFAULT_API_RATE_LIMIT})")
    p.add_argument("--allowed-hosts", dest="allowed_hosts",
                   help="comma-separated Host names served, * for any (default: setting allowed_hosts, else "
                        "localhost and the bound address)")
    p.add_argument("--workers", type=non_negative_int, default=MAX_CONCURRENT_QUESTIONS, metavar="N",
                   help=f"worker processes answering questions (default {MAX_CONCURRENT_QUESTIONS}; 0: in this "
                        "process, without deadlines that stop a stuck query)")
    add_common(p)
    p.set_defaults(func=run_serve)

    k = sub.add_parser("kg-serve", help="serve the built KG store as a SPARQL endpoint, every query bounded")
    k.add_argument("--host", dest="host", help="address to bind (default: setting host, 127.0.0.1)")
    k.add_argument("--port", dest="kg_port", type=port_number, default=DEFAULT_KG_PORT,
                   help=f"port to bind (default {DEFAULT_KG_PORT}); the query URL is http://HOST:PORT/query")
    k.add_argument("--no-name-keys", dest="name_keys", action="store_false",
                   help="serve the KG alone, without the label index's name keys (kg/name_keys.py)")
    k.add_argument("--workers", dest="kg_workers", type=non_negative_int, default=2, metavar="N",
                   help="query worker processes (default 2); each query runs in one, bounded in time (setting "
                        "timeout_s) and memory, without network")
    k.add_argument("--memory-mib", dest="kg_memory_mib", type=non_negative_int, default=DEFAULT_MEMORY_BYTES >> 20,
                   help=f"memory one query may use, MiB (default {DEFAULT_MEMORY_BYTES >> 20})")
    k.add_argument("--oxigraph", action="store_true",
                   help="run oxigraph serve-read-only itself instead: no memory bound, no hard timeout, SERVICE "
                        "calls out, and GET /store dumps every quad")
    add_common(k)
    k.set_defaults(func=run_kg_serve)


def run_serve(args: argparse.Namespace) -> int:
    """Check the settings and files, assemble the pipeline and serve the API until
    interrupted.  Exit status 2, with one line on stderr, when a setting is bad, a file is
    missing, or the workers cannot load (a corrupt model or cache): before or instead of
    serving."""

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    settings = settings_from_args(args)
    try:
        check_start(settings)
        session_log = SessionLog(settings.log_path)
        # workers: started from this (main) thread, loading in the background
        pipeline: Pipeline | WorkerPipeline = (WorkerPipeline(settings, args.workers, wait=False, early=True)
                                               if args.workers > 0 else build_warm_pipeline(settings))
    except (KGSourceError, ModelLoadError, SessionLogError, KGUnavailable) as exc:
        return start_error("serve", exc, VALIDATOR_HINT if isinstance(exc, ModelLoadError) else "")
    limiter = ClientLimiter(RateLimiter(args.api_rate_limit), settings.trusted_proxies)
    app = create_app(pipeline, kb=settings.qanswer_kb, rate_limiter=limiter, session_log=session_log,
                     max_concurrent=max(1, args.workers),
                     allowed_hosts=allowed_host_names(settings.allowed_hosts, settings.host))
    print(f"kgqa serve: backend={pipeline.backend.name} validator={pipeline.validator_state} "
          f"on http://{settings.host}:{settings.serve_port}"
          + (f" ({args.workers} worker processes)" if args.workers > 0 else ""), file=sys.stderr)
    failed = threading.Event()
    if isinstance(pipeline, WorkerPipeline):
        threading.Thread(target=_stop_when_loading_fails, args=(pipeline, failed), daemon=True,
                         name="kgqa-serve-watch").start()
    try:
        serve(app, settings.host, settings.serve_port, until=failed)
    finally:
        if isinstance(pipeline, WorkerPipeline):
            pipeline.close()
    if failed.is_set() and isinstance(pipeline, WorkerPipeline):
        error = pipeline.start_error or WorkerStartError(pipeline.failure or "the workers could not start")
        return start_error("serve", error, VALIDATOR_HINT if isinstance(error, ModelLoadError) else "")
    return 0


def _stop_when_loading_fails(pool: WorkerPipeline, failed: threading.Event) -> None:
    """Set ``failed`` (which stops the server) when the workers' pipeline cannot load: a
    service that cannot answer does not pretend to run."""
    pool.wait_ready()
    if pool.failure is not None:
        failed.set()


def run_kg_serve(args: argparse.Namespace) -> int:
    """Build the store if needed, then serve it and its name keys
    (:func:`kg.name_keys.served_store`; ``--no-name-keys``: the store alone) as a SPARQL
    endpoint whose every query runs bounded (:func:`service.kgserve.create_sparql_app`);
    ``--oxigraph``: replace this process with ``oxigraph serve-read-only`` instead (no
    bounds, and its ``GET /store`` dump)."""

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    settings = settings_from_args(args)
    try:
        paths = kg_paths(check_source(settings.kg_source), settings.cache_dir)
        if not paths.is_built() or args.name_keys:
            paths = build_kg(settings.kg_source, settings.cache_dir, progress=True)
        store = served_store(paths) if args.name_keys else paths.store
        cmd = oxigraph_command(store, settings.host, args.kg_port, timeout_s=settings.timeout_s) if args.oxigraph \
            else []
    except (KGSourceError, KGUnavailable) as exc:
        print(f"kgqa kg-serve: error: {exc}", file=sys.stderr)
        return 2
    print(f"kgqa kg-serve: SPARQL endpoint at {query_url(settings.host, args.kg_port)} "
          f"(use --kg-endpoint {query_url(settings.host, args.kg_port)} or KGQA_KG_ENDPOINT)"
          + (" - oxigraph serve-read-only, unbounded, GET /store dumps the store" if args.oxigraph else
             f" - each query bounded: {settings.timeout_s:g}s, {args.kg_memory_mib} MiB, no network"),
          file=sys.stderr)
    sys.stderr.flush()
    sys.stdout.flush()
    if args.oxigraph:
        os.execv(cmd[0], cmd)
    app = create_sparql_app(store, timeout_s=settings.timeout_s, memory_bytes=args.kg_memory_mib << 20,
                            workers=max(1, args.kg_workers))
    serve(app, settings.host, args.kg_port)  # type: ignore[arg-type]
    return 0
