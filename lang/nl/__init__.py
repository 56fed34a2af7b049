"""Dutch: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.nl.stop_words import STOP_WORDS

LANGUAGE = Language("nl", stop_words=STOP_WORDS, seed=True)
