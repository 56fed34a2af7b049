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
:meth:`Gate.decide`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from qa.candidate import EXACT_LINKS, Candidate, Link
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


NARROW_FLOOR = 0.5
"""The validator score at which the reading narrowed to the class the question names is read
as what was asked (more likely than not)."""


def narrowed(candidates: Sequence[Candidate], scores: Sequence[float | None], chosen: int | None) -> int | None:
    """The kept reading narrowed to the class the user named: where the gate kept a reading
    with no type constraint, and a scored reading is the same one with its answers limited to
    a class the question names (``?answer wdt:P31 wd:C``, ``C`` linked exactly as a class
    word), that one is kept when the validator reads it as what was asked
    (:data:`NARROW_FLOOR`): « what movies johnny depp is in? » answers his films, not every
    work he is cast in.  Otherwise ``chosen``."""
    if chosen is None:
        return None
    kept = candidates[chosen]
    if kept.comparison is not None or not kept.triples or any(link.is_class for link in kept.links):
        return chosen
    base = set(kept.triples)
    for i, (other, score) in enumerate(zip(candidates, scores, strict=True)):
        if i == chosen or score is None or score < NARROW_FLOOR or other.shape != kept.shape:
            continue
        extra = set(other.triples) - base
        if len(other.triples) != len(base) + 1 or not base <= set(other.triples) or len(extra) != 1:
            continue
        ((subject, predicate, obj),) = extra
        if subject != "?answer" or predicate != "wdt:P31" or not obj.startswith("wd:"):
            continue
        if any(link.qid == obj[3:] and link.is_class and link.kind in EXACT_LINKS and link.span is not None
               for link in other.links):
            return i
    return chosen
