"""Ukrainian: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.uk.courtesies import COURTESIES
from lang.uk.cue_words import CUE_LETTERS, CUE_WORDS
from lang.uk.endings import INFLECTION_ENDING
from lang.uk.examples import EXAMPLES
from lang.uk.kin import KIN_SPELLING
from lang.uk.numbers import FILTER_WORDS_BEFORE, NUMBER_WORDS
from lang.uk.pronouns import PRONOUNS
from lang.uk.question_words import QUESTION_WORDS
from lang.uk.shape_words import SHAPE_WORDS
from lang.uk.stop_words import STOP_WORDS
from lang.uk.templates import COMPLEX_TEMPLATES

LANGUAGE = Language(
    "uk",
    numbers=NUMBER_WORDS,
    cue_letters=CUE_LETTERS,
    courtesies=COURTESIES,
    script="cyrillic", lemmatizer="uk", cased_names=True, kin_spelling=KIN_SPELLING,
    name_letters="абвгґдеєжзиіїйклмнопрстуфхцчшщьюя'",
    year_questions=(
        ("в якому році", "Коли {}?"),
        ("у якому році", "Коли {}?"),
        ("якого року", "Коли {}?"),
    ),
    shape_words=SHAPE_WORDS,
    complex_templates=COMPLEX_TEMPLATES,
    cue_words=CUE_WORDS,
    filter_words_before=FILTER_WORDS_BEFORE,
    inflection_ending=INFLECTION_ENDING,
    pronouns=PRONOUNS,
    examples=EXAMPLES,
    stop_words=STOP_WORDS,
    question_words=QUESTION_WORDS,
)
