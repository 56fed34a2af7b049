"""Chinese: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.zh.examples import EXAMPLES
from lang.zh.pronouns import PRONOUNS

LANGUAGE = Language("zh", pronouns=PRONOUNS, examples=EXAMPLES)
