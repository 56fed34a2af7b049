"""The execute stage: run the kept candidate on the KG (bounded), or evaluate a two-entity
comparison (both values fetched, compared in Python)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from kg.client import KG, Term
from kg.sparql import entity_iri, local_id, prop_iri, short
from qa.candidate import ComparisonSpec, Direction


def _e(qid: str) -> str:
    return short(entity_iri(qid))


def _p(pid: str) -> str:
    return short(prop_iri(pid))


# --------------------------------------------------------------------------- comparing values

_DATE_VALUE = re.compile(r"^(-?)(\d{1,9})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2}))?")


def value_key(term: Term) -> tuple[int, ...] | Decimal | None:
    """A sortable key for a literal: dates as ``(year, month, day, h, m, s)``, numbers as
    :class:`Decimal` of the lexical form (robust to forms the store cannot parse)."""
    if term.kind != "literal":
        return None
    dt = (term.datatype or "").rsplit("#", 1)[-1]
    m = _DATE_VALUE.match(term.value.strip())
    if m and (dt in ("dateTime", "date", "gYear") or not dt):
        sign = -1 if m.group(1) else 1
        rest = tuple(int(g or 0) for g in m.groups()[2:])
        return (sign * int(m.group(2)), *rest)
    try:
        return Decimal(term.value.strip())
    except InvalidOperation:
        return None


@dataclass(frozen=True)
class ComparisonOutcome:
    """The values found and the winner (1, 2, 0 for equal) or the unknown sides."""

    spec: ComparisonSpec
    value1: Term | None
    value2: Term | None
    winner: int | None
    missing: tuple[int, ...]

    def to_json(self) -> dict[str, object]:
        """The ``comparison`` object of ``kgqa ask --json``."""
        return {"entity1": self.spec.entity1, "entity2": self.spec.entity2, "property": self.spec.property,
                "winner": self.winner, "direction": self.spec.direction,
                "values": [v.value if v else None for v in (self.value1, self.value2)],
                "datatypes": [v.datatype if v else None for v in (self.value1, self.value2)]}


def best_value(terms: Sequence[Term], direction: Direction) -> Term | None:
    keyed = [(value_key(t), t) for t in terms]
    keyed = [(k, t) for k, t in keyed if k is not None]
    if not keyed:
        return None
    pick = min if direction == "ASC" else max
    return pick(keyed, key=lambda kt: kt[0])[1]


def evaluate_comparison(kg: KG, spec: ComparisonSpec, *, timeout_s: float | None = None) -> ComparisonOutcome:
    """Fetch both values of ``spec.property`` and decide: the entity whose value comes
    first in ``spec.direction`` wins; equal values give 0; a missing value gives no winner
    and names the unknown side(s).  Raises :class:`KGError` subclasses."""
    sparql = (f"SELECT ?e ?v WHERE {{ VALUES ?e {{ {_e(spec.entity1)} {_e(spec.entity2)} }} "
              f"?e {_p(spec.property)} ?v }}")
    rows = kg.query(sparql, timeout_s=timeout_s, max_rows=200).rows
    by_entity: dict[str, list[Term]] = {spec.entity1: [], spec.entity2: []}
    for row in rows:
        qid = local_id(row["e"].value) if "e" in row else None
        if qid in by_entity and "v" in row:
            by_entity[qid].append(row["v"])
    v1, v2 = best_value(by_entity[spec.entity1], spec.direction), best_value(by_entity[spec.entity2], spec.direction)
    missing = tuple(i for i, v in ((1, v1), (2, v2)) if v is None)
    if missing:
        return ComparisonOutcome(spec, v1, v2, None, missing)
    k1, k2 = value_key(v1), value_key(v2)  # type: ignore[arg-type]
    if type(k1) is not type(k2):
        return ComparisonOutcome(spec, v1, v2, None, (1, 2))
    if k1 == k2:
        winner = 0
    else:
        first_is_smaller = k1 < k2  # type: ignore[operator]
        winner = 1 if first_is_smaller == (spec.direction == "ASC") else 2
    return ComparisonOutcome(spec, v1, v2, winner, ())


