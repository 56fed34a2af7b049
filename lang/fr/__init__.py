"""French: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.fr.courtesies import COURTESIES, REQUEST_QUESTIONS
from lang.fr.cue_words import CUE_LETTERS, CUE_SPELLING, CUE_WORDS
from lang.fr.endings import DEMONYM_ENDINGS, INFLECTION_ENDING
from lang.fr.examples import EXAMPLES
from lang.fr.numbers import FILTER_WORDS_BEFORE, NUMBER_WORDS
from lang.fr.pronouns import PRONOUNS
from lang.fr.question_words import QUESTION_WORDS
from lang.fr.shape_words import SHAPE_WORDS
from lang.fr.stop_words import STOP_WORDS
from lang.fr.templates import COMPLEX_TEMPLATES, MILLION

LANGUAGE = Language(
    "fr",
    typing_word="est un",
    demonym_endings=DEMONYM_ENDINGS,
    titles=('dr', 'docteur', 'monsieur', 'madame', 'mme', 'professeur'),
    numbers=NUMBER_WORDS,
    cue_letters=CUE_LETTERS, cue_spelling=CUE_SPELLING,
    courtesies=COURTESIES,
    request_questions=REQUEST_QUESTIONS,
    year_questions=(
        ("en quelle année", "Quand {} ?"),
        ("quelle année", "Quand {} ?"),
    ),
    stemmer="french",
    name_articles=("le", "la", "les", "l'"),
    name_letters="àâæçéèêëîïôœùû",
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
