"""A query worker: one process that runs SPARQL queries on the embedded store, read-only,
with a memory limit and no network; :class:`kg.bounded.BoundedStore` starts, feeds and
kills it.

It is a script of its own (the standard library and pyoxigraph only, run with ``python -I``)
so that it starts fast and holds nothing of the parent.  At start it

1. limits its memory (``RLIMIT_DATA``, and ``RLIMIT_AS`` at a multiple of it): an
   allocation past the limit fails, and the process ends instead of the machine's memory;
2. installs a seccomp filter that refuses ``socket()`` for the Internet and packet
   families (and io_uring): Oxigraph's ``SERVICE`` client cannot reach any address, even
   for a query the guard never saw;
3. opens the store read-only and says ``{"ready": true, "no_network": …}``.

Then it reads one JSON request a line (``{"sparql": …, "max_rows": …}``) on stdin and writes
one JSON reply a line on stdout: ``{"vars": […], "rows": [[term or null, …], …]}``,
``{"boolean": …}`` or ``{"error": "syntax" | "query" | "memory", "detail": …}``; a term is
``[kind, value, datatype, lang]``.  It exits when stdin closes (its parent is gone).
"""

from __future__ import annotations

import ctypes
import json
import platform
import resource
import struct
import sys

ROW_CAP = 100_000
"""Rows sent back at most for a query without ``max_rows``."""

_ARCH = {"x86_64": (0xC000003E, 41, 425), "aarch64": (0xC00000B7, 198, 425)}
"""Machine -> (audit arch, ``socket`` syscall number, ``io_uring_setup`` number)."""
_REFUSED_FAMILIES = (2, 10, 17)  # AF_INET, AF_INET6, AF_PACKET


def _insn(code: int, jt: int, jf: int, k: int) -> bytes:
    return struct.pack("HBBI", code, jt, jf, k)


def refuse_network() -> bool:
    """Install the seccomp filter; ``False`` where this machine or kernel does not allow it."""
    arch = _ARCH.get(platform.machine())
    if arch is None or not sys.platform.startswith("linux"):
        return False
    audit_arch, socket_nr, uring_nr = arch
    ld, jeq, jge, ret = 0x20, 0x15, 0x35, 0x06
    allow, refuse = 0x7FFF0000, 0x00050000 | 13  # SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO | EACCES
    program = [
        _insn(ld, 0, 0, 4), _insn(jeq, 1, 0, audit_arch), _insn(ret, 0, 0, refuse),  # another ABI: refused
        _insn(ld, 0, 0, 0),
        _insn(jge, 0, 1, 0x40000000), _insn(ret, 0, 0, refuse),  # the x32 ABI: refused outright
        _insn(jeq, 0, 1, uring_nr), _insn(ret, 0, 0, refuse),
        _insn(jeq, 0, 5, socket_nr),
        _insn(ld, 0, 0, 16),  # socket()'s first argument: the address family
        _insn(jeq, 2, 0, _REFUSED_FAMILIES[0]), _insn(jeq, 1, 0, _REFUSED_FAMILIES[1]),
        _insn(jeq, 0, 1, _REFUSED_FAMILIES[2]),
        _insn(ret, 0, 0, refuse),
        _insn(ret, 0, 0, allow),
    ]
    code = b"".join(program)
    buffer = ctypes.create_string_buffer(code, len(code))

    class _Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    fprog = _Program(len(program), ctypes.cast(buffer, ctypes.c_void_p))
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS
        return False
    return libc.prctl(22, 2, ctypes.byref(fprog), 0, 0) == 0  # PR_SET_SECCOMP, SECCOMP_MODE_FILTER


ADDRESS_SPACE_FACTOR = 3
"""The address space may be this many times the data limit: the store's files are mapped
(not allocated), and threads reserve address space they never use."""


def limit_memory(max_bytes: int) -> None:
    """Cap what the process allocates (``RLIMIT_DATA``: heap and private mappings) at
    ``max_bytes`` and its whole address space (``RLIMIT_AS``) at
    :data:`ADDRESS_SPACE_FACTOR` times that, never above a hard limit already set."""
    for limit, cap in ((resource.RLIMIT_DATA, max_bytes), (resource.RLIMIT_AS, max_bytes * ADDRESS_SPACE_FACTOR)):
        _, hard = resource.getrlimit(limit)
        resource.setrlimit(limit, (cap if hard == resource.RLIM_INFINITY else min(cap, hard), hard))


def _term(node: object) -> list[str | None]:
    import pyoxigraph

    if isinstance(node, pyoxigraph.NamedNode):
        return ["uri", node.value, None, None]
    if isinstance(node, pyoxigraph.Literal):
        lang = node.language
        return ["literal", node.value, None if lang else node.datatype.value, lang]
    if isinstance(node, pyoxigraph.BlankNode):
        return ["bnode", node.value, None, None]
    return ["literal", str(node), None, None]


def run(store: object, request: dict) -> dict:
    """One request's reply."""
    import pyoxigraph

    try:
        result = store.query(request["sparql"])  # type: ignore[attr-defined]
        if isinstance(result, pyoxigraph.QueryBoolean):
            return {"boolean": bool(result)}
        names = [v.value for v in result.variables]
        cap = request.get("max_rows") or ROW_CAP
        rows: list[list[list[str | None] | None]] = []
        for solution in result:
            rows.append([None if solution[n] is None else _term(solution[n]) for n in names])
            if len(rows) >= cap:
                break
        return {"vars": names, "rows": rows}
    except SyntaxError as exc:
        return {"error": "syntax", "detail": str(exc)[:500]}
    except MemoryError:
        return {"error": "memory", "detail": "the query ran past the memory limit"}
    except OSError as exc:
        return {"error": "query", "detail": str(exc)[:500]}


def main(argv: list[str]) -> int:
    store_dir, max_bytes = argv[0], int(argv[1])
    no_network = refuse_network()
    limit_memory(max_bytes)
    import pyoxigraph

    store = pyoxigraph.Store.read_only(store_dir)
    out = sys.stdout.buffer
    out.write(json.dumps({"ready": True, "no_network": no_network}).encode() + b"\n")
    out.flush()
    for line in sys.stdin.buffer:
        try:
            reply = run(store, json.loads(line))
        except MemoryError:
            reply = {"error": "memory", "detail": "the query ran past the memory limit"}
        out.write(json.dumps(reply).encode() + b"\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
