"""Russian: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.ru.examples import EXAMPLES
from lang.ru.pronouns import PRONOUNS

LANGUAGE = Language("ru", pronouns=PRONOUNS, examples=EXAMPLES)
