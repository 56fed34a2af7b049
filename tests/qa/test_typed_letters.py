"""German letters typed as a keyboard without them types them (« ö » as "oe", « ß » as "ss",
:attr:`lang.base.Language.typed_letters`) are put back in a word the lists know with them
(:func:`qa.accents.restore_accents`)."""

from __future__ import annotations

from lang import get as language
from qa.accents import restore_accents


def test_a_word_typed_without_its_umlaut_or_eszett_gets_it_back():
    assert restore_accents("welcher partei gehoert merkel an", "de") == "welcher partei gehört merkel an"
    assert restore_accents("in welches meer fliesst die elbe", "de") == "in welches meer fließt die elbe"
    assert restore_accents("wann wurden die usa gegruendet", "de") == "wann wurden die usa gegründet"
    assert restore_accents("Was ist die Waehrung von Japan?", "de") == "Was ist die Währung von Japan?"


def test_a_name_or_a_word_the_lists_do_not_know_is_left_as_typed():
    assert restore_accents("wo wurde goethe geboren", "de") == "wo wurde goethe geboren"
    assert restore_accents("wo wurde thomas mueller geboren", "de") == "wo wurde thomas mueller geboren"


def test_only_a_language_with_typed_letters_reads_them():
    assert language("de").typed_letters["ü"] == "ue"
    assert not language("fr").typed_letters
    assert restore_accents("ou est ne goethe", "fr") == "où est né goethe"


def test_the_lexicon_writes_its_phrases_with_their_letters():
    # a phrase typed "gegruendet" in the lexicon would make the word known as typed, and the
    # reading would never learn it is « gegründet »
    from qa.reading.lexicon import language_lexicon

    letters = language("de").typed_letters
    typed = {"".join(letters.get(ch, ch) for ch in w) for phrases in language_lexicon("de")["phrases"].values()
             for phrase in phrases for w in phrase.split() if any(ch in letters for ch in w)}
    listed = {w for phrases in language_lexicon("de")["phrases"].values() for phrase in phrases for w in phrase.split()}
    assert not typed & listed
