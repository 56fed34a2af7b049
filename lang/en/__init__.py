"""English: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.en.examples import EXAMPLES
from lang.en.pronouns import PRONOUNS

LANGUAGE = Language("en", pronouns=PRONOUNS, examples=EXAMPLES)
