"""Japanese: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.ja.names import LABEL_FALLBACKS
from lang.ja.shape_words import SHAPE_WORDS

LANGUAGE = Language("ja", shape_words=SHAPE_WORDS, label_fallbacks=LABEL_FALLBACKS)
