"""Dutch: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.nl.cue_words import CUE_WORDS
from lang.nl.pronouns import PRONOUNS

LANGUAGE = Language("nl", seed=True, cue_words=CUE_WORDS, pronouns=PRONOUNS)
