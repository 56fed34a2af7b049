"""Japanese: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.ja.courtesies import COURTESIES
from lang.ja.examples import EXAMPLES
from lang.ja.numbers import FILTER_WORDS_AFTER, NUMBER_WORDS
from lang.ja.pronouns import PRONOUNS
from lang.ja.question_words import QUESTION_WORDS
from lang.ja.shape_words import SHAPE_WORDS
from lang.ja.stop_words import STOP_WORDS

LANGUAGE = Language(
    "ja",
    titles=('博士', '先生', 'さん', '氏', '様', '教授'),
    numbers=NUMBER_WORDS,
    courtesies=COURTESIES,
    foreign_spelling=r"ヴ(?=$|[・\s])",
    script="cjk", own_scripts=("Hiragana", "Katakana"),
    shape_words=SHAPE_WORDS,
    filter_words_after=FILTER_WORDS_AFTER,
    pronouns=PRONOUNS,
    examples=EXAMPLES,
    stop_words=STOP_WORDS,
    question_words=QUESTION_WORDS,
)
