"""Print the import graph between the project's top-level folders: the arrows, the ones
that run upward (against ``FLOORS``), import circles between modules, and imports made
inside functions.  ``python scripts/import_graph.py [--verbose]``; exit 1 on a circle.

An import inside a function is allowed only where it keeps torch, gradio or httpx (or
another heavy library) from loading; those are counted apart.
"""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FLOORS = ("core", "lang", "kg", "qa", "backends", "validator", "evaluation", "service", "training", "chat", "cli")
"""Bottom to top: a folder may import the ones before it."""
HEAVY = ("torch", "gradio", "httpx")
"""Libraries whose import is worth deferring: an import inside a function may avoid them."""


def modules() -> dict[str, Path]:
    """Dotted module name -> file, for every project module in ``FLOORS``."""
    out = {}
    for top in FLOORS:
        for path in (ROOT / top).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def imports(path: Path) -> list[tuple[str, bool]]:
    """``(module, inside_a_function)`` for each import statement of ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, bool]] = []

    def visit(node: ast.AST, nested: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = nested or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.Import):
                found.extend((a.name, inner) for a in child.names)
            elif isinstance(child, ast.ImportFrom) and child.module and child.level == 0:
                found.append((child.module, inner))
                found.extend((f"{child.module}.{a.name}", inner) for a in child.names)
            elif isinstance(child, ast.If) and _is_type_checking(child):
                continue
            visit(child, inner)

    visit(tree, False)
    return found


def _is_type_checking(node: ast.If) -> bool:
    return isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def main(argv: list[str]) -> int:
    verbose = "--verbose" in argv
    mods = modules()
    edges: dict[str, set[str]] = defaultdict(set)
    folder_edges: dict[tuple[str, str], list[str]] = defaultdict(list)
    local: list[tuple[str, str]] = []
    top_level: dict[str, set[str]] = defaultdict(set)
    for name, path in sorted(mods.items()):
        for target, nested in imports(path):
            if not nested:
                top_level[name].add(target)
            if target in mods and target != name:
                edges[name].add(target)
                a, b = name.split(".")[0], target.split(".")[0]
                if a != b:
                    folder_edges[(a, b)].append(f"{name} -> {target}")
            if nested and (target in mods or target.split(".")[0] in HEAVY) and target != name:
                local.append((name, target))
    heavy = _loads_heavy(top_level, mods)
    local_heavy = sorted({f"{a} -> {b}" for a, b in local if b in heavy or b.split(".")[0] in HEAVY})
    local_project = sorted({f"{a} -> {b}" for a, b in local if b in mods and b not in heavy})
    upward = {k: v for k, v in folder_edges.items() if FLOORS.index(k[0]) < FLOORS.index(k[1])}
    circles = _circles(edges)
    print(f"folders: {len(FLOORS)}; arrows between folders: {len(folder_edges)}")
    for (a, b), why in sorted(folder_edges.items()):
        mark = "  UPWARD" if (a, b) in upward else ""
        print(f"  {a} -> {b} ({len(why)}){mark}")
        if verbose or mark:
            for w in sorted(set(why)):
                print(f"      {w}")
    print(f"upward arrows: {len(upward)}")
    print(f"import circles: {len(circles)}")
    for c in circles:
        print("  " + " -> ".join(c))
    print(f"imports inside functions: {len(local_project)} not needed, "
          f"{len(local_heavy)} that keep torch, gradio or httpx from loading (allowed)")
    for w in local_project + (local_heavy if verbose else []):
        print(f"  {w}")
    return 1 if circles else 0


def _loads_heavy(top_level: dict[str, set[str]], mods: dict[str, Path]) -> set[str]:
    """Project modules whose top-level imports load a :data:`HEAVY` library, directly or
    through other project modules."""
    heavy = {m for m, targets in top_level.items() if any(t.split(".")[0] in HEAVY for t in targets)}
    changed = True
    while changed:
        changed = False
        for m in mods:
            if m not in heavy and top_level.get(m, set()) & heavy:
                heavy.add(m)
                changed = True
    return heavy


def _circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10_000)
    for v in list(edges):
        if v not in index:
            strong(v)
    return out


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
