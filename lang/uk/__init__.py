"""Ukrainian: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.uk.question_words import QUESTION_WORDS
from lang.uk.stop_words import STOP_WORDS

LANGUAGE = Language("uk", stop_words=STOP_WORDS, question_words=QUESTION_WORDS)
