"""The derived property text is kept on disk (backends.local.properties.property_text)."""

from __future__ import annotations

from backends.local.properties import CACHE_FILE, PropertyText, property_text
from qa.reading.lexicon import default_lexicon

LABELS = {"P19": {"en": ["place of birth", "birthplace", "born in"], "de": ["Geburtsort"]},
          "P36": {"en": ["capital"], "fr": ["capitale"]}}


def test_the_kept_property_text_is_the_derived_one(tmp_path):
    lexicon = default_lexicon()
    derived = PropertyText(LABELS, lexicon)
    first = property_text(LABELS, lexicon, tmp_path)
    assert (tmp_path / CACHE_FILE).is_file()
    kept = property_text(LABELS, lexicon, tmp_path)
    assert kept.__dict__ == derived.__dict__ == first.__dict__
    assert kept.match(["born"], "", "en").keys() == derived.match(["born"], "", "en").keys()


def test_other_labels_or_a_broken_file_derive_it_again(tmp_path):
    lexicon = default_lexicon()
    property_text(LABELS, lexicon, tmp_path)
    other = {**LABELS, "P9999": {"en": ["zorblax"]}}
    assert "zorblax" in property_text(other, lexicon, tmp_path).by_token
    (tmp_path / CACHE_FILE).write_bytes(b"not a pickle")
    again = property_text(LABELS, lexicon, tmp_path)
    assert again.__dict__ == PropertyText(LABELS, lexicon).__dict__
    assert "zorblax" not in again.by_token
    assert property_text(LABELS, None, None).__dict__ == PropertyText(LABELS, None).__dict__


def test_reading_it_back_leaves_the_collector_as_it_was(tmp_path):
    import gc

    lexicon = default_lexicon()
    property_text(LABELS, lexicon, tmp_path)
    assert gc.isenabled()
    gc.disable()  # as kgqa ask loads (core.memory.loading)
    try:
        property_text(LABELS, lexicon, tmp_path)
        assert not gc.isenabled()
    finally:
        gc.enable()
    property_text(LABELS, lexicon, tmp_path)
    assert gc.isenabled()
