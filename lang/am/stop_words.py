"""Amharic function words: the ``stopwords-iso`` list with the words the product always read as
function or question words of Amharic (see :mod:`lang.stopwords`)."""

from lang.stopwords import stop_words

OWN = ""
"""No function words of its own beyond the maintained list."""

STOP_WORDS: frozenset[str] = stop_words("am")
