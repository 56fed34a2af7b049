"""English: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.en.courtesies import COURTESIES
from lang.en.cue_words import CUE_WORDS
from lang.en.examples import EXAMPLES
from lang.en.names import LABEL_FALLBACKS
from lang.en.numbers import FILTER_WORDS_AFTER, FILTER_WORDS_BEFORE, NUMBER_WORDS
from lang.en.pronouns import PRONOUNS
from lang.en.question_words import QUESTION_WORDS
from lang.en.shape_words import SHAPE_WORDS
from lang.en.stop_words import STOP_WORDS
from lang.en.templates import COMPLEX_TEMPLATES, MILLION

LANGUAGE = Language(
    "en",
    titles=('dr', 'mr', 'mrs', 'ms', 'prof', 'professor', 'sir'),
    name_articles=("the",),
    numbers=NUMBER_WORDS,
    courtesies=COURTESIES,
    year_questions=(
        ("in what year", "When {}?"),
        ("in which year", "When {}?"),
        ("what year", "When {}?"),
        ("which year", "When {}?"),
    ),
    class_word="instance of",
    stemmer="english",
    label_fallbacks=LABEL_FALLBACKS,
    shape_words=SHAPE_WORDS,
    complex_templates=COMPLEX_TEMPLATES,
    million=MILLION,
    cue_words=CUE_WORDS,
    filter_words_after=FILTER_WORDS_AFTER,
    filter_words_before=FILTER_WORDS_BEFORE,
    pronouns=PRONOUNS,
    examples=EXAMPLES,
    stop_words=STOP_WORDS,
    question_words=QUESTION_WORDS,
    stranded_prepositions=("about", "after", "as", "at", "by", "for", "from", "in", "into", "of", "on", "to",
                           "with"),
)
