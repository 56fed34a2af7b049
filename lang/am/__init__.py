"""Amharic: everything the product knows of the language (see :mod:`lang`)."""

from lang.am.pronouns import PRONOUNS
from lang.base import Language

LANGUAGE = Language("am", pronouns=PRONOUNS, seed=True)
