"""Arabic: everything the product knows of the language (see :mod:`lang`)."""

from lang.ar.stop_words import STOP_WORDS
from lang.base import Language

LANGUAGE = Language("ar", stop_words=STOP_WORDS, seed=True)
