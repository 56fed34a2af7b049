"""French: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.fr.question_words import QUESTION_WORDS
from lang.fr.stop_words import STOP_WORDS

LANGUAGE = Language("fr", stop_words=STOP_WORDS, question_words=QUESTION_WORDS)
