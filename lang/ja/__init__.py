"""Japanese: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.ja.names import LABEL_FALLBACKS
from lang.ja.numbers import FILTER_WORDS_AFTER
from lang.ja.shape_words import SHAPE_WORDS

LANGUAGE = Language(
    "ja",
    shape_words=SHAPE_WORDS,
    label_fallbacks=LABEL_FALLBACKS,
    filter_words_after=FILTER_WORDS_AFTER,
)
