"""Count the per-language tables outside ``lang/``: dict literals keyed by 4 or more of the
supported language codes (issue 34's target: at most 10).  Each language's data belongs in
its own ``lang/<code>/`` package; a table keyed by language codes elsewhere is a language
spread over the tree.

    python scripts/language_tables.py            # the count per file and the total
    python scripts/language_tables.py --list     # every table with its line
    python scripts/language_tables.py --rev REV  # the same count at a git revision (e.g. main)
"""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lang import SUPPORTED  # noqa: E402

MIN_CODES = 4
SKIPPED = ("lang/", "tests/", ".venv/", ".cache/", "build/", "dist/")


def tables(source: str, codes: frozenset[str] = frozenset(SUPPORTED)) -> Iterator[tuple[int, int]]:
    """(line, number of language-code keys) of each dict literal keyed by ``MIN_CODES`` or more codes."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Dict):
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
            if len(keys & codes) >= MIN_CODES:
                yield node.lineno, len(keys & codes)


def files_now() -> Iterator[tuple[str, str]]:
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if not rel.startswith(SKIPPED):
            yield rel, path.read_text(encoding="utf-8")


def files_at(rev: str) -> Iterator[tuple[str, str]]:
    names = subprocess.run(["git", "-C", str(ROOT), "ls-tree", "-r", "--name-only", rev], check=True,
                           capture_output=True, text=True).stdout.split()
    for rel in names:
        if rel.endswith(".py") and not rel.startswith(SKIPPED):
            yield rel, subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:{rel}"], check=True,
                                      capture_output=True, text=True).stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", action="store_true", help="every table with its line")
    parser.add_argument("--rev", help="count at this git revision instead of the working tree")
    args = parser.parse_args(argv)
    per_file: Counter[str] = Counter()
    for rel, source in files_at(args.rev) if args.rev else files_now():
        for line, n in tables(source):
            per_file[rel] += 1
            if args.list:
                print(f"{rel}:{line}: {n} language keys")
    for rel, n in per_file.most_common():
        print(f"{n:5d}  {rel}")
    print(f"per-language tables outside lang/: {sum(per_file.values())} (target: at most 10)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
