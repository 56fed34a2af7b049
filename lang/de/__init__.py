"""German: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.de.question_words import QUESTION_WORDS
from lang.de.stop_words import STOP_WORDS

LANGUAGE = Language("de", stop_words=STOP_WORDS, question_words=QUESTION_WORDS)
