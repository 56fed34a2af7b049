"""Ukrainian: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.uk.shape_words import SHAPE_WORDS

LANGUAGE = Language("uk", shape_words=SHAPE_WORDS)
