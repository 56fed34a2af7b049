"""Armenian: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.hy.pronouns import PRONOUNS

LANGUAGE = Language("hy", pronouns=PRONOUNS, seed=True)
