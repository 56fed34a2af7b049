"""Dutch: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.nl.pronouns import PRONOUNS

LANGUAGE = Language("nl", pronouns=PRONOUNS, seed=True)
