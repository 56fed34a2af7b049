"""Dutch: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.nl.cue_words import CUE_LETTERS, CUE_WORDS
from lang.nl.pronouns import PRONOUNS
from lang.nl.shape_words import SHAPE_WORDS
from lang.nl.stop_words import STOP_WORDS

LANGUAGE = Language(
    "nl",
    typing_word="is een",
    titles=('dr', 'meneer', 'mevrouw', 'prof', 'professor'),
    cue_letters=CUE_LETTERS,
    year_questions=(
        ("in welk jaar", "Wanneer {}?"),
    ),
    stemmer="dutch",
    seed=True,
    name_articles=("de", "het", "den", "'s"),
    name_letters="áéèëïóöüú",
    cue_words=CUE_WORDS,
    pronouns=PRONOUNS,
    stop_words=STOP_WORDS,
    shape_words=SHAPE_WORDS,
)
