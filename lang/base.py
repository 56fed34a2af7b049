"""What one language holds (:class:`Language`); each ``lang/xx/`` package builds one."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Language:
    """One supported language's word lists and rules, as spaCy's ``lang/xx/`` keeps them.

    Every field is data of this language only; code elsewhere asks :func:`lang.get` for it
    instead of keeping its own table keyed by language codes.  Fields a language does not
    fill stay empty (the code that reads them then has no evidence in that language)."""

    code: str
    seed: bool = False
    """A language of the seed challenges (QALD-9-plus, QALD-10, QALD-3) the KG has few names in."""
    stop_words: frozenset[str] = frozenset()
    """Function words: a word of the question that needs no explaining."""
    examples: tuple[str, ...] = ()
    """Questions in this language that the product answers (shown under the question box)."""
    question_words: dict[str, str] = field(default_factory=dict, compare=False, hash=False)
    """Question word or phrase -> the kind of answer it asks for (``person``, ``place``, ``number`` …)."""
    pronouns: frozenset[str] = frozenset()
    """Words that refer back to the previous turn's subject in a follow-up question."""
