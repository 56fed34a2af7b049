"""English: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.en.shape_words import SHAPE_WORDS

LANGUAGE = Language("en", shape_words=SHAPE_WORDS)
