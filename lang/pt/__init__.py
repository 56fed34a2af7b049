"""Portuguese: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.pt.examples import EXAMPLES
from lang.pt.pronouns import PRONOUNS

LANGUAGE = Language("pt", pronouns=PRONOUNS, examples=EXAMPLES)
