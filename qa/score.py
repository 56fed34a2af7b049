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
