"""Oracle analysis of the local generator: how much recall@10 is reachable at all, and why
each answerable question string that misses it fails.

For every answerable question of ``../shared/data/bench`` the oracle enumerates, from each of
the question's gold entities that the KG holds, every query the generator's simple shapes
could build and keeps those whose answers equal the gold exactly (F1 = 1):

* ``fwd`` / ``bwd``: ``wd:E wdt:P ?answer`` / ``?answer wdt:P wd:E``;
* ``typed``: a 1-hop set narrowed by one ``P31`` class of its answers;
* ``pair``: the intersection of two entities' 1-hop sets;
* ``2hop``: ``wd:E wdt:P1 ?x . ?x wdt:P2 ?answer``.

(The shapes of ``backends/local/complex.py`` - counts, superlatives, ... - are not enumerated; a
string they answer counts as a hit.)  An entity is *named* when it has any ``rdfs:label`` or
``skos:altLabel``; a gold reachable only from unnamed entities cannot be linked by any linker.

Each string that misses r@10 is then put in the first class that applies:

1. ``no shape``: no simple shape reproduces the gold from any question entity
   (``subset`` when the gold is a strict subset of some 1-hop set: it needs a constraint the
   question states in words - "first", "not elected", a year -, else ``other``);
2. ``unnamed``: the gold is reachable, but only from entities without any name;
3. ``link miss``: a reachable named entity is not among the generator's anchors
   (``linked`` when the linker found it but below the anchor cut, else ``not linked``);
4. ``complex merge``: the simple generator ranks an exact query in its top ten, but the
   merge with the complex shapes (``backends/local/complex.py``) drops it or pushes it down - by
   design when the question's form (comparative, superlative, yes/no, count) fixes the answer
   form and a plain lookup would answer another question;
5. ``ranked 11-60``: an exact candidate is generated at rank 11-60 (ranking);
6. ``beyond 60``: generated, but ranked below the 60-candidate cap;
7. ``not generated``: the entity was anchored but the expansion that would build the exact
   query was not tried (expansion limits) or the simple generator's property was not adjacent.

"ceiling" is the share whose gold some simple shape reproduces from a named entity (what a
perfect linker and ranker over these shapes would reach); "untyped" leaves out golds only a
``typed`` query reproduces (its class is any class the gold answers share - for Mintaka it is
mostly a coincidence of the KG, not a constraint the question states).
Figures are shares of question strings and, "per question", each question weighted once
(its strings averaged), overall, per source and per language (Mintaka's nine languages).
Reads the bench files at run time; writes nothing unless ``--json`` is given.

    .venv/bin/python benchmarks/backend_ceiling.py [--split test] [--limit N] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from backends.local.shapes import backward, forward, intersect, select, two_hop, typed
from core.errors import KGError
from core.settings import DEFAULT_BENCH_DIR
from evaluation.answers import normalize_term
from kg.sparql import WDT, entity_iri, local_id, short
from training.ranker import BenchItem, _backend, bench_items, f1_sparql

MAX_IN_ROWS = 200_000  # incoming rows read per entity (hub classes such as "human" are larger)
MAX_TYPED_SET = 20_000  # 1-hop sets narrowed by a class only up to this size
MAX_MIDS = 200  # 2-hop: first hops with at most this many intermediate nodes
CLASSES = ("hit", "no shape: subset", "no shape: other", "unnamed", "link miss: linked", "link miss: not linked",
           "complex merge", "ranked 11-60", "beyond 60", "not generated")


@dataclass
class Oracle:
    """The exact queries the simple shapes can build for one question."""

    exact: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # shape -> sparqls
    entities: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # entity -> shapes
    subset: bool = False  # the gold is a strict subset of some 1-hop set
    named: dict[str, bool] = field(default_factory=dict)

    @property
    def reachable(self) -> bool:
        return bool(self.entities)

    @property
    def reachable_named(self) -> set[str]:
        return {e for e in self.entities if self.named.get(e)}

    @property
    def reachable_untyped(self) -> bool:
        """Reachable from a named entity by a shape other than ``typed`` (whose class is any
        class the gold answers share, often not one the question asks for)."""
        return any(self.named.get(e) and shapes - {"typed"} for e, shapes in self.entities.items())

    def sparqls(self) -> set[str]:
        return {s for v in self.exact.values() for s in v}


def _rows(kg, sparql: str, max_rows: int) -> list[dict]:
    try:
        return kg.query(sparql, timeout_s=30.0, max_rows=max_rows).rows
    except KGError as exc:
        print(f"  query failed ({exc}): {sparql[:120]}", file=sys.stderr)
        return []


def _one_hop_sets(kg, qid: str, *, outgoing: bool) -> dict[str, tuple[set[str], set[str]]]:
    """``{pid: (normalized answers, raw QIDs)}`` of every property at ``qid`` in one direction."""
    node = short(entity_iri(qid))
    pattern = f"{node} ?p ?v ." if outgoing else f"?v ?p {node} ."
    out: dict[str, tuple[set[str], set[str]]] = {}
    for row in _rows(kg, f"SELECT ?p ?v WHERE {{ {pattern} }}", MAX_IN_ROWS):
        p, v = row.get("p"), row.get("v")
        if p is None or v is None or not p.value.startswith(WDT) or v.kind == "bnode":
            continue
        norm, qids = out.setdefault(p.value[len(WDT):], (set(), set()))
        norm.add(normalize_term(v))
        if v.kind == "uri":
            qids.add(local_id(v.value) or v.value)
    return out


def oracle(backend, item: BenchItem) -> Oracle:
    """Every exact simple-shape query for ``item``'s gold from its entities."""
    kg, gold = backend.kg, set(item.gold)
    stats = backend.index.entity_stats(item.entities)
    orc = Oracle(named={e: stats[e].names > 0 for e in item.entities if e in stats})
    supersets: list[tuple[str, list, set[str]]] = []  # (entity, triples, answers) with gold inside
    for e in item.entities:
        if e not in stats:
            continue
        for outgoing in (True, False):
            for pid, (answers, qids) in _one_hop_sets(kg, e, outgoing=outgoing).items():
                triples = forward(e, pid) if outgoing else backward(e, pid)
                if answers == gold:
                    orc.exact["fwd" if outgoing else "bwd"].add(select(triples))
                    orc.entities[e].add("1hop")
                elif gold < answers:
                    orc.subset = True
                    supersets.append((e, triples, answers))
                    if len(answers) <= MAX_TYPED_SET and answers == qids:
                        _typed(backend, e, triples, qids, gold, orc)
        _two_hops(kg, e, gold, orc)
    for i, (ea, ta, sa) in enumerate(supersets):
        for eb, tb, sb in supersets[i + 1:]:
            if ea != eb and sa & sb == gold:
                orc.exact["pair"].update({select(intersect(ta, tb)), select(intersect(tb, ta))})
                orc.entities[ea].add("pair")
                orc.entities[eb].add("pair")
    return orc


def _typed(backend, e: str, triples: list, answers: set[str], gold: set[str], orc: Oracle) -> None:
    classes = backend.index.classes_of(answers)
    wanted = set.intersection(*(set(classes.get(g, ())) for g in gold)) if gold else set()
    for cls in wanted:
        if {a for a in answers if cls in classes.get(a, ())} == gold:
            orc.exact["typed"].add(select(typed(triples, cls)))
            orc.entities[e].add("typed")


def _two_hops(kg, e: str, gold: set[str], orc: Oracle) -> None:
    for pid, (_answers, mids) in _one_hop_sets(kg, e, outgoing=True).items():
        if not mids or len(mids) > MAX_MIDS:
            continue
        values = " ".join(short(entity_iri(m)) for m in sorted(mids))
        sets: dict[str, set[str]] = defaultdict(set)
        for row in _rows(kg, f"SELECT ?p ?v WHERE {{ VALUES ?x {{ {values} }} ?x ?p ?v . }}", MAX_IN_ROWS):
            p, v = row.get("p"), row.get("v")
            if p is not None and v is not None and p.value.startswith(WDT) and v.kind != "bnode":
                sets[p.value[len(WDT):]].add(normalize_term(v))
        for p2, answers in sets.items():
            if answers == gold:
                orc.exact["2hop"].add(select(two_hop(e, pid, p2)))
                orc.entities[e].add("2hop")


def classify(backend, item: BenchItem, orc: Oracle, cache: dict[str, bool]) -> tuple[str, int | None]:
    """The failure class of one string (``hit`` for r@10) and the rank of its first exact candidate."""
    cands = backend.ask(item.text, item.lang)
    rank = None
    for r, c in enumerate(cands):
        if c.sparql not in cache:
            cache[c.sparql] = f1_sparql(backend.kg, c.sparql, item.gold) >= 0.999
        if cache[c.sparql]:
            rank = r + 1
            break
    if rank is not None and rank <= 10:
        return "hit", rank
    if not orc.reachable:
        return ("no shape: subset" if orc.subset else "no shape: other"), rank
    named = orc.reachable_named
    if not named:
        return "unnamed", rank
    q = backend._analyze(item.text, item.lang, None)
    anchors = {m.qid for m in q.mentions}
    if not named & anchors:
        linked = {m.qid for m in backend.linker.link(item.text, item.lang, limit=200)}
        return ("link miss: linked" if named & linked else "link miss: not linked"), rank
    exact = orc.sparqls()
    for r, g in enumerate(backend.generate(item.text, item.lang)):
        if g.sparql in exact or (rank is not None and r + 1 == rank):
            if r < 10:
                return "complex merge", r + 1
            return ("ranked 11-60" if r < 60 else "beyond 60"), r + 1
    return ("ranked 11-60" if rank is not None else "not generated"), rank


def _table(records: Sequence[dict], key: str, title: str) -> None:
    groups: dict[str, list[dict]] = defaultdict(list)
    for r in records:
        groups["all"].append(r)
        groups[r[key]].append(r)
    print(f"\n== {title}: share of question strings")
    head = "".join(f"{c[:14]:>15}" for c in CLASSES)
    print(f"{'group':<12}{'n':>6}{head}{'ceiling':>10}{'untyped':>10}")
    for name in sorted(groups, key=lambda g: (g != "all", g)):
        rs = groups[name]
        counts = Counter(r["class"] for r in rs)
        cells = "".join(f"{100 * counts[c] / len(rs):14.1f}%" for c in CLASSES)
        ceiling = sum(r["reachable_named"] for r in rs) / len(rs)
        untyped = sum(r["reachable_untyped"] for r in rs) / len(rs)
        print(f"{name:<12}{len(rs):>6}{cells}{100 * ceiling:9.1f}%{100 * untyped:9.1f}%")


def _per_question(records: Sequence[dict]) -> None:
    by_source: dict[str, dict[str, list[dict]]] = defaultdict(lambda: defaultdict(list))
    for r in records:
        by_source["all"][r["id"]].append(r)
        by_source[r["source"]][r["id"]].append(r)
    print("\n== per question (each question once, its strings averaged)")
    print(f"{'source':<12}{'n':>6}{''.join(f'{c[:14]:>15}' for c in CLASSES)}{'ceiling':>10}{'untyped':>10}")
    for source in sorted(by_source, key=lambda s: (s != "all", s)):
        qs = by_source[source]
        share = {c: statistics.mean(statistics.mean(x["class"] == c for x in rs) for rs in qs.values())
                 for c in CLASSES}
        ceiling = statistics.mean(statistics.mean(x["reachable_named"] for x in rs) for rs in qs.values())
        untyped = statistics.mean(statistics.mean(x["reachable_untyped"] for x in rs) for rs in qs.values())
        print(f"{source:<12}{len(qs):>6}{''.join(f'{100 * share[c]:14.1f}%' for c in CLASSES)}"
              f"{100 * ceiling:9.1f}%{100 * untyped:9.1f}%")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the oracle analysis and print the breakdown."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench", type=Path, default=DEFAULT_BENCH_DIR)
    ap.add_argument("--cache-dir", type=Path, default=None)
    ap.add_argument("--split", choices=["train", "dev", "test"], help="only this split")
    ap.add_argument("--source", help="only this source (sqwd, wwq, rubq1, mintaka)")
    ap.add_argument("--limit", type=int, default=0, help="every k-th question only (quick runs)")
    ap.add_argument("--json", type=Path, help="write per-string records here (not for the repository)")
    args = ap.parse_args(argv)
    backend, _ = _backend(args.cache_dir)
    items = [i for i in bench_items(args.bench) if (not args.split or i.split == args.split)
             and (not args.source or i.source == args.source)]
    by_q: dict[str, list[BenchItem]] = defaultdict(list)
    for item in items:
        by_q[item.qid].append(item)
    qids = sorted(by_q)
    if args.limit:
        qids = qids[::max(1, len(qids) // args.limit)]
    records = []
    started = time.monotonic()
    for i, qid in enumerate(qids):
        orc = oracle(backend, by_q[qid][0])
        cache: dict[str, bool] = {}
        for item in by_q[qid]:
            cls, rank = classify(backend, item, orc, cache)
            records.append({"id": qid, "source": item.source, "lang": item.lang, "split": item.split,
                            "class": cls, "rank": rank, "reachable": orc.reachable,
                            "reachable_named": bool(orc.reachable_named),
                            "reachable_untyped": orc.reachable_untyped,
                            "shapes": sorted(orc.exact), "subset": orc.subset})
        if (i + 1) % 100 == 0:
            print(f"  {i + 1}/{len(qids)} questions ({time.monotonic() - started:.0f}s)", file=sys.stderr)
    shapes = Counter(s for qid in {r["id"]: r for r in records}.values() for s in qid["shapes"])
    print(f"{len(qids)} questions, {len(records)} strings; questions with an exact query per shape: "
          + ", ".join(f"{k} {v}" for k, v in sorted(shapes.items())))
    _per_question(records)
    _table(records, "source", "per source")
    _table([r for r in records if r["source"] == "mintaka"], "lang", "Mintaka per language")
    if args.json:
        args.json.write_text(json.dumps(records, ensure_ascii=False, indent=0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
