"""Building and opening the embedded store (+ label index) from a small graph written in
the test: progress, rebuild only on source change, faults naming the file, read-only."""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import pyoxigraph
import pytest

from core.errors import KGSourceError
from kg.build import build_kg
from kg.client import EmbeddedKG
from kg.labels import DB_NAME, LabelIndex
from kg.store import build_store, fingerprint, kg_paths, open_store
from tests import tiny_kg


def test_build_kg_makes_store_and_label_index(tiny_nt: Path, tmp_path: Path):
    paths = build_kg(tiny_nt, tmp_path / "cache", progress=False)
    assert paths.is_built()
    assert (paths.labels / DB_NAME).is_file()
    kg = EmbeddedKG(open_store(paths))
    assert [t.value for t in kg.query("SELECT ?c WHERE { wd:Q183 wdt:P36 ?c }").column()] == [tiny_kg.BERLIN.value]
    index = LabelIndex.open(paths.labels)
    assert {h.qid for h in index.lookup(["berlin"])["berlin"]} == {"Q64"}


def test_progress_bar_is_shown_on_stderr(tiny_nt: Path, tmp_path: Path, capsys):
    build_store(tiny_nt, tmp_path / "cache", progress=True)
    err = capsys.readouterr().err
    assert "loading tiny.nt" in err


def test_rebuilds_only_when_the_source_changes(tiny_nt: Path, tmp_path: Path):
    cache = tmp_path / "cache"
    first = build_kg(tiny_nt, cache, progress=False)
    receipt = first.meta.read_text()
    again = build_kg(tiny_nt, cache, progress=False)
    assert again.root == first.root
    assert again.meta.read_text() == receipt  # reused, not rebuilt
    tiny_nt.write_text(tiny_kg.ntriples() + "<http://www.wikidata.org/entity/Q1> "
                       "<http://www.w3.org/2000/01/rdf-schema#label> \"universe\"@en .\n", encoding="utf-8")
    os.utime(tiny_nt, ns=(tiny_nt.stat().st_atime_ns, tiny_nt.stat().st_mtime_ns + 10**9))
    changed = build_kg(tiny_nt, cache, progress=False)
    assert changed.root != first.root
    assert "universe" in LabelIndex.open(changed.labels).lookup(["universe"])


def test_a_copied_or_touched_source_keeps_its_store(tiny_nt: Path, tmp_path: Path):
    cache = tmp_path / "cache"
    first = build_kg(tiny_nt, cache, progress=False)
    copy = tmp_path / "elsewhere" / "tiny.nt"
    copy.parent.mkdir()
    copy.write_bytes(tiny_nt.read_bytes())
    os.utime(copy, ns=(copy.stat().st_atime_ns, copy.stat().st_mtime_ns + 5 * 10**9))
    assert build_kg(copy, cache, progress=False).root == first.root  # same content: no rebuild


def test_a_source_that_cannot_be_read_is_named_in_the_error(tmp_path: Path):
    for source in (tmp_path / "missing.nt", tmp_path):
        with pytest.raises(KGSourceError) as caught:
            fingerprint(source)
        assert caught.value.path == source


def test_gzipped_source_builds(tiny_nt: Path, tmp_path: Path):
    gz = tmp_path / "tiny.nt.gz"
    gz.write_bytes(gzip.compress(tiny_nt.read_bytes()))
    kg = EmbeddedKG(open_store(build_kg(gz, tmp_path / "cache", progress=False)))
    assert kg.query("ASK { wd:Q937 wdt:P19 wd:Q3012 }").boolean is True


def test_corrupt_source_names_the_file_and_leaves_nothing_half_built(tmp_path: Path):
    bad = tmp_path / "broken.nt"
    bad.write_text("<http://www.wikidata.org/entity/Q1> <http://x/p> \"unterminated .\n", encoding="utf-8")
    with pytest.raises(KGSourceError) as info:
        build_kg(bad, tmp_path / "cache", progress=False)
    assert "broken.nt" in str(info.value)
    assert not kg_paths(bad, tmp_path / "cache").root.exists()


def test_corrupt_gzip_names_the_file(tmp_path: Path):
    bad = tmp_path / "broken.nt.gz"
    bad.write_bytes(b"\x1f\x8b\x08\x00 definitely not gzip")
    with pytest.raises(KGSourceError, match="broken.nt.gz"):
        build_kg(bad, tmp_path / "cache", progress=False)


def test_wrong_path_names_the_file(tmp_path: Path):
    missing = tmp_path / "nowhere" / "kg.nt.gz"
    with pytest.raises(KGSourceError) as info:
        build_kg(missing, tmp_path / "cache", progress=False)
    assert str(missing) in str(info.value)
    assert info.value.path == missing


def test_unknown_format_names_the_file(tmp_path: Path):
    odd = tmp_path / "kg.csv"
    odd.write_text("a,b,c\n", encoding="utf-8")
    with pytest.raises(KGSourceError, match="kg.csv"):
        build_kg(odd, tmp_path / "cache", progress=False)


def test_reopens_read_only(tiny_nt: Path, tmp_path: Path):
    paths = build_kg(tiny_nt, tmp_path / "cache", progress=False)
    store = open_store(paths)
    assert len(store) == len(tiny_kg.quads())
    with pytest.raises((OSError, RuntimeError), match="read"):
        store.add(pyoxigraph.Quad(tiny_kg.BERLIN, tiny_kg.P17, tiny_kg.FRANCE))
    assert EmbeddedKG(open_store(paths)).query("ASK { wd:Q64 wdt:P17 wd:Q142 }").boolean is False


def test_open_unbuilt_store_names_the_store(tiny_nt: Path, tmp_path: Path):
    paths = kg_paths(tiny_nt, tmp_path / "cache")
    with pytest.raises(KGSourceError, match="not built"):
        open_store(paths)
