"""Stage 4, score: how likely each (question, verbalization) pair says the same thing
(implemented by :class:`validator.model.CrossEncoder`, whose ``predict`` is
sentence-transformers' ``CrossEncoder.predict``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class Scorer(Protocol):
    """Scores (question, verbalization) pairs."""

    def predict(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """A probability in [0, 1] per pair, in input order."""
        ...


def best_reading_scores(scorer: Scorer, question: str, readings: Sequence[Sequence[str]]) -> list[float]:
    """Each candidate's score: the highest of its readings' (one ``predict`` call for the
    whole list, as in calibration)."""
    pairs = [(question, text) for texts in readings for text in texts]
    scores = iter(scorer.predict(pairs)) if pairs else iter(())
    return [max(next(scores) for _ in texts) for texts in readings]
