"""Russian: everything the product knows of the language (see :mod:`lang`)."""

from lang.base import Language
from lang.ru.courtesies import COURTESIES
from lang.ru.cue_words import CUE_LETTERS, CUE_WORDS
from lang.ru.endings import INFLECTION_ENDING, NAME_ENDING
from lang.ru.examples import EXAMPLES
from lang.ru.numbers import FILTER_WORDS_BEFORE, NUMBER_WORDS
from lang.ru.pronouns import PRONOUNS
from lang.ru.question_words import QUESTION_WORDS
from lang.ru.shape_words import SHAPE_WORDS
from lang.ru.stop_words import STOP_WORDS
from lang.ru.templates import COMPLEX_TEMPLATES, MILLION

LANGUAGE = Language(
    "ru",
    typing_word="это",
    titles=('доктор', 'профессор', 'господин', 'госпожа'),
    numbers=NUMBER_WORDS,
    cue_letters=CUE_LETTERS,
    courtesies=COURTESIES,
    script="cyrillic", stemmer="russian", cased_names=True,
    name_letters="абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
    year_questions=(
        ("в каком году", "Когда {}?"),
    ),
    shape_words=SHAPE_WORDS,
    complex_templates=COMPLEX_TEMPLATES,
    million=MILLION,
    cue_words=CUE_WORDS,
    filter_words_before=FILTER_WORDS_BEFORE,
    inflection_ending=INFLECTION_ENDING,
    name_ending=NAME_ENDING,
    pronouns=PRONOUNS,
    examples=EXAMPLES,
    stop_words=STOP_WORDS,
    question_words=QUESTION_WORDS,
)
