"""Adding a language is adding its folder: a temporary ``lang/pl/`` (outside the tree, on the
registry's search path) is supported by detection, reading, rendering and the catalogs
without any other edit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

POLISH = '''"""Polish, as a new language's folder would hold it (a test's)."""

from decimal import Decimal

from lang.base import Courtesies, Language, NumberWords, ShapeWords, words

LANGUAGE = Language(
    "pl",
    cue_words=words("gdzie kto jest jaka jaki jakie się urodził urodziła stolica ile czy kiedy mieszka"),
    cue_letters="łśźżćńąę",
    stop_words=words("gdzie kto jest się w na z i czy ile kiedy"),
    question_words={"gdzie": "place", "kto": "person", "kiedy": "date", "ile": "number"},
    shape_words=ShapeWords(count=("ile",), yes_no_openers=("czy",), wh=("gdzie", "kto", "kiedy", "ile")),
    numbers=NumberWords(scales={"milionów": Decimal(10) ** 6}, year_words=("roku",)),
    filter_words_before=((("ponad", "więcej niż"), ">", False), (("przed",), "<", True)),
    courtesies=Courtesies(greetings=("cześć", "dzień dobry"), requests=("powiedz mi",), thanks=("dziękuję",)),
)
'''

CHECKS = '''
import json, sys
from pathlib import Path

import lang
from qa.reading.analysis import analyze
from chat import catalogs
from chat.render import format_date, ui_language
from core.text import normalize_cue_text
from qa.reading.detect import LATIN_LANGUAGES, detect_language, strip_courtesies, unsupported_language

question = "Gdzie urodził się Fryderyk Chopin?"
count = analyze(normalize_cue_text("Ile ludzi mieszka w Krakowie?"), "pl")
yes_no = analyze(normalize_cue_text("Czy Kraków jest stolicą Polski?"), "pl")
filtered = analyze(normalize_cue_text("Które miasta mają ponad 2 milionów mieszkańców?"), "pl")
locale = Path(sys.argv[1])
catalogs.update(["pl"], locale_dir=locale)
po = catalogs.read(locale / "pl" / "LC_MESSAGES" / "messages.po", "pl")
print(json.dumps({
    "supported": "pl" in lang.SUPPORTED, "main": "pl" in lang.MAIN, "name": lang.get("pl").name,
    "latin": "pl" in LATIN_LANGUAGES,
    "detected": detect_language(question), "detected_de": detect_language("Wo wurde Frédéric Chopin geboren?"),
    "unsupported": unsupported_language(question, "pl"),
    "courtesies": strip_courtesies("Dzień dobry! Powiedz mi, gdzie urodził się Chopin? Dziękuję!"),
    "count": count.count, "yes_no": yes_no.yes_no,
    "filters": [(f.op, str(f.value)) for f in filtered.filters],
    "ui": ui_language("pl"), "date": format_date("1810-03-01", "pl"),
    "missing_catalog": [p for p in catalogs.problems(["pl"]) if p.startswith("pl: no catalog")],
    "catalog_messages": len([m for m in po if m.id]), "plural_forms": po.num_plurals,
    "all_languages": len(lang.SUPPORTED),
}))
'''


def test_a_language_folder_is_all_a_new_language_needs(tmp_path: Path) -> None:
    folder = tmp_path / "lang" / "pl"
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text(POLISH, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(tmp_path)])}
    run = subprocess.run([sys.executable, "-c", CHECKS, str(tmp_path / "locale")], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    found = json.loads(run.stdout.strip().splitlines()[-1])
    assert found["supported"] and found["main"] and found["name"] == "Polski" and found["latin"]
    assert found["all_languages"] == 20
    assert found["detected"] == "pl" and found["detected_de"] == "de"  # detection reads it, and still the others
    assert found["unsupported"] is None  # no longer "a language the chat does not speak"
    assert found["courtesies"] == "gdzie urodził się Chopin?"
    assert found["count"] and found["yes_no"]
    assert found["filters"] == [[">", "2000000"]]
    assert found["ui"] == "pl" and found["date"] == "1 marca 1810"
    assert found["missing_catalog"]  # the catalogs' check asks for its catalog …
    assert found["catalog_messages"] > 50 and found["plural_forms"] == 3  # … and update makes it, Polish plurals


def test_the_registry_has_only_its_own_languages_without_the_folder() -> None:
    from lang import SUPPORTED

    assert "pl" not in SUPPORTED and len(SUPPORTED) == 19
