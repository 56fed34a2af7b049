"""Part of the execute stage: does the kept answer have the type the question asks for?

A "how many" question (in any supported language, as the property lexicon's question
words say) asked of a plain candidate that lists entities is answered with a list, not a
number: a count question's plain answer must be numbers (a stored count such as "number
of children"); otherwise the pipeline says it does not know.  The COUNT shape answers
such questions itself.

A number the question states ("in 2013", "the 40th president", "more than 20 million")
is a constraint: a plain candidate (entities and properties, no values) must account
for it, as part of a linked name ("Gold Diggers of 1933") or as the size of its answer
list ("what 3 countries does Mexico border?"); otherwise it answers a different, looser
question and the pipeline says it does not know."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Protocol

from kg.client import QueryResult, Term, value_kind
from qa.candidate import Link

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


class AnswerTypes(Protocol):
    """The type a question's question word announces (``"count"``, ``"person"``, … or ``None``)."""

    def expected_answer_type(self, question: str, lang: str) -> str | None: ...


def count_mismatch(expected: str | None, shape: str, result: QueryResult) -> bool:
    """Whether a count was asked but a plain candidate's answers are not all numbers."""
    if expected != "count" or shape != "plain" or result.boolean is not None:
        return False
    return any(value_kind(t) != "number" for t in _answers(result))


def numbers_in(text: str) -> list[str]:
    """The numbers written in ``text`` with digits (any script's digits, as ASCII)."""
    return _NUMBER.findall(unicodedata.normalize("NFKC", text))


def unused_numbers(question: str, shape: str, said: Sequence[str], links: Sequence[Link],
                   result: QueryResult) -> list[str]:
    """The numbers of ``question`` a plain candidate leaves unaccounted for: not in the
    question text any of its entities was linked by, not in how the candidate is said
    (``said``: its verbalization, which names its entities) and not the number of its
    answers."""
    answers = _answers(result)
    if shape != "plain" or result.boolean is not None or not answers:
        return []
    named = {n for text in (*said, *(link.mention for link in links)) for n in numbers_in(text)}
    return [n for n in numbers_in(question) if n not in named and n != str(len(answers))]


def _answers(result: QueryResult) -> list[Term]:
    """The bound values of a result's answer column."""
    return [t for t in result.column() if t is not None]
