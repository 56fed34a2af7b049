"""Portuguese: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.pt.courtesies import COURTESIES, REQUEST_QUESTIONS
from lang.pt.cue_words import CUE_LETTERS, CUE_WORDS
from lang.pt.endings import DEMONYM_ENDINGS, INFLECTION_ENDING
from lang.pt.examples import EXAMPLES
from lang.pt.names import LABEL_FALLBACKS
from lang.pt.numbers import FILTER_WORDS_BEFORE, NUMBER_WORDS
from lang.pt.pronouns import PRONOUNS
from lang.pt.question_words import QUESTION_WORDS
from lang.pt.shape_words import SHAPE_WORDS
from lang.pt.stop_words import STOP_WORDS
from lang.pt.templates import COMPLEX_TEMPLATES

LANGUAGE = Language(
    "pt",
    typing_word="é um",
    demonym_endings=DEMONYM_ENDINGS,
    titles=('dr', 'doutor', 'senhor', 'senhora', 'prof', 'professor'),
    numbers=NUMBER_WORDS,
    cue_letters=CUE_LETTERS,
    courtesies=COURTESIES,
    request_questions=REQUEST_QUESTIONS,
    year_questions=(
        ("em que ano", "Quando {}?"),
        ("em qual ano", "Quando {}?"),
        ("em que data", "Quando {}?"),
    ),
    stemmer="portuguese",
    name_articles=("o", "a", "os", "as"),
    stress_accents=True,
    name_letters="ãáâàçéêíõóôú",
    shape_words=SHAPE_WORDS,
    complex_templates=COMPLEX_TEMPLATES,
    cue_words=CUE_WORDS,
    label_fallbacks=LABEL_FALLBACKS,
    filter_words_before=FILTER_WORDS_BEFORE,
    inflection_ending=INFLECTION_ENDING,
    pronouns=PRONOUNS,
    examples=EXAMPLES,
    stop_words=STOP_WORDS,
    question_words=QUESTION_WORDS,
)
