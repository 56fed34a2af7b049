"""Hindi: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language

LANGUAGE = Language("hi", seed=True)
