"""What the chat says it knows (the KG's size): nothing to count, and no error, for a KG
file that is missing or cannot be read; the counted size once the store is built."""

from __future__ import annotations

from pathlib import Path

from chat.knows import count_in_background, kg_size, store_dir
from core.settings import load_settings
from kg.build import build_kg


def test_a_missing_or_unreadable_source_has_no_store(tmp_path: Path):
    folder = tmp_path / "folder.nt"
    folder.mkdir()
    for source in (tmp_path / "missing.nt", folder):  # no file; a directory, which cannot be read as one
        settings = load_settings({}, kg_source=source, cache_dir=tmp_path / "cache")
        assert store_dir(settings) is None and kg_size(settings) is None and count_in_background(settings) is None


def test_a_built_store_is_counted(tiny_nt: Path, tmp_path: Path):
    settings = load_settings({}, kg_source=tiny_nt, cache_dir=tmp_path / "cache")
    assert store_dir(settings) is None  # not built yet
    build_kg(tiny_nt, settings.cache_dir, progress=False)
    thread = count_in_background(settings)
    assert thread is not None
    thread.join(timeout=30)
    size = kg_size(settings)
    assert size is not None and size.facts > 0 and size.entities > 0
    # the facts counted are the statements between two entities, not names or values (issue 42)
    lines = [line.split(" ", 2) for line in tiny_nt.read_text(encoding="utf-8").splitlines() if line.strip()]
    between = {(s, p, o) for s, p, o in lines if p.startswith("<http://www.wikidata.org/prop/direct/")
               and o.startswith("<http://www.wikidata.org/entity/Q")}
    assert size.facts == len(between) < len(lines)
