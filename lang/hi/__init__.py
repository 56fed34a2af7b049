"""Hindi: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.hi.pronouns import PRONOUNS

LANGUAGE = Language("hi", pronouns=PRONOUNS, seed=True)
