"""Example questions shown under the chat (Gradio examples) and in the placeholder.

Every example is one the current pipeline answers correctly on the embedded KG
(``tests/chat/test_examples.py`` asks each one through the real pipeline and checks the
expected Wikidata ids); each language's are in ``lang/<code>/examples.py``.  Languages with
no example the pipeline answers yet show the English ones, under a heading that says so.
"""

from __future__ import annotations

from chat.messages import MESSAGES, message
from lang import SUPPORTED
from lang import get as language
from lang.base import Example

__all__ = ["EXAMPLES", "Example", "example_questions", "examples_label", "placeholder"]

EXAMPLES: dict[str, tuple[Example, ...]] = {code: language(code).examples for code in SUPPORTED
                                            if language(code).examples}
"""Examples in their own language (``lang/<code>/examples.py``); a language missing here
shows the English ones."""


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

