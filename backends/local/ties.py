"""Tie queries written so that the store reads the smaller side first.

A tie query counts, per property, the members of a set that reach an entity:
``SELECT ?p (COUNT(DISTINCT ?answer) AS ?n) WHERE { ?answer ?p wd:E . ?answer wdt:P31 wd:C }
GROUP BY ?p``.  Oxigraph reads the class first whatever the order the patterns are written
in: for "films" (11,214 members) and a director with 13 incoming statements that is 80 ms,
where reading the director's 13 statements and testing each for the class
(``FILTER EXISTS``) takes 0.5 ms; for "countries" (214) and English (6,256 statements) the
class first is the fast way.  :class:`TieOrder` counts both sides (capped, cached per
entity and per class; a failed count leaves the patterns as written) and writes the
``FILTER EXISTS`` form only when the entity's side is the smaller by half.  Both forms
have the same rows (the class pattern binds nothing but ``?answer``); ties between counts
are ordered by the property (:data:`ORDER`), so that the ``LIMIT`` keeps the same
properties whichever form ran.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from backends.local.shapes import render_body
from core.errors import KGError
from kg.client import KG
from qa.candidate import Triple

ANSWER = "?answer"
INCOMING_CAP = 5_000
"""Statements about an entity counted at most: more, and the class is read first."""
MEMBERS_CAP = 20_000
"""Members of a class counted at most."""
CACHED = 4_096
ORDER = "ORDER BY DESC(?n) ?p"
"""How a tie query orders its rows: most members first, then by property."""

_ENTITY = re.compile(r"wd:Q[1-9]\d*")
_PROPERTY = re.compile(r"wdt:P[1-9]\d*")


class TieOrder:
    """Writes the body of a tie query (a tie pattern with ``?p`` and a class pattern) in the
    order the store reads fastest; the counts it needs are cached for the process (the
    store is read-only; an endpoint's counts change slowly and only decide speed)."""

    def __init__(self, kg: KG, *, timeout_s: float = 1.0) -> None:
        self.kg = kg
        self.timeout_s = timeout_s
        self._incoming: dict[str, int | None] = {}
        self._members: dict[Triple, int | None] = {}

    def body(self, tie: Triple, rest: Sequence[Triple], *, tie_first: bool = False) -> str:
        """``tie`` and ``rest`` as a group's body: ``tie . FILTER EXISTS { rest }`` when
        ``tie`` is ``?answer ?p wd:E``, ``rest`` one ``?answer wdt:P wd:C`` and E has at most
        half as many incoming statements as C has members; else both as patterns
        (``tie_first`` writes the tie first)."""
        if self._entity_first(tie, rest):
            return f"{render_body([tie])} . FILTER EXISTS {{ {render_body(rest)} }}"
        return render_body([tie, *rest] if tie_first else [*rest, tie])

    def _entity_first(self, tie: Triple, rest: Sequence[Triple]) -> bool:
        if len(rest) != 1 or tie[0] != ANSWER or tie[1] != "?p" or not _ENTITY.fullmatch(tie[2]):
            return False
        (member,) = rest
        if member[0] != ANSWER or not _PROPERTY.fullmatch(member[1]) or not _ENTITY.fullmatch(member[2]):
            return False
        incoming = self.incoming(tie[2])
        if incoming is None or incoming >= INCOMING_CAP:
            return False
        members = self.members(member)
        return members is not None and 2 * incoming < members

    def incoming(self, entity: str) -> int | None:
        """Statements with ``entity`` (``wd:Q…``) as object, up to :data:`INCOMING_CAP`
        (``None`` when the count failed)."""
        if entity not in self._incoming:
            return self._remember(self._incoming, entity, self._count(f"?s ?p {entity}", INCOMING_CAP))
        return self._incoming[entity]

    def members(self, pattern: Triple) -> int | None:
        """Subjects of ``?answer wdt:P wd:C``, up to :data:`MEMBERS_CAP` (``None`` when the
        count failed)."""
        if pattern not in self._members:
            return self._remember(self._members, pattern,
                                  self._count(f"?answer {pattern[1]} {pattern[2]}", MEMBERS_CAP))
        return self._members[pattern]

    def _count(self, pattern: str, cap: int) -> int | None:
        sparql = f"SELECT (COUNT(*) AS ?n) WHERE {{ {{ SELECT * WHERE {{ {pattern} }} LIMIT {cap} }} }}"
        try:
            rows = self.kg.query(sparql, timeout_s=self.timeout_s, max_rows=1).rows
        except KGError:
            return None
        n = rows[0].get("n") if rows else None
        try:
            return int(float(n.value)) if n is not None else None
        except ValueError:
            return None

    @staticmethod
    def _remember(cache: dict, key: object, value: int | None) -> int | None:
        """``value``, kept unless the count failed (a later question tries again)."""
        if value is not None:
            if len(cache) >= CACHED:
                cache.clear()
            cache[key] = value
        return value
