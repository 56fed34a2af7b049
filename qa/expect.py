"""Part of the execute stage: does the kept answer have the type the question asks for?

A "how many" question (in any supported language, as the property lexicon's question
words say) asked of a plain candidate that lists entities is answered with a list, not a
number: a count question's plain answer must be numbers (a stored count such as "number
of children"); otherwise the pipeline says it does not know.  The COUNT shape answers
such questions itself."""

from __future__ import annotations

from typing import Protocol

from kg.client import QueryResult, value_kind


class AnswerTypes(Protocol):
    """The type a question's question word announces (``"count"``, ``"person"``, … or ``None``)."""

    def expected_answer_type(self, question: str, lang: str) -> str | None: ...


def count_mismatch(expected: str | None, shape: str, result: QueryResult) -> bool:
    """Whether a count was asked but a plain candidate's answers are not all numbers."""
    if expected != "count" or shape != "plain" or result.boolean is not None:
        return False
    terms = [t for t in result.column() if t is not None]
    return any(value_kind(t) != "number" for t in terms)
