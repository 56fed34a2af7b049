"""What flows between the stages: a SPARQL query candidate and its query shape."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Candidate:
    """A ranked SPARQL query candidate, as QAnswer's ``/api/qa/full`` returns them.

    ``score`` is the backend's own confidence (higher is better); ``features`` are
    optional diagnostics from the local generator (never needed by consumers).
    """

    sparql: str
    score: float
    features: tuple[tuple[str, float], ...] = ()


COMPLEX_SHAPES = ("count", "ask", "order", "filter")


def shape_of(sparql: str) -> str:
    """The candidate's query shape: ``count``, ``ask``, ``order`` (ORDER BY: superlatives,
    two-entity comparisons), ``filter`` (comparatives) or ``plain``."""
    text = sparql.upper()
    head = text.split("{", 1)[0]
    if "ASK" in head.split():
        return "ask"
    if "COUNT(" in text.replace(" ", ""):
        return "count"
    if "ORDER BY" in text:
        return "order"
    if "FILTER" in text:
        return "filter"
    return "plain"


def is_complex(sparql: str) -> bool:
    """Whether a candidate has one of the :data:`COMPLEX_SHAPES`."""
    return shape_of(sparql) in COMPLEX_SHAPES
