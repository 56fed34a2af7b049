"""Japanese: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.ja.stop_words import STOP_WORDS

LANGUAGE = Language("ja", stop_words=STOP_WORDS)
