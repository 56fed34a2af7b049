"""Serve the built embedded store as a SPARQL endpoint.

``kgqa kg-serve`` serves it through :func:`create_sparql_app`: every query runs in the
embedded store's query workers (:class:`kg.bounded.BoundedStore`: a process each, a
memory limit, a deadline past which the worker is killed, and a seccomp filter that
refuses Internet sockets, so a ``SERVICE`` clause reaches nobody), behind the API's
uvicorn configuration (header deadline, per-client waiting connections).  It serves
``/query`` only: no ``/store`` dump, no updates.  ``kgqa kg-serve --oxigraph`` asks for
``oxigraph serve-read-only`` itself instead (unbounded, with its ``GET /store`` dump): tests
and benchmarks use that one (:func:`start_oxigraph`) as a real third-party endpoint.
The endpoint's query URL is ``http://HOST:PORT/query``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import parse_qs

import httpx
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from core.errors import KGError, KGQueryError, KGSourceError, KGTimeout, KGUnavailable
from kg.bounded import DEFAULT_MEMORY_BYTES, BoundedStore
from kg.client import QueryResult

SPARQL_JSON = "application/sparql-results+json"
MAX_QUERY_BYTES = 256 * 1024
"""The longest query text accepted (the endpoint index's longest read is about 1 MiB of
``VALUES`` only when a question is huge; the client bounds what one question sends)."""


def oxigraph_binary() -> Path:
    """The ``oxigraph`` CLI (from the ``oxigraph`` PyPI package) beside this Python, else on PATH."""
    beside = Path(sys.executable).parent / "oxigraph"
    if beside.is_file():
        return beside
    found = shutil.which("oxigraph")
    if found is None:
        raise KGUnavailable("the `oxigraph` command is not installed (pip install oxigraph)")
    return Path(found)


def oxigraph_command(store_dir: Path, host: str = "127.0.0.1", port: int = 7878,
                     timeout_s: float | None = None) -> list[str]:
    """The command line that serves ``store_dir`` read-only on ``host:port``."""
    if not (Path(store_dir).is_dir()):
        raise KGSourceError(store_dir, "store is not built; run `kgqa build-kg`")
    cmd = [str(oxigraph_binary()), "serve-read-only", "--location", str(store_dir), "--bind", f"{host}:{port}"]
    if timeout_s:
        cmd += ["--timeout-s", str(max(1, round(timeout_s)))]
    return cmd


def query_url(host: str, port: int) -> str:
    """The SPARQL query URL of an oxigraph server."""
    return f"http://{host}:{port}/query"


def wait_ready(url: str, timeout_s: float = 30.0, process: subprocess.Popen | None = None) -> None:
    """Block until ``url`` answers a trivial ASK query; raise :class:`KGUnavailable` if it never does."""
    deadline = time.monotonic() + timeout_s
    last: Exception | None = None
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise KGUnavailable(f"oxigraph exited with status {process.returncode} before serving {url}")
        try:
            response = httpx.post(url, data={"query": "ASK {}"}, timeout=1.0,
                                  headers={"Accept": "application/sparql-results+json"})
            if response.status_code == 200:
                return
        except httpx.HTTPError as exc:
            last = exc
        time.sleep(0.1)
    raise KGUnavailable(f"{url} did not come up within {timeout_s:g}s: {last}")


def start_oxigraph(store_dir: Path, host: str = "127.0.0.1", port: int = 7878,
                   ready_timeout_s: float = 30.0) -> subprocess.Popen:
    """Start ``oxigraph serve-read-only`` in the background and wait until it answers."""
    process = subprocess.Popen(oxigraph_command(store_dir, host, port), stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        wait_ready(query_url(host, port), ready_timeout_s, process)
    except BaseException:
        process.kill()
        process.wait()
        raise
    return process


def create_sparql_app(store_dir: Path, *, timeout_s: float = 10.0, memory_bytes: int = DEFAULT_MEMORY_BYTES,
                      workers: int = 2, max_query_bytes: int = MAX_QUERY_BYTES) -> Starlette:
    """A SPARQL 1.1 protocol endpoint (``GET /query?query=``, ``POST /query`` form-encoded or
    ``application/sparql-query``; SPARQL-JSON results) over the store at ``store_dir``, every
    query in a :class:`BoundedStore` (``workers`` processes, ``memory_bytes`` each, killed
    past ``timeout_s``, no network)."""
    pool = BoundedStore(Path(store_dir), memory_bytes=memory_bytes, workers=workers)

    async def query(request: Request) -> Response:
        try:
            text = await _query_text(request, max_query_bytes)
        except ClientDisconnect:
            return _fail(400, "the request body did not arrive")
        except _TooLong:
            text = None
            too_long = True
        else:
            too_long = text is not None and len(text.encode()) > max_query_bytes
        if too_long:
            return _fail(413, f"query longer than {max_query_bytes} bytes")
        if text is None:
            return _fail(400, "no query (give ?query= or a form field 'query')")
        try:
            result = await run_in_threadpool(lambda: pool.query(text, timeout_s=timeout_s))
        except KGTimeout as exc:
            return _fail(503, f"query timeout: {exc}")  # "timeout" in the text: clients read it so
        except KGQueryError as exc:
            return _fail(400, str(exc))
        except KGError as exc:
            return _fail(503, str(exc))
        return JSONResponse(sparql_json(result), media_type=SPARQL_JSON)

    async def health(_request: Request) -> Response:
        return JSONResponse({"status": "ok"})

    app = Starlette(routes=[Route("/query", query, methods=["GET", "POST"]), Route("/health", health)])
    app.state.pool = pool
    return app


class _TooLong(Exception):
    """A request body past what any accepted query could take."""


async def _query_text(request: Request, limit: int) -> str | None:
    if request.method == "GET":
        return request.query_params.get("query")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit * 3:  # form-encoded text is up to three times longer
            raise _TooLong
    kind = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if kind == "application/sparql-query":
        return body.decode("utf-8", errors="replace")
    found = parse_qs(body.decode("utf-8", errors="replace")).get("query")
    return found[0] if found else request.query_params.get("query")


def _fail(status: int, detail: str) -> Response:
    return Response(detail[:500] + "\n", status_code=status, media_type="text/plain")


def sparql_json(result: QueryResult) -> dict:
    """``result`` as SPARQL 1.1 Query Results JSON."""
    if result.boolean is not None:
        return {"head": {}, "boolean": result.boolean}
    return {"head": {"vars": result.vars},
            "results": {"bindings": [{k: t.to_json() for k, t in row.items()} for row in result.rows]}}
