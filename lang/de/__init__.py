"""German: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.de.courtesies import COURTESIES
from lang.de.cue_words import CUE_LETTERS, CUE_WORDS
from lang.de.endings import INFLECTION_ENDING
from lang.de.examples import EXAMPLES
from lang.de.numbers import FILTER_WORDS_BEFORE, NUMBER_WORDS
from lang.de.pronouns import PRONOUNS
from lang.de.question_words import QUESTION_WORDS
from lang.de.shape_words import SHAPE_WORDS
from lang.de.stop_words import STOP_WORDS
from lang.de.templates import COMPLEX_TEMPLATES, MILLION
from lang.de.typed_letters import TYPED_LETTERS

LANGUAGE = Language(
    "de",
    typing_word="ist ein",
    titles=('dr', 'herr', 'frau', 'prof', 'professor'),
    numbers=NUMBER_WORDS,
    cue_letters=CUE_LETTERS,
    courtesies=COURTESIES,
    year_questions=(
        ("in welchem jahr", "Wann {}?"),
    ),
    stemmer="german",
    name_articles=("der", "die", "das", "den"),
    name_letters="äöüßé",
    typed_letters=TYPED_LETTERS,
    nouns_capitalized=True,
    shape_words=SHAPE_WORDS,
    complex_templates=COMPLEX_TEMPLATES,
    million=MILLION,
    cue_words=CUE_WORDS,
    filter_words_before=FILTER_WORDS_BEFORE,
    inflection_ending=INFLECTION_ENDING,
    pronouns=PRONOUNS,
    examples=EXAMPLES,
    stop_words=STOP_WORDS,
    question_words=QUESTION_WORDS,
)
