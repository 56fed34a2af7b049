"""Portuguese: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.pt.question_words import QUESTION_WORDS
from lang.pt.stop_words import STOP_WORDS

LANGUAGE = Language("pt", stop_words=STOP_WORDS, question_words=QUESTION_WORDS)
