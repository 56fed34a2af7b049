"""Ukrainian: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.uk.pronouns import PRONOUNS

LANGUAGE = Language("uk", pronouns=PRONOUNS)
