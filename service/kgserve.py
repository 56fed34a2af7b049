"""Serve the built embedded store as a SPARQL endpoint with ``oxigraph serve-read-only``.

``kgqa kg-serve`` uses this; so do tests and benchmarks that need a real endpoint.
The endpoint's query URL is ``http://HOST:PORT/query``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import httpx

from core.errors import KGSourceError, KGUnavailable


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
