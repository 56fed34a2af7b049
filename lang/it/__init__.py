"""Italian: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.it.examples import EXAMPLES
from lang.it.pronouns import PRONOUNS

LANGUAGE = Language("it", pronouns=PRONOUNS, examples=EXAMPLES)
