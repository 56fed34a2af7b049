"""Stage 4, score: how likely each (question, verbalization) pair says the same thing
(implemented by :class:`validator.model.CrossEncoder`, whose ``predict`` is
sentence-transformers' ``CrossEncoder.predict``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from core.text import borrow_accents


class Scorer(Protocol):
    """Scores (question, verbalization) pairs."""

    def predict(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """A probability in [0, 1] per pair, in input order."""
        ...


def best_reading_scores(scorer: Scorer, question: str, readings: Sequence[Sequence[str]]) -> list[float]:
    """Each candidate's score: the highest of its readings' (one ``predict`` call for the
    whole list, as in calibration).  A word of the question typed without its accents is
    paired as the reading writes it (:func:`core.text.borrow_accents`)."""
    pairs = [(borrow_accents(question, text), text) for texts in readings for text in texts]
    scores = iter(scorer.predict(pairs)) if pairs else iter(())
    return [max(next(scores) for _ in texts) for texts in readings]
