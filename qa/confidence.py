"""The answer-confidence stage's contract: given the backend's candidates, which one to
keep and the calibrated probability that its answers are right (``None`` index: abstain).

The pipeline only knows this protocol; :mod:`validator.confidence` implements it (a model
trained by :mod:`training.confidence`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from qa.candidate import Candidate


@dataclass(frozen=True)
class Decision:
    """What the confidence stage decided for one question.

    ``probabilities[i]`` is the calibrated probability that candidate ``i`` (of the first
    ``len(probabilities)``) is right; ``index`` is the kept one (the most probable, when it
    reaches ``threshold``), ``None`` to abstain.  ``validator_scores``/``verbalizations``
    are those of the same first candidates (empty when the cross-encoder was not used)."""

    index: int | None
    probability: float
    probabilities: tuple[float, ...]
    threshold: float
    validator_scores: tuple[float, ...] = ()
    verbalizations: tuple[str, ...] = ()


class Confidence(Protocol):
    """Decides which candidate to show, with its calibrated probability."""

    def decide(self, question: str, lang: str, candidates: Sequence[Candidate]) -> Decision: ...
