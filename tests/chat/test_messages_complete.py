"""Every user-facing message is localized in every language the chat speaks, with the same
placeholders as the English text."""

from __future__ import annotations

from string import Formatter

import pytest

from chat.messages import MESSAGES
from qa.detect import SEED_LANGUAGES, SUPPORTED_LANGUAGES

PARTIAL = frozenset({"ui_placeholder", "ui_placeholder_example", "ui_examples_english"})
"""Variants used only in languages with (or without) own examples (see chat/examples.py)."""


def _literal(text: str) -> str:
    return "".join(literal for literal, _, _, _ in Formatter().parse(text))


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(text) if name}


@pytest.mark.parametrize("key", sorted(set(MESSAGES) - PARTIAL))
def test_every_message_is_in_every_chat_language_with_the_same_placeholders(key: str) -> None:
    table = MESSAGES[key]
    assert set(SUPPORTED_LANGUAGES) <= set(table), f"{key}: missing {set(SUPPORTED_LANGUAGES) - set(table)}"
    for lang in SUPPORTED_LANGUAGES:
        assert _fields(table[lang]) == _fields(table["en"]), (key, lang)
        assert table[lang].strip()


def test_seed_language_messages_are_not_english_copies() -> None:
    copies = [(key, lang) for key, table in MESSAGES.items() if key not in PARTIAL for lang in SEED_LANGUAGES
              if lang != "nl" and table.get(lang) == table["en"] and any(c.isalpha() for c in _literal(table["en"]))]
    assert not copies
