"""Bengali: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.bn.pronouns import PRONOUNS

LANGUAGE = Language("bn", pronouns=PRONOUNS, seed=True)
