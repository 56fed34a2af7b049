"""Amharic: everything the product knows of the language (see :mod:`lang`)."""

from lang.am.pronouns import PRONOUNS
from lang.am.stop_words import STOP_WORDS
from lang.base import Language

LANGUAGE = Language(
    "am",
    script="ethiopic",
    own_scripts=("Ethiopic",),
    pronouns=PRONOUNS,
    seed=True,
    stop_words=STOP_WORDS,
)
