"""Lithuanian: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.lt.pronouns import PRONOUNS

LANGUAGE = Language("lt", pronouns=PRONOUNS, seed=True)
