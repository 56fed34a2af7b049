"""Lithuanian: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.lt.stop_words import STOP_WORDS

LANGUAGE = Language("lt", stop_words=STOP_WORDS, seed=True)
