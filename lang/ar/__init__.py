"""Arabic: everything the product knows of the language (see :mod:`lang`)."""

from lang.ar.pronouns import PRONOUNS
from lang.ar.shape_words import SHAPE_WORDS
from lang.ar.stop_words import STOP_WORDS
from lang.base import Language

LANGUAGE = Language(
    "ar",
    script="arabic",
    own_scripts=("Arabic",),
    stemmer="arabic",
    seed=True,
    shape_words=SHAPE_WORDS,
    pronouns=PRONOUNS,
    stop_words=STOP_WORDS,
)
