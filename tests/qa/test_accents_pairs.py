"""A word typed without its accents that the word lists know both ways (French « ne »: a
negation, « né »: born) is read with them where, with the word before it, it makes two words of
a property phrase (:func:`qa.accents.restore_accents`)."""

from __future__ import annotations

from qa.accents import restore_accents


def test_a_both_ways_word_gets_its_accents_inside_a_property_phrase():
    assert restore_accents("ou est ne einstein", "fr") == "où est né einstein"
    assert restore_accents("la ville ou est ne hugo", "fr") == "la ville ou est né hugo"


def test_a_both_ways_word_outside_a_phrase_is_left_as_typed():
    assert restore_accents("il ne est pas", "fr") == "il ne est pas"
    assert restore_accents("qui ne est pas ne a paris", "fr") == "qui ne est pas ne a paris"


def test_the_earlier_rules_still_hold():
    assert restore_accents("y donde murio dali", "es") == "y dónde murió dali"
    assert restore_accents("Chile o Ecuador", "es") == "Chile o Ecuador"


def test_a_word_only_the_lexicon_knows_with_accents_gets_them_only_after_a_function_word():
    # « marié » is a P26 phrase of the French lexicon; « marie » after « née » is Marie Curie
    assert restore_accents("ou est nee marie curie", "fr") == "où est née marie curie"
    assert restore_accents("quand est morte marie antoinette", "fr") == "quand est morte marie antoinette"
    assert restore_accents("avec qui est marie pierre curie", "fr") == "avec qui est marié pierre curie"
    assert restore_accents("cual es la poblacion de espana", "es") == "cuál es la población de espana"
