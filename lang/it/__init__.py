"""Italian: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.it.question_words import QUESTION_WORDS
from lang.it.stop_words import STOP_WORDS

LANGUAGE = Language("it", stop_words=STOP_WORDS, question_words=QUESTION_WORDS)
