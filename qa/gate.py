"""The gate stage: keep one candidate whose validator score clears the threshold, or
abstain (implemented by :class:`validator.gate.GatePolicy`; the pipeline holds the
calibrated ``threshold`` and passes it in, so one policy serves every threshold during
calibration)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from qa.turn import Compared


class Gate(Protocol):
    """Decides, from backend and validator scores, which candidate (if any) is kept.

    ``complex_mask[i]`` tells that candidate ``i`` has a complex shape (COUNT, ASK,
    ORDER BY, FILTER), which a policy may gate by a threshold of its own."""

    def reachable(self, backend_score: float, threshold: float, complex_shape: bool = False) -> bool:
        """Whether a candidate with this backend score could pass with a perfect validator
        score (when none of a list can, the pipeline abstains without scoring)."""
        ...

    def passes(self, backend_scores: Sequence[float], validator_scores: Sequence[float], threshold: float,
               complex_mask: Sequence[bool] = ()) -> list[bool]:
        """Per candidate: whether it clears its threshold."""
        ...

    def choose(self, backend_scores: Sequence[float], validator_scores: Sequence[float], threshold: float,
               complex_mask: Sequence[bool] = ()) -> int | None:
        """The index of the kept candidate (one of those that pass), or ``None`` to abstain."""
        ...

    def compared(self, validator_score: float, backend_score: float, threshold: float, complex_shape: bool = False,
                 *, yes_no: bool = False) -> Compared:
        """The score this gate compares for one candidate and the threshold it compares it
        with, by name (the explanation shows exactly these)."""
        ...


class Probability(Protocol):
    """The calibrated probability that an answer kept on a comparison is right
    (implemented by :class:`validator.probability.AnswerProbability`)."""

    def __call__(self, compared: Compared) -> float | None:
        """The probability for the kept candidate's comparison; ``None`` where the
        calibration does not cover it."""
        ...
