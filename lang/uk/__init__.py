"""Ukrainian: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.uk.examples import EXAMPLES
from lang.uk.pronouns import PRONOUNS

LANGUAGE = Language("uk", pronouns=PRONOUNS, examples=EXAMPLES)
