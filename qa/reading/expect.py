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
question and the pipeline says it does not know.

A question about a role ("Who played the role of Beetlejuice?", the lexicon's ``role``
cues in every language) is not answered by a plain list of a work's cast
(:data:`CAST_PROPERTIES`): that names everyone who acted in it."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Protocol

from kg.client import QueryResult, Term, value_kind
from qa.candidate import Link

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


# a work's cast ("cast member", "voice actor"): who acted in it, not whom each one played
# (Wikidata says that in a qualifier, which the truthy KG does not hold)
CAST_PROPERTIES: frozenset[str] = frozenset({"P161", "P725"})


class AnswerTypes(Protocol):
    """What a question's words announce: the type its question word asks for (``"count"``,
    ``"person"``, … or ``None``), its cue words by family (``{"role": ["role"], …}``), and
    how each property is said (the coverage decision aligns a candidate's properties with
    the question's words by them)."""

    def expected_answer_type(self, question: str, lang: str) -> str | None: ...

    def find_cues(self, question: str, lang: str) -> dict[str, list[str]]: ...

    def phrases(self, pid: str, lang: str) -> list[str]:
        """The ways ``lang`` says property ``pid`` ("born", "birthplace" for ``P19``)."""
        ...

    def property_words(self, question: str, lang: str) -> frozenset[str]:
        """The words of the question that some property's phrase says."""
        ...

    def answer_type(self, pid: str) -> str | None:
        """The kind of value property ``pid`` yields (``person``, ``place`` …), or ``None``."""
        ...


def count_mismatch(expected: str | None, shape: str, result: QueryResult) -> bool:
    """Whether a count was asked but a plain candidate's answers are not all numbers."""
    if expected != "count" or shape != "plain" or result.boolean is not None:
        return False
    return any(value_kind(t) != "number" for t in _answers(result))


def role_mismatch(cues: Mapping[str, Sequence[str]], shape: str, properties: Sequence[str]) -> bool:
    """Whether a question about a role ("Who played the role of Beetlejuice?", « ビートルジュー
    スの役を演じた俳優は誰ですか？ ») is answered by a plain list of a work's cast: it names
    everyone who acted in the work, not who played that role."""
    return "role" in cues and shape == "plain" and bool(properties) and set(properties) <= CAST_PROPERTIES


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
