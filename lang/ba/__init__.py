"""Bashkir: everything the product knows of the language (see :mod:`lang`)."""

from lang.ba.pronouns import PRONOUNS
from lang.base import Language

LANGUAGE = Language("ba", pronouns=PRONOUNS, seed=True)
