"""Italian: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.it.stop_words import STOP_WORDS

LANGUAGE = Language("it", stop_words=STOP_WORDS)
