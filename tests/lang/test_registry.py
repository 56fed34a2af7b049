"""The language registry: every supported language has its package, and the registry is
the one place that declares them."""

from __future__ import annotations

import pytest

from lang import MAIN, SEED, SUPPORTED, get, is_supported, supported


def test_every_supported_language_has_its_package() -> None:
    assert [language.code for language in supported()] == list(SUPPORTED)
    assert SUPPORTED == MAIN + SEED and len(set(SUPPORTED)) == 19


def test_seed_languages_say_so() -> None:
    assert all(get(code).seed for code in SEED) and not any(get(code).seed for code in MAIN)


def test_an_unsupported_code_is_refused() -> None:
    assert not is_supported("xx") and not is_supported(None)
    with pytest.raises(KeyError):
        get("xx")


def test_a_language_is_named_in_itself_by_cldr() -> None:
    assert [get(code).name for code in ("de", "ru", "ja", "nl")] == ["Deutsch", "Русский", "日本語", "Nederlands"]
    assert all(get(code).name and get(code).name != code for code in SUPPORTED)


def test_each_latin_script_language_detection_reads_has_cue_words() -> None:
    from qa.reading.detect import CUE_WORDS, LATIN_LANGUAGES

    assert set(CUE_WORDS) == set(LATIN_LANGUAGES) and all(CUE_WORDS.values())
    assert "welche" in get("de").cue_words and "welche" not in get("nl").cue_words
