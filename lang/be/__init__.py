"""Belarusian: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.be.stop_words import STOP_WORDS

LANGUAGE = Language("be", stop_words=STOP_WORDS, seed=True)
