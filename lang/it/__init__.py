"""Italian: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.it.courtesies import COURTESIES, REQUEST_QUESTIONS
from lang.it.cue_words import CUE_LETTERS, CUE_SPELLING, CUE_WORDS
from lang.it.endings import DEMONYM_ENDINGS, INFLECTION_ENDING
from lang.it.examples import EXAMPLES
from lang.it.numbers import FILTER_WORDS_BEFORE, NUMBER_WORDS
from lang.it.pronouns import PRONOUNS
from lang.it.question_words import QUESTION_WORDS
from lang.it.shape_words import SHAPE_WORDS
from lang.it.stop_words import STOP_WORDS
from lang.it.templates import COMPLEX_TEMPLATES

LANGUAGE = Language(
    "it",
    typing_word="è un",
    demonym_endings=DEMONYM_ENDINGS,
    titles=('dott', 'dottor', 'dottore', 'signor', 'signora', 'prof', 'professor', 'professore'),
    numbers=NUMBER_WORDS,
    cue_letters=CUE_LETTERS, cue_spelling=CUE_SPELLING,
    courtesies=COURTESIES,
    request_questions=REQUEST_QUESTIONS,
    year_questions=(
        ("in che anno", "Quando {}?"),
        ("in quale anno", "Quando {}?"),
        ("in che data", "Quando {}?"),
    ),
    stemmer="italian",
    name_articles=("il", "lo", "la", "i", "gli", "le", "l'"),
    name_letters="àèéìíîòóùú",
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
