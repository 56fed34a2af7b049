"""The score stage: how likely each (question, verbalization) pair says the same thing
(implemented by :class:`validator.model.CrossEncoder`, whose ``predict`` is
sentence-transformers' ``CrossEncoder.predict``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from core.text import as_question, borrow_accents, borrow_case, without_asides, without_description, without_titles
from lang import get as language
from lang import is_supported
from qa.candidate import Link

# languages whose questions the validator learned in lower case (SimpleQuestions and
# WebQuestions are typed so); in every other language it learned cased questions
LOWER_CASE_TRAINED: frozenset[str] = frozenset({"en"})


class Scorer(Protocol):
    """Scores (question, verbalization) pairs."""

    def predict(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """A probability in [0, 1] per pair, in input order."""
        ...


def best_reading_scores(scorer: Scorer, question: str, readings: Sequence[Sequence[str]],
                        lang: str = "en", links: Sequence[Sequence[Link]] = ()) -> list[float]:
    """Each candidate's score: the highest of its readings' (one ``predict`` call for the
    whole list, as in calibration).  A word of the question typed without its accents is
    paired as the reading writes it (:func:`core.text.borrow_accents`); so is a word typed
    in lower case, in a question of ``lang`` all in lower case, where the validator learned
    cased questions (:data:`LOWER_CASE_TRAINED`: "wo wurde albert einstein geboren?" 0.78,
    with "Albert Einstein" 0.88 or more).  A question with a parenthesized aside ("bill walsh
    (producer)") is also paired without it (:func:`core.text.without_asides`), and the
    higher score counts; so is one with an honorific said with a name (« ホーキング博士 »:
    :func:`core.text.without_titles`, the titles of :attr:`lang.base.Language.titles`); so is
    a request for answers put as the question it stands for (« Dame todas las películas … »
    as « ¿Cuáles son las películas …? »: :func:`core.text.as_question`, the requests of
    :attr:`lang.base.Language.request_questions`), and a question for a year as asked with "when"
    (:attr:`lang.base.Language.year_questions`); so is one whose candidate's ``links`` know a
    noun typed before a name that says what its entity is ("the *painter* Velázquez",
    :attr:`qa.candidate.Link.described`), without the noun (:func:`core.text.without_description`)."""
    known = language(lang) if is_supported(lang) else None
    titles, requests, years = ((known.titles, known.request_questions, known.year_questions) if known is not None
                               else ((), (), ()))
    asked = list(dict.fromkeys((question, without_asides(question), without_titles(question, titles),
                                as_question(question, requests), as_question(question, years))))
    forms = [_undescribed(asked, links[i] if i < len(links) else ()) for i in range(len(readings))]
    pairs = [(_as_read(q, text, lang), text) for texts, own in zip(readings, forms, strict=True)
             for text in texts for q in own]
    scores = iter(scorer.predict(pairs)) if pairs else iter(())
    return [max(next(scores) for _ in range(len(texts) * len(own))) for texts, own in zip(readings, forms, strict=True)]


def _undescribed(asked: list[str], links: Sequence[Link]) -> list[str]:
    """``asked`` and, where a link knows the noun typed before its name, each without it."""
    described = [link for link in links if link.described]
    if not described:
        return asked
    out = list(asked)
    for q in asked:
        for link in described:
            q = without_description(q, link.described, link.mention)
        out.append(q)
    return list(dict.fromkeys(out))


def _as_read(question: str, reading: str, lang: str) -> str:
    """The question as it is paired with ``reading``."""
    question = borrow_accents(question, reading)
    return question if lang in LOWER_CASE_TRAINED else borrow_case(question, reading)
