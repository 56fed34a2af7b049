"""The label index: normalization, every label/alias in every language, folded and
partial names, fuzzy tokens, popularity prior, property labels, faults naming the file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from core.errors import KGSourceError
from core.text import fold, normalize, tokenize
from kg.build import ensure_label_index
from kg.labels import DB_NAME, LabelIndex, build_label_index
from kg.store import kg_paths


@pytest.fixture
def index(tiny_store, tmp_path: Path) -> LabelIndex:
    build_label_index(tiny_store, tmp_path / "labels")
    return LabelIndex.open(tmp_path / "labels")


def _qids(index: LabelIndex, key: str) -> set[str]:
    return {h.qid for h in index.lookup([key]).get(key, [])}


def test_normalization():
    assert normalize("  Albert   EINSTEIN's ") == "albert einstein s"
    assert normalize("Straße") == "strasse"
    assert normalize("ＢＥＲＬＩＮ") == "berlin"  # NFKC full-width
    assert normalize("阿尔伯特·爱因斯坦") == "阿 尔 伯 特 爱 因 斯 坦"
    assert fold("berlín") == "berlin"
    assert fold("ñandú") == "nandu"
    assert fold("łódź") == "lodz"
    assert tokenize("Где родился Эйнштейн?") == ["где", "родился", "эйнштейн"]
    assert tokenize("アインシュタイン") == list("アインシュタイン")


def test_every_language_label_and_alias_is_indexed(index: LabelIndex):
    assert _qids(index, "berlin") == {"Q64"}
    assert _qids(index, "германия") == {"Q183"}
    assert _qids(index, "federal republic of germany") == {"Q183"}  # an altLabel
    assert _qids(index, "deutschland") == {"Q183"}
    assert _qids(index, "北 京") == {"Q956"}
    assert _qids(index, "peking") == {"Q956"}
    assert _qids(index, "ベ ル リ ン") == {"Q64"}
    hit = index.lookup(["berlin"])["berlin"][0]
    assert hit.is_label and hit.exact and {"en", "de", "fr"} <= set(hit.langs)


def test_diacritic_folded_names(index: LabelIndex):
    folded = index.lookup(["berlin", "moscu"])
    assert {h.qid for h in folded["moscu"]} == {"Q649"}  # "Moscú" without its accent
    assert not folded["moscu"][0].exact


def test_partial_person_names(index: LabelIndex):
    hits = index.lookup(["einstein", "пушкин", "эйнштейн"])
    assert {h.qid for h in hits["эйнштейн"]} == {"Q937"}  # last word of "Альберт Эйнштейн"
    assert hits["эйнштейн"][0].partial
    assert not hits["einstein"][0].partial  # "Einstein" is also a full alias
    assert "berlin" not in index.lookup(["berlin"]) or all(not h.partial for h in index.lookup(["berlin"])["berlin"])


def test_fuzzy_tokens_for_inflections_and_typos(index: LabelIndex):
    assert index.similar_tokens("berlins")[0][0] == "berlin"
    assert index.similar_tokens("einsteins")[0][0] == "einstein"
    assert index.similar_tokens("einstien")[0][0] == "einstein"
    assert index.similar_tokens("эинштеина")[0][0] == "эинштеин"
    assert index.similar_tokens("москвы")[0][0] == "москва"
    assert index.similar_tokens("zzzzzz") == []


def test_popularity_prior_and_classes(index: LabelIndex):
    stats = index.entity_stats(["Q183", "Q515", "Q3012"])
    assert stats["Q183"].degree > stats["Q3012"].degree
    assert stats["Q515"].instances == 6  # six things are cities in the tiny graph
    assert stats["Q3012"].instances == 0


def test_property_labels(index: LabelIndex):
    labels = index.property_labels()
    assert labels["P19"]["en"] == ["place of birth"]
    assert labels["P19"]["de"] == ["Geburtsort"]
    assert "P31" in labels


def test_missing_index_names_the_file(tmp_path: Path):
    with pytest.raises(KGSourceError) as info:
        LabelIndex.open(tmp_path / "nothing")
    assert DB_NAME in str(info.value)


def test_corrupt_index_names_the_file(tmp_path: Path):
    folder = tmp_path / "labels"
    folder.mkdir()
    (folder / DB_NAME).write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(KGSourceError, match=DB_NAME):
        LabelIndex.open(folder)


def test_wrong_schema_names_the_file(index: LabelIndex, tmp_path: Path):
    conn = sqlite3.connect(index.path)
    conn.execute("UPDATE meta SET v = '999' WHERE k = 'schema'")
    conn.commit()
    conn.close()
    with pytest.raises(KGSourceError, match="schema"):
        LabelIndex.open(index.path.parent)


def test_ensure_builds_a_missing_index_beside_an_existing_store(tiny_nt: Path, tmp_path: Path):
    from kg.store import build_store

    paths = build_store(tiny_nt, tmp_path / "cache", progress=False)  # store only, no labels
    assert not paths.labels.exists()
    index = ensure_label_index(tiny_nt, tmp_path / "cache")
    assert _qids(index, "ulm") == {"Q3012"}
    assert kg_paths(tiny_nt, tmp_path / "cache").labels.is_dir()


def test_ensure_on_a_missing_source_names_it(tmp_path: Path):
    with pytest.raises(KGSourceError, match="absent.nt"):
        ensure_label_index(tmp_path / "absent.nt", tmp_path / "cache")
