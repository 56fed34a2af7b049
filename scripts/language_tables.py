"""Count the multilingual tables outside ``lang/``: literals that hold one language's data
next to another's, which belong in each language's ``lang/<code>/`` package (or in
``lang/others.py`` for the languages the chat does not speak).  Three kinds:

* ``keyed``: a dict whose keys are all language codes (3 or more: ``{"en": …, "de": …}``);
* ``list``: a tuple, list, set or dict whose strings (keys, or values) are all language
  codes, 3 or more (``("en", "de", "fr")``, ``{"ß": "de", "ç": "fr pt"}``): a language list
  repeated instead of derived from the registry;
* ``words``: a tuple, list, set or dict holding words of two or more scripts
  (``("year", "jahr", "года", "年")``): a word table of several languages.

Language codes are CLDR's (Babel), with Wikidata's variants (``zh-hans``) and ``mul``.  A
literal inside a counted one is not counted again.

    python scripts/language_tables.py            # the count per file and kind, and the total
    python scripts/language_tables.py --list     # every table with its line and kind
    python scripts/language_tables.py --rev REV  # the same count at a git revision (e.g. main)
"""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
import unicodedata
from collections import Counter
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

MIN_CODES = 3
SKIPPED = ("lang/", "tests/", "benchmarks/", ".venv/", ".cache/", "build/", "dist/", "scripts/")
"""Not counted: the languages' own packages, and the tests' and benchmarks' sample questions."""
KINDS = ("keyed", "list", "words")
_LITERALS = (ast.Dict, ast.Tuple, ast.List, ast.Set)


@cache
def language_codes() -> frozenset[str]:
    """CLDR's language codes (the part before ``_`` of Babel's locale identifiers) and ``mul``."""
    from babel.localedata import locale_identifiers

    return frozenset({identifier.split("_")[0] for identifier in locale_identifiers()} | {"mul"})


def is_code(text: str) -> bool:
    """A language code, a Wikidata variant of one (``zh-hans``), or several, space-separated ("fr pt")."""
    parts = text.split()
    return bool(parts) and all(p.split("-")[0] in language_codes() and p == p.lower() for p in parts)


def _codes(strings: list[str]) -> set[str]:
    return {code for s in strings for code in s.split()}


def _strings(node: ast.AST) -> list[str]:
    return [n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def _script(ch: str) -> str | None:
    """A coarse script of a letter: its Unicode name's first word (LATIN, CYRILLIC, CJK, HIRAGANA …)."""
    if not ch.isalpha():
        return None
    name = unicodedata.name(ch, "")
    return name.split()[0] if name else None


def _word_scripts(strings: list[str]) -> set[str]:
    """The scripts of the words among ``strings`` (two letters or more, or one Han character;
    one kana or another letter is a transliteration table's, not a word)."""
    scripts: set[str] = set()
    for s in strings:
        letters = [c for c in s if c.isalpha()]
        found = {_script(c) for c in letters} - {None}
        if len(found) == 1 and (len(letters) >= 2 or found == {"CJK"}):
            scripts |= found  # type: ignore[arg-type]
    return scripts


def kind_of(node: ast.AST) -> str | None:
    """The kind of multilingual table ``node`` is (:data:`KINDS`), else ``None``."""
    if not isinstance(node, _LITERALS):
        return None
    if isinstance(node, ast.Dict):
        keys = [k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
        if keys and len(keys) == len(node.keys) and all(is_code(k) for k in keys) and len(_codes(keys)) >= MIN_CODES:
            return "keyed"
        values = [s for v in node.values for s in _strings(v)]
        for strings in (keys, values):
            if strings and all(is_code(s) for s in strings) and len(_codes(strings)) >= MIN_CODES:
                return "list"
    else:
        strings = _strings(node)
        if strings and all(is_code(s) for s in strings) and len(_codes(strings)) >= MIN_CODES:
            return "list"
    return "words" if len(_word_scripts(_strings(node))) >= 2 else None


def tables(source: str) -> Iterator[tuple[int, str]]:
    """(line, kind) of each outermost multilingual table of ``source``."""
    def visit(node: ast.AST) -> Iterator[tuple[int, str]]:
        kind = kind_of(node)
        if kind is not None:
            yield node.lineno, kind  # type: ignore[attr-defined]
            return
        for child in ast.iter_child_nodes(node):
            yield from visit(child)

    yield from visit(ast.parse(source))


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
    parser.add_argument("--list", action="store_true", help="every table with its line and kind")
    parser.add_argument("--rev", help="count at this git revision instead of the working tree")
    args = parser.parse_args(argv)
    per_file: dict[str, Counter[str]] = {}
    for rel, source in files_at(args.rev) if args.rev else files_now():
        for line, kind in tables(source):
            per_file.setdefault(rel, Counter())[kind] += 1
            if args.list:
                print(f"{rel}:{line}: {kind}")
    for rel, kinds in sorted(per_file.items(), key=lambda item: -sum(item[1].values())):
        print(f"{sum(kinds.values()):5d}  {rel}  ({', '.join(f'{k} {kinds[k]}' for k in KINDS if kinds[k])})")
    total = Counter[str]()
    for kinds in per_file.values():
        total.update(kinds)
    print(f"multilingual tables outside lang/: {sum(total.values())} "
          f"({', '.join(f'{k} {total[k]}' for k in KINDS)}; target: at most 3)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
