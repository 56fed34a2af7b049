"""Chinese: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.zh.stop_words import STOP_WORDS

LANGUAGE = Language("zh", stop_words=STOP_WORDS)
