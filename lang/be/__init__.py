"""Belarusian: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.be.cue_words import CUE_LETTERS, CUE_SPELLING, CUE_WORDS
from lang.be.pronouns import PRONOUNS
from lang.be.stop_words import STOP_WORDS

LANGUAGE = Language(
    "be",
    cue_letters=CUE_LETTERS,
    cue_spelling=CUE_SPELLING,
    script="cyrillic",
    seed=True,
    cue_words=CUE_WORDS,
    pronouns=PRONOUNS,
    stop_words=STOP_WORDS,
)
