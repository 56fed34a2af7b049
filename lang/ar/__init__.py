"""Arabic: everything the product knows of the language (see :mod:`lang`)."""

from lang.ar.pronouns import PRONOUNS
from lang.base import Language

LANGUAGE = Language("ar", pronouns=PRONOUNS, seed=True)
