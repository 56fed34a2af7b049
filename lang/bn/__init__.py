"""Bengali: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.bn.pronouns import PRONOUNS
from lang.bn.stop_words import STOP_WORDS

LANGUAGE = Language(
    "bn",
    script="bengali",
    own_scripts=("Bengali",),
    pronouns=PRONOUNS,
    seed=True,
    stop_words=STOP_WORDS,
)
