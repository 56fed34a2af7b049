"""Bashkir: everything the product knows of the language (see :mod:`lang`)."""

from lang.ba.cue_words import CUE_LETTERS
from lang.ba.pronouns import PRONOUNS
from lang.ba.stop_words import STOP_WORDS
from lang.base import Language

LANGUAGE = Language(
    "ba",
    cue_letters=CUE_LETTERS,
    script="cyrillic",
    pronouns=PRONOUNS,
    seed=True,
    stop_words=STOP_WORDS,
)
