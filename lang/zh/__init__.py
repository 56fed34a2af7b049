"""Chinese: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.zh.courtesies import COURTESIES
from lang.zh.examples import EXAMPLES
from lang.zh.names import LABEL_FALLBACKS
from lang.zh.numbers import FILTER_WORDS_AFTER, FILTER_WORDS_BEFORE, NUMBER_WORDS
from lang.zh.pronouns import PRONOUNS
from lang.zh.question_words import QUESTION_WORDS
from lang.zh.shape_words import SHAPE_WORDS
from lang.zh.stop_words import STOP_WORDS
from lang.zh.templates import COMPLEX_TEMPLATES

LANGUAGE = Language(
    "zh",
    titles=('博士', '先生', '女士', '教授'),
    numbers=NUMBER_WORDS,
    courtesies=COURTESIES,
    script="cjk", own_scripts=("Han",),
    shape_words=SHAPE_WORDS,
    complex_templates=COMPLEX_TEMPLATES,
    label_fallbacks=LABEL_FALLBACKS,
    filter_words_after=FILTER_WORDS_AFTER,
    filter_words_before=FILTER_WORDS_BEFORE,
    pronouns=PRONOUNS,
    examples=EXAMPLES,
    stop_words=STOP_WORDS,
    question_words=QUESTION_WORDS,
)
