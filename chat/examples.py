"""Example questions shown under the chat (Gradio examples) and in the placeholder.

Every example is one the current pipeline answers correctly on the embedded KG
(``tests/chat/test_examples.py`` asks each one through the real pipeline and checks the
expected Wikidata ids).  Languages with no example the pipeline answers yet show the
English ones, under a heading that says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from chat.messages import MESSAGES, message


@dataclass(frozen=True)
class Example:
    """A question and the Wikidata ids its answer must be."""

    question: str
    expected: frozenset[str]


def _ex(question: str, *qids: str) -> Example:
    return Example(question, frozenset(qids))


SWISS_LANGUAGES = ("Q188", "Q652", "Q150")  # German, Italian, French

EXAMPLES: dict[str, tuple[Example, ...]] = {
    "en": (_ex("Where was Albert Einstein born?", "Q3012"), _ex("What is the capital of Germany?", "Q64"),
           _ex("What is the official language of Switzerland?", *SWISS_LANGUAGES),
           _ex("Where was Fernando Pessoa born?", "Q597")),
    "de": (_ex("Was ist die Hauptstadt von Polen?", "Q270"),
           _ex("Welche Amtssprache hat die Schweiz?", *SWISS_LANGUAGES)),
    "ru": (_ex("Где родился Альберт Эйнштейн?", "Q3012"), _ex("Какая столица Германии?", "Q64")),
    "zh": (_ex("瑞士的官方语言是什么？", *SWISS_LANGUAGES),),
    "ja": (_ex("スイスの公用語は何ですか？", *SWISS_LANGUAGES),),
    "fr": (_ex("Quelle est la capitale de l'Espagne ?", "Q2807"),),
    "it": (_ex("Dove è nato Albert Einstein?", "Q3012"),
           _ex("Quali sono le lingue ufficiali della Svizzera?", *SWISS_LANGUAGES)),
    "pt": (_ex("Onde nasceu Fernando Pessoa?", "Q597"), _ex("Onde nasceu Albert Einstein?", "Q3012")),
    "es": (_ex("¿Cuál es la capital de Italia?", "Q220"), _ex("¿Dónde nació Albert Einstein?", "Q3012")),
    "uk": (_ex("Яка столиця Франції?", "Q90"), _ex("Яка офіційна мова України?", "Q8798")),
}
"""Examples in their own language; a language missing here shows the English ones."""


def example_questions(lang: str, limit: int = 4) -> list[str]:
    """The clickable example questions for UI language ``lang`` (own language first)."""
    own = [e.question for e in EXAMPLES.get(lang, ())]
    return (own + [e.question for e in EXAMPLES["en"] if lang == "en" or not own])[:limit]


def examples_label(lang: str) -> str:
    """The heading over the examples; it says so when they are the English ones."""
    if lang in EXAMPLES:
        return message("ui_examples", lang)
    return message("ui_examples_english" if lang in MESSAGES["ui_examples_english"] else "ui_examples", lang)


def placeholder(lang: str) -> str:
    """The question box's placeholder: an answered example in ``lang``, or a plain prompt."""
    own = EXAMPLES.get(lang)
    if own and lang in MESSAGES["ui_placeholder_example"]:
        return message("ui_placeholder_example", lang, example=own[0].question)
    return message("ui_placeholder_plain", lang)

