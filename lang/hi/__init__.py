"""Hindi: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.hi.pronouns import PRONOUNS
from lang.hi.shape_words import SHAPE_WORDS
from lang.hi.stop_words import STOP_WORDS

LANGUAGE = Language(
    "hi",
    script="devanagari",
    own_scripts=("Devanagari",),
    stemmer="hindi",
    seed=True,
    shape_words=SHAPE_WORDS,
    pronouns=PRONOUNS,
    stop_words=STOP_WORDS,
)
