"""The UI text's gettext catalogs: extract, update, compile, check, and merge a dict in.

``python -m chat.catalogs COMMAND`` (see ``docs/translations.md``):

* ``extract``: ``pybabel extract`` the English of :data:`chat.messages.SOURCE` into
  ``chat/locale/messages.pot`` (map: ``babel.cfg``);
* ``update``: bring every language's ``.po`` in line with the ``.pot`` (a new language
  gets one; a message whose English changed keeps its translation, marked fuzzy);
* ``compile``: ``pybabel compile`` each ``.po`` into its ``.mo`` (set-up runs it);
* ``check``: print every missing, fuzzy, obsolete or unused message (exit 1 when any);
* ``import-dict MODULE [--name NEW_MESSAGES]``: merge a dict shaped ``key -> {lang: text}``
  (as :data:`chat.messages.MESSAGES` was) into the catalogs: a new key's English joins
  :data:`chat.messages.SOURCE`, every translation joins its ``.po``.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import json
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po, write_po

from chat.messages import DOMAIN, LOCALE_DIR, PARTIAL, SOURCE, Source, catalog_path
from lang import SUPPORTED

ROOT = LOCALE_DIR.parent.parent
HEADER = ("# {language} translations of kgqa's user-facing text (chat/messages.py).\n"
          "# Maintained with python -m chat.catalogs (docs/translations.md).")
SOURCE_LANGUAGE = "en"
"""The language the code writes the messages in; its catalog mirrors them."""
POT = LOCALE_DIR / f"{DOMAIN}.pot"
MESSAGES_MODULE = LOCALE_DIR.parent / "messages.py"
KEYWORDS = ("_text:1c,2", "_plural:1c,2,3")
"""The marker functions of chat/messages.py: the key is the context, then the English (and its plural)."""
END_OF_SOURCE = ")}\n# ---- end of the messages ----"
CODE_PACKAGES = ("app.py", "chat", "cli", "qa", "service", "backends", "kg", "evaluation", "validator")
"""Where a message key may be used (as a string, or an f-string's start: ``f"score_{name}"``)."""


def pybabel(*argv: str) -> None:
    """Run the ``pybabel`` command line in this process."""
    CommandLineInterface().run(["pybabel", *argv])


def extract(pot: Path = POT) -> None:
    """``pybabel extract`` chat/messages.py's messages into the template."""
    pybabel("-q", "extract", "-F", str(ROOT / "babel.cfg"), "--no-default-keywords",
            *(arg for keyword in KEYWORDS for arg in ("-k", keyword)), "--no-location", "--omit-header",
            "-o", str(pot), str(ROOT))


def read(path: Path, lang: str | None = None) -> Catalog:
    """One ``.po`` or the ``.pot``."""
    with path.open("rb") as stream:
        return read_po(stream, locale=lang, domain=DOMAIN)


def write(catalog: Catalog, path: Path) -> None:
    """Write a ``.po`` (no line numbers: a moved line changes nothing)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as stream:
        write_po(stream, catalog, omit_header=False, no_location=True, ignore_obsolete=True)


def _by_key(catalog: Catalog) -> dict[str, Message]:
    return {str(m.context): m for m in catalog if m.id and m.context}


def update(langs: Iterable[str] = SUPPORTED, pot: Path = POT, locale_dir: Path = LOCALE_DIR) -> None:
    """Each language's ``.po`` from the template, matched by key: a kept translation whose
    English changed is marked fuzzy (a translator checks it), a key gone is dropped."""
    template = read(pot)
    for lang in langs:
        path = catalog_path(lang, locale_dir=locale_dir)
        previous = read(path, lang) if path.is_file() else None
        old = _by_key(previous) if previous is not None else {}
        catalog = Catalog(locale=lang, domain=DOMAIN, project="kgqa", version="1", fuzzy=False,
                          header_comment=HEADER.format(language=Locale.parse(lang).english_name),
                          creation_date=previous.creation_date if previous else None,
                          revision_date=previous.revision_date if previous else None)
        for entry in template:
            if not entry.id:
                continue
            before = old.get(str(entry.context))
            if lang == SOURCE_LANGUAGE:  # the English catalog is the code's English
                string, fuzzy = (tuple(entry.id) if isinstance(entry.id, tuple | list) else entry.id), False
            else:
                string = _fitted(before.string, entry.id) if before is not None else _empty(entry.id, catalog)
                fuzzy = before is not None and (before.id != entry.id or before.fuzzy) and _filled(string)
            catalog.add(entry.id, string, context=entry.context, flags=("fuzzy",) if fuzzy else ())
        write(catalog, path)


def _empty(msgid: str | tuple[str, ...], catalog: Catalog) -> str | tuple[str, ...]:
    return ("",) * catalog.num_plurals if isinstance(msgid, tuple | list) else ""


def _fitted(string: str | tuple[str, ...], msgid: str | tuple[str, ...]) -> str | tuple[str, ...]:
    """A kept translation in the template's shape (a message that gained or lost a plural)."""
    if isinstance(msgid, tuple | list):
        return tuple(string) if isinstance(string, tuple | list) else (string,)
    return string[-1] if isinstance(string, tuple | list) else string


def _filled(string: str | tuple[str, ...]) -> bool:
    return all(string) if isinstance(string, tuple | list) else bool(string)


def compile_all(langs: Iterable[str] = SUPPORTED) -> None:
    """``pybabel compile`` each ``.po`` into its ``.mo`` (fuzzy entries are left out)."""
    for lang in langs:
        pybabel("-q", "compile", "-d", str(LOCALE_DIR), "-D", DOMAIN, "-l", lang)


def used_keys(root: Path = ROOT) -> tuple[set[str], set[str]]:
    """The string constants of the code (outside chat/messages.py) and the literal starts of
    its f-strings: a message is used when its key is one, or starts with one."""
    constants: set[str] = set()
    prefixes: set[str] = set()
    for path in _code_files(root):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                constants.add(node.value)
            elif isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
                prefixes.add(str(node.values[0].value))
    return constants, prefixes


def _code_files(root: Path) -> Iterator[Path]:
    for name in CODE_PACKAGES:
        path = root / name
        files = [path] if path.is_file() else sorted(path.rglob("*.py"))
        yield from (file for file in files if file.resolve() != MESSAGES_MODULE.resolve())


def problems(langs: Iterable[str] = SUPPORTED, locale_dir: Path = LOCALE_DIR) -> list[str]:
    """Every message that is missing in a language (outside :data:`~chat.messages.PARTIAL`),
    fuzzy, obsolete, stale against the code, or unused; empty when the catalogs are whole."""
    found = []
    template = _by_key(read(locale_dir / POT.name))
    if set(template) != set(SOURCE) or any(_msgid(s) != template[k].id for k, s in SOURCE.items() if k in template):
        found.append("messages.pot: stale against chat/messages.py (run python -m chat.catalogs extract, update)")
    constants, prefixes = used_keys()
    found += [f"{key}: unused" for key in SOURCE
              if key not in constants and not any(p and key.startswith(p) for p in prefixes)]
    for lang in langs:
        path = catalog_path(lang, locale_dir=locale_dir)
        if not path.is_file():
            found.append(f"{lang}: no catalog {path}")
            continue
        catalog = read(path, lang)
        entries = _by_key(catalog)
        found += [f"{lang}: obsolete {key}" for key in set(entries) - set(template)]
        found += [f"{lang}: obsolete {m.context}" for m in catalog.obsolete.values()]
        for key, source in SOURCE.items():
            entry = entries.get(key)
            if entry is None or (not _filled(entry.string) and key not in PARTIAL):
                found.append(f"{lang}: missing {key}")
            elif entry.fuzzy:
                found.append(f"{lang}: fuzzy {key}")
            elif entry.id != _msgid(source):
                found.append(f"{lang}: stale {key}")
    return found


def _msgid(source: Source) -> str | tuple[str, str]:
    return source.english if source.plural is None else (source.english, source.plural)


def import_dict(table: dict[str, dict[str, str]], module: Path = MESSAGES_MODULE) -> list[str]:
    """Merge ``key -> {lang: text}`` into the catalogs; returns the keys new to the code.

    A key not yet in :data:`~chat.messages.SOURCE` is appended there with its English; a key
    whose English differs gets the new English (its other translations turn fuzzy unless
    the dict brings them).  Then the template is extracted again, every ``.po`` updated and
    the dict's translations written in (a plural message gets the text in every form)."""
    new = [key for key in table if key not in SOURCE]
    changed = {key: texts["en"] for key, texts in table.items()
               if key in SOURCE and texts["en"] not in (SOURCE[key].english, SOURCE[key].plural)}
    text = module.read_text(encoding="utf-8")
    for key, english in changed.items():
        written = re.compile(rf"_text\({re.escape(json.dumps(key))},\s*"
                             rf"{re.escape(json.dumps(SOURCE[key].english, ensure_ascii=False))}\)")
        if not written.search(text):
            raise SystemExit(f"chat.catalogs: the English of {key!r} changed; edit it in {module} by hand, then run "
                             f"extract and update")
        line = _source_line(key, english).strip().rstrip(",")
        text = written.sub(lambda _, line=line: line, text, count=1)
    if new:
        text = text.replace(END_OF_SOURCE, "".join(_source_line(key, table[key]["en"]) for key in new) + END_OF_SOURCE)
    module.write_text(text, encoding="utf-8")
    extract()
    update()
    for lang in SUPPORTED:
        path = catalog_path(lang)
        catalog = read(path, lang)
        entries = _by_key(catalog)
        for key, texts in table.items():
            if lang in texts and lang != SOURCE_LANGUAGE and key in entries:
                entry = entries[key]
                entry.string = (texts[lang],) * catalog.num_plurals if isinstance(entry.id, tuple) else texts[lang]
                entry.flags.discard("fuzzy")
        write(catalog, path)
    return new


def _source_line(key: str, english: str) -> str:
    """``_text(key, english),`` as chat/messages.py writes it (the English on its own line when long)."""
    line = f"    _text({json.dumps(key)}, {json.dumps(english, ensure_ascii=False)}),\n"
    if len(line) <= 121:
        return line
    return f"    _text({json.dumps(key)},\n          {json.dumps(english, ensure_ascii=False)}),\n"


def _load_dict(module_name: str, name: str) -> dict[str, dict[str, str]]:
    module = importlib.import_module(module_name)
    table: dict[str, dict[str, str]] = vars(module)[name]
    bad = [key for key, texts in table.items() if "en" not in texts or not re.fullmatch(r"[a-z][a-z0-9_]*", key)]
    if bad:
        raise SystemExit(f"chat.catalogs: {module_name}.{name}: keys without English or not snake_case: {bad}")
    return table


def main(argv: list[str] | None = None) -> int:
    """``python -m chat.catalogs extract|update|compile|check|import-dict MODULE``."""
    parser = argparse.ArgumentParser(prog="python -m chat.catalogs", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("extract", help="pybabel extract the messages into chat/locale/messages.pot")
    sub.add_parser("update", help="update every language's .po from the .pot")
    sub.add_parser("compile", help="compile every .po into its .mo")
    sub.add_parser("check", help="list missing, fuzzy, obsolete or unused messages")
    merge = sub.add_parser("import-dict", help="merge a dict key -> {lang: text} into the catalogs")
    merge.add_argument("module", help="importable module, e.g. chat.messages_trust")
    merge.add_argument("--name", default="NEW_MESSAGES", help="the dict's name in the module (default NEW_MESSAGES)")
    args = parser.parse_args(argv)
    if args.command == "extract":
        extract()
    elif args.command == "update":
        update()
    elif args.command == "compile":
        compile_all()
    elif args.command == "import-dict":
        new = import_dict(_load_dict(args.module, args.name))
        compile_all()
        print(f"merged {args.module}.{args.name}: {len(new)} new keys ({', '.join(new) or 'none'}); now delete the "
              f"module and its MESSAGES.update line in chat/messages.py, then run python -m chat.catalogs check")
    found = problems() if args.command in ("check", "import-dict") else []
    print("\n".join(found) or "catalogs: complete")
    return 1 if found and args.command == "check" else 0


if __name__ == "__main__":
    sys.exit(main())
