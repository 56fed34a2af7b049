"""Italian: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.it.shape_words import SHAPE_WORDS

LANGUAGE = Language("it", shape_words=SHAPE_WORDS)
