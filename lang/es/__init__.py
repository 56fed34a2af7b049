"""Spanish: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.es.examples import EXAMPLES
from lang.es.pronouns import PRONOUNS

LANGUAGE = Language("es", pronouns=PRONOUNS, examples=EXAMPLES)
