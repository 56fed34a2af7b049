"""English: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.en.question_words import QUESTION_WORDS
from lang.en.stop_words import STOP_WORDS

LANGUAGE = Language("en", stop_words=STOP_WORDS, question_words=QUESTION_WORDS)
