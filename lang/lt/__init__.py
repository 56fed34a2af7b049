"""Lithuanian: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.lt.cue_words import CUE_WORDS

LANGUAGE = Language("lt", seed=True, cue_words=CUE_WORDS)
