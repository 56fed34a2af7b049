"""Peak memory of hostile replies (issue 44, cases 1 and 8): ``python benchmarks/reply_bombs.py
[--old-mib N]``.  Each case runs in a fresh Python process (its peak resident memory,
``ru_maxrss``, is the figure) against a fake endpoint on 127.0.0.1 serving:

* a gzip bomb (1 GiB of zeros, about 1 MiB on the wire), ``Content-Encoding: gzip``;
* gzip in gzip (``Content-Encoding: gzip, gzip``, 1 GiB inside) and a brotli reply;
* 8 MiB of SPARQL-JSON rows (the start-up reads' worst case), read once, and read as the
  endpoint index's start-up read of property labels (``startup``: 13 such replies, four
  requests at once).

Each is read by the product's client (``kg.client.RemoteKG``: decoding capped while it
arrives, one reply schema) and, for comparison, by the old way: httpx's own decoding
(``iter_bytes``, every coding it knows, checked against the cap after each decoded
chunk) and ``json.loads`` with rows made from the whole parse.  The old way gets a
smaller bomb (``--old-mib``, 256 by default: its peak grows with it, the way 1,827 bytes
took ``kgqa ask`` to 9.7 GB) so that the machine survives it."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CHILD = r"""
import json, resource, sys, time, zlib, gzip
sys.path.insert(0, {root!r})
import httpx
from tests.service.faulty_http import Reply, ScriptedServer
case, way, mib = sys.argv[1], sys.argv[2], int(sys.argv[3])
def bomb(n, wbits=16 + zlib.MAX_WBITS):
    out = zlib.compressobj(9, zlib.DEFLATED, wbits)
    return b"".join(out.compress(bytes(1 << 20)) for _ in range(n)) + out.flush()
if case == "gzip":
    body, enc = bomb(mib), "gzip"
elif case == "gzip-in-gzip":
    body, enc = gzip.compress(bomb(mib)), "gzip, gzip"
elif case == "brotli":
    import brotli
    body, enc = brotli.compress(bytes(mib << 20), quality=5), "br"
else:
    rows = [{{"s": {{"type": "uri", "value": "http://www.wikidata.org/entity/P%d" % i}},
              "k": {{"type": "uri", "value": "http://www.w3.org/2000/01/rdf-schema#label"}},
              "l": {{"type": "literal", "value": "l%d" % i, "xml:lang": "en"}}}} for i in range(40000)]
    body, enc = json.dumps({{"head": {{"vars": ["s", "k", "l"]}}, "results": {{"bindings": rows}}}}).encode(), None
    body = body[:8 * 1024 * 1024 - 200].rsplit(b"}}, {{", 1)[0] + b"}}]}}}}"
headers = {{"Content-Type": "application/sparql-results+json", **({{"Content-Encoding": enc}} if enc else {{}})}}
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
with ScriptedServer(lambda _r: Reply(200, body, headers)) as srv:
    started = time.monotonic()
    outcome = ""
    if case == "startup":
        from kg.client import RemoteKG
        from kg.endpoint import EndpointIndex, EndpointProfile
        url = srv.url + "/query"
        index = EndpointIndex(RemoteKG(url, timeout_s=120, retries=0), EndpointProfile("endpoint", url,
                              name_keys=False), startup_timeout_s=300)
        outcome = "%d properties labelled from %d replies" % (len(index.property_labels()), len(srv.requests))
    elif way == "product":
        from kg.client import RemoteKG
        try:
            result = RemoteKG(srv.url + "/query", timeout_s=120, retries=0).query("SELECT * {{}}")
            outcome = "%d rows" % len(result.rows)
        except Exception as exc:
            outcome = type(exc).__name__ + ": " + str(exc)[-60:]
    else:
        from kg.client import Term
        cap, size, parts = 8 * 1024 * 1024, 0, []
        with httpx.Client(timeout=120) as client, client.stream("POST", srv.url + "/query") as r:
            for chunk in r.iter_bytes():
                size += len(chunk)
                if size > cap:
                    outcome = "cut at the cap after decoding a chunk of %d bytes" % len(chunk)
                    break
                parts.append(chunk)
        if not outcome:
            data = json.loads(b"".join(parts))
            rows = [{{k: Term(v["type"], v["value"], v.get("datatype"), v.get("xml:lang")) for k, v in b.items()}}
                    for b in data["results"]["bindings"]]
            outcome = "%d rows" % len(rows)
    spent = time.monotonic() - started
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({{"wire": len(body), "peak_mib": peak / 1024, "added_mib": (peak - base) / 1024,
                  "seconds": spent, "outcome": outcome}}))
"""


def run(case: str, way: str, mib: int, root: Path = ROOT) -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD.format(root=str(root)), case, way, str(mib)],
                          capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        return {"wire": 0, "peak_mib": 0, "added_mib": 0, "seconds": 0,
                "outcome": f"exit {done.returncode}: {done.stderr.strip().splitlines()[-1][:80]}"}
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mib", type=int, default=1024, help="decoded size of the bombs the product reads")
    parser.add_argument("--old-mib", type=int, default=256, help="decoded size of the bombs the old way reads")
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="the checkout whose client is measured (an older one: `git archive REV | tar -x -C DIR`)")
    args = parser.parse_args()
    print(f"{'case':<14} {'way':<8} {'decoded':>8} {'wire':>9} {'peak RSS':>9} {'added':>8} {'time':>6}  outcome")
    for case in ("gzip", "gzip-in-gzip", "brotli", "rows-8mib", "startup"):
        for way, mib in (("product", args.mib), ("old", args.old_mib)):
            if case == "startup" and way == "old":
                continue
            got = run(case, way, mib, args.root)
            size = "-" if case in ("rows-8mib", "startup") else f"{mib} MiB"
            print(f"{case:<14} {way:<8} {size:>8} {got['wire']:>9} {got['peak_mib']:>7.0f} M "
                  f"{got['added_mib']:>6.0f} M {got['seconds']:>5.1f}s  {got['outcome']}")


if __name__ == "__main__":
    main()
