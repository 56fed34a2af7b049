"""Chinese: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.zh.question_words import QUESTION_WORDS
from lang.zh.stop_words import STOP_WORDS

LANGUAGE = Language("zh", stop_words=STOP_WORDS, question_words=QUESTION_WORDS)
