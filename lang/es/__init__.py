"""Spanish: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.es.question_words import QUESTION_WORDS
from lang.es.stop_words import STOP_WORDS

LANGUAGE = Language("es", stop_words=STOP_WORDS, question_words=QUESTION_WORDS)
