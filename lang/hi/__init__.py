"""Hindi: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.hi.stop_words import STOP_WORDS

LANGUAGE = Language("hi", stop_words=STOP_WORDS, seed=True)
