"""Russian: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.ru.shape_words import SHAPE_WORDS

LANGUAGE = Language("ru", shape_words=SHAPE_WORDS)
