"""French: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.fr.examples import EXAMPLES
from lang.fr.pronouns import PRONOUNS

LANGUAGE = Language("fr", pronouns=PRONOUNS, examples=EXAMPLES)
