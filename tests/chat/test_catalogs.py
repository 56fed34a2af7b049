"""The UI text's gettext catalogs: whole (no missing, fuzzy, obsolete or unused message),
the template is what ``pybabel extract`` reads from the code, placeholders match the
English, counts follow CLDR's plural rules, and ``import-dict`` merges a dict in."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from string import Formatter

import pytest

from chat.catalogs import POT, _by_key, extract, problems, read, write
from chat.messages import LOCALE_DIR, MESSAGES, PARTIAL, SOURCE, catalog_path, message
from lang import SEED, SUPPORTED

ROOT = Path(__file__).resolve().parents[2]


def _literal(text: str) -> str:
    return "".join(literal for literal, _, _, _ in Formatter().parse(text))


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(text) if name}


def _forms(string: str | tuple[str, ...]) -> tuple[str, ...]:
    return tuple(string) if isinstance(string, tuple | list) else (string,)


def test_the_catalogs_are_whole() -> None:
    """A missing, fuzzy, obsolete or unused message, or a template behind the code, fails."""
    assert problems() == []


def test_each_supported_language_has_a_catalog() -> None:
    assert sorted(p.parent.parent.name for p in LOCALE_DIR.glob("*/LC_MESSAGES/messages.po")) == sorted(SUPPORTED)


def test_the_template_is_what_pybabel_extracts_from_the_code(tmp_path: Path) -> None:
    fresh = tmp_path / "messages.pot"
    extract(fresh)
    committed = {key: entry.id for key, entry in _by_key(read(POT)).items()}
    assert {key: entry.id for key, entry in _by_key(read(fresh)).items()} == committed
    assert set(committed) == set(SOURCE)


@pytest.mark.parametrize("lang", SUPPORTED)
def test_every_translation_keeps_the_placeholders_of_the_english(lang: str) -> None:
    for key, entry in _by_key(read(catalog_path(lang), lang)).items():
        english = _fields(SOURCE[key].english)
        for form in _forms(entry.string):
            assert not form or _fields(form) == english, (lang, key, form)


def test_seed_language_messages_are_not_english_copies() -> None:
    copies = [(key, lang) for key, table in MESSAGES.items() if key not in PARTIAL for lang in SEED
              if lang != "nl" and table.get(lang) == table["en"] and any(c.isalpha() for c in _literal(table["en"]))]
    assert not copies


def test_counts_take_the_plural_form_cldr_gives_the_language() -> None:
    assert message("too_long", "en", limit=1).endswith("1 character.")
    assert message("too_long", "en", limit=500).endswith("500 characters.")
    ru = [message("too_long", "ru", limit=n).rsplit(" ", 1)[-1] for n in (1, 3, 5, 21, 500)]
    assert ru == ["символ.", "символа.", "символов.", "символ.", "символов."]
    uk = [message("too_long", "uk", limit=n).rsplit(" ", 1)[-1] for n in (1, 4, 11)]
    assert uk == ["символ.", "символи.", "символів."]
    assert message("and_more", "de", n=1) == "und 1 weiterer" and message("and_more", "de", n=2) == "und 2 weitere"


def test_an_untranslated_language_or_message_falls_back_to_english() -> None:
    assert message("dont_know", "xx") == SOURCE["dont_know"].english
    assert "xx" not in MESSAGES["dont_know"] and MESSAGES["dont_know"]["de"] == message("dont_know", "de")
    assert set(MESSAGES["ui_examples_english"]) < set(SUPPORTED)  # a partial message says where it is


def test_the_check_reports_fuzzy_missing_and_obsolete_messages(tmp_path: Path) -> None:
    locale = tmp_path / "locale"
    shutil.copytree(LOCALE_DIR, locale, ignore=shutil.ignore_patterns("*.mo"))
    de = read(catalog_path("de", locale_dir=locale), "de")
    _by_key(de)["yes"].flags.add("fuzzy")
    _by_key(de)["no"].string = ""
    de.add("Gone.", "Weg.", context="gone_key")
    write(de, catalog_path("de", locale_dir=locale))
    (locale / "fr" / "LC_MESSAGES" / "messages.po").unlink()
    assert sorted(problems(locale_dir=locale)) == ["de: fuzzy yes", "de: missing no", "de: obsolete gone_key",
                                                   f"fr: no catalog {catalog_path('fr', locale_dir=locale)}"]


def test_a_fuzzy_translation_is_not_shown(tmp_path: Path) -> None:
    """A translation a translator has not confirmed (fuzzy) gives way to the English."""
    env = _copy_of_the_catalogs(tmp_path)
    path = tmp_path / "chat" / "locale" / "de" / "LC_MESSAGES" / "messages.po"
    text = path.read_text(encoding="utf-8").replace('msgctxt "yes"', '#, fuzzy\nmsgctxt "yes"')
    path.write_text(text, encoding="utf-8")
    shown = _run(["-c", "from chat.messages import message; print(message('yes', 'de'))"], tmp_path, env)
    assert shown.strip() == "Yes."


def test_import_dict_merges_new_and_changed_messages_into_the_catalogs(tmp_path: Path) -> None:
    env = _copy_of_the_catalogs(tmp_path)
    (tmp_path / "extra_messages.py").write_text(
        'NEW_MESSAGES = {\n'
        '    "greeting_test": {"en": "Hello, {name}.", "de": "Hallo, {name}.", "ru": "Привет, {name}."},\n'
        '    "yes": {"en": "Yes.", "de": "Jawohl."},\n'
        '    "no": {"en": "No, not at all.", "de": "Nein, gar nicht."},\n'
        '}\n', encoding="utf-8")
    out = _run(["-m", "chat.catalogs", "import-dict", "extra_messages"], tmp_path, env)
    assert "1 new keys (greeting_test)" in out
    assert "fr: fuzzy no" in out  # its English changed: the French translation waits for a translator
    assert '_text("greeting_test", "Hello, {name}."),' in (tmp_path / "chat" / "messages.py").read_text("utf-8")
    shown = _run(["-c", "from chat.messages import message as m\n"
                        "print(m('greeting_test', 'de', name='Ada'), m('greeting_test', 'ja', name='Ada'),"
                        " m('yes', 'de'), m('no', 'de'), m('no', 'fr'), sep='|')"], tmp_path, env)
    assert shown.strip() == "Hallo, Ada.|Hello, Ada.|Jawohl.|Nein, gar nicht.|No, not at all."
    pot = _by_key(read(tmp_path / "chat" / "locale" / "messages.pot"))
    assert pot["greeting_test"].id == "Hello, {name}."


def _copy_of_the_catalogs(tmp_path: Path) -> dict[str, str]:
    """chat/ (its messages, the tool, the catalogs) and babel.cfg copied under ``tmp_path``,
    first on the path; the rest of the project comes from the checkout."""
    (tmp_path / "chat").mkdir()
    for name in ("__init__.py", "messages.py", "catalogs.py"):
        shutil.copy(ROOT / "chat" / name, tmp_path / "chat" / name)
    shutil.copytree(LOCALE_DIR, tmp_path / "chat" / "locale", ignore=shutil.ignore_patterns("*.mo"))
    shutil.copy(ROOT / "babel.cfg", tmp_path / "babel.cfg")
    return {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}"}


def _run(args: list[str], cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout
