"""Russian: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.ru.question_words import QUESTION_WORDS
from lang.ru.stop_words import STOP_WORDS

LANGUAGE = Language("ru", stop_words=STOP_WORDS, question_words=QUESTION_WORDS)
