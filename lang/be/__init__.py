"""Belarusian: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.be.pronouns import PRONOUNS

LANGUAGE = Language("be", pronouns=PRONOUNS, seed=True)
