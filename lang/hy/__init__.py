"""Armenian: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.hy.pronouns import PRONOUNS
from lang.hy.stop_words import STOP_WORDS

LANGUAGE = Language(
    "hy",
    script="armenian",
    own_scripts=("Armenian",),
    pronouns=PRONOUNS,
    seed=True,
    stop_words=STOP_WORDS,
)
