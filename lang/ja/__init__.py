"""Japanese: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.ja.examples import EXAMPLES
from lang.ja.pronouns import PRONOUNS

LANGUAGE = Language("ja", pronouns=PRONOUNS, examples=EXAMPLES)
