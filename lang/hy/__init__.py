"""Armenian: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.hy.stop_words import STOP_WORDS

LANGUAGE = Language("hy", stop_words=STOP_WORDS, seed=True)
