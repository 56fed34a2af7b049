"""Spanish: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.es.shape_words import SHAPE_WORDS

LANGUAGE = Language("es", shape_words=SHAPE_WORDS)
