"""Bashkir: everything the product knows of the language (see :mod:`lang`)."""

from lang.ba.pronouns import PRONOUNS
from lang.ba.stop_words import STOP_WORDS
from lang.base import Language

LANGUAGE = Language("ba", script="cyrillic", pronouns=PRONOUNS, seed=True, stop_words=STOP_WORDS)
