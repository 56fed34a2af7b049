"""The gate stage: keep one candidate, or abstain.

Two implementations of :class:`Gate`:

* :class:`validator.gate.LearnedGate` (shipped): the validator judges the first
  :attr:`Gate.judged` readings whatever their backend score, and one calibrated probability
  (:class:`validator.probability.AnswerModel`, fitted on the dev splits) is read off the
  evidence of each (:class:`Reading`); the most probable one is kept when it reaches the
  model's threshold;
* :class:`validator.gate.GatePolicy`: the older score gates (validator score, optionally
  blended with the backend score), kept for calibration and for models shipped without an
  answer model.

The pipeline builds one :class:`Reading` per scored candidate and asks the gate to
:meth:`Gate.decide`.  When the gate keeps none, the plain readings the validator judged are
run (bounded, a few one-hop queries) and the gate asked again, each reading now carrying the
values it answers with: two readings that answer alike are one answer said two ways, and
neither is the other's rival in the margins the gate weighs
(:func:`validator.probability.features`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from qa.candidate import Link
from qa.turn import Compared


@dataclass(frozen=True)
class Reading:
    """The evidence on one candidate that the gate may weigh: its validator score (``None``:
    not scored), its backend score and rank (0 = the backend's best), its shape, whether the
    gate treats the shape as complex, the question's language and how its entities were
    linked."""

    validator_score: float | None
    backend_score: float
    rank: int
    shape: str = ""
    complex_shape: bool = False
    lang: str = "en"
    links: tuple[Link, ...] = ()
    answers: frozenset[str] | None = None  # the values the reading's query returns (None: not run)
    worded: bool = False  # the backend read every word of the question (:attr:`qa.candidate.Candidate.worded`)

    def agrees(self, other: Reading) -> bool:
        """Whether ``other`` answers as this reading does: both were run and returned the same
        values, some (« Japan capital ?answer » and the same with « ?answer instance of
        capital »; spouse read either way round): it is no rival reading."""
        return bool(self.answers) and self.answers == other.answers


@dataclass(frozen=True)
class Decision:
    """The gate's verdict on a list: per candidate what it compared (``None`` for one not
    scored) and the kept index (``None``: abstain)."""

    compared: tuple[Compared | None, ...]
    chosen: int | None

    def passed(self, i: int) -> bool | None:
        """Whether candidate ``i`` cleared its threshold (``None``: not judged)."""
        c = self.compared[i]
        return None if c is None else c.score >= c.threshold


class Gate(Protocol):
    """Decides from the evidence on each reading which candidate (if any) is kept."""

    judged: int
    """How many of the first candidates are scored whatever their backend score."""

    def reachable(self, backend_score: float, threshold: float, complex_shape: bool = False) -> bool:
        """Whether a candidate beyond the first :attr:`judged` is worth scoring: it could pass
        with a perfect validator score (when no candidate can, the pipeline abstains without
        scoring)."""
        ...

    def decide(self, readings: Sequence[Reading], threshold: float) -> Decision:
        """Per candidate what is compared with which threshold, and the kept index."""
        ...
