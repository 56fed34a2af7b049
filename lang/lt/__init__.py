"""Lithuanian: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.lt.cue_words import CUE_LETTERS, CUE_WORDS
from lang.lt.pronouns import PRONOUNS
from lang.lt.stop_words import STOP_WORDS

LANGUAGE = Language(
    "lt",
    cue_letters=CUE_LETTERS,
    seed=True,
    cue_words=CUE_WORDS,
    pronouns=PRONOUNS,
    stop_words=STOP_WORDS,
)
