"""German: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.de.examples import EXAMPLES
from lang.de.pronouns import PRONOUNS

LANGUAGE = Language("de", pronouns=PRONOUNS, examples=EXAMPLES)
