"""Spanish: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.es.courtesies import COURTESIES, REQUEST_QUESTIONS
from lang.es.cue_words import CUE_LETTERS, CUE_WORDS
from lang.es.endings import DEMONYM_ENDINGS, INFLECTION_ENDING
from lang.es.examples import EXAMPLES
from lang.es.numbers import FILTER_WORDS_BEFORE, NUMBER_WORDS
from lang.es.pronouns import PRONOUNS
from lang.es.question_words import QUESTION_WORDS
from lang.es.shape_words import SHAPE_WORDS
from lang.es.stop_words import STOP_WORDS
from lang.es.templates import COMPLEX_TEMPLATES, MILLION

LANGUAGE = Language(
    "es",
    typing_word="es",
    demonym_endings=DEMONYM_ENDINGS,
    titles=('dr', 'doctor', 'sr', 'sra', 'señor', 'señora', 'profesor'),
    numbers=NUMBER_WORDS,
    cue_letters=CUE_LETTERS,
    courtesies=COURTESIES,
    request_questions=REQUEST_QUESTIONS,
    year_questions=(
        ("en qué año", "¿Cuándo {}?"),
        ("en que año", "¿Cuándo {}?"),
        ("en qué fecha", "¿Cuándo {}?"),
        ("en que fecha", "¿Cuándo {}?"),
    ),
    stemmer="spanish",
    name_articles=("el", "la", "los", "las"),
    foreign_spelling=r"ph|(?<=[bcdfgjklmnpqrstvxz])y(?=[aeiouáéíóú])",
    stress_accents=True,
    name_letters="áéíñóúü",
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
