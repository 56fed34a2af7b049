"""The ``inverse`` component: a yes/no answer the KG's other direction contradicts is withheld.

Wikidata says some facts twice, once from each side (its ``P1696`` "inverse property"
statements): a country's capital (``P36``) and the city's "capital of" (``P1376``), a
child (``P40``) and the father or mother (``P22``, ``P25``).  The two sides need not agree:
Lagos is still "capital of" Nigeria (a former capital, its statement never retired), while
Nigeria's capital is Abuja.  An ASK reads one side only, so "is lagos the capital of
nigeria" was answered "yes" from Lagos' side.  The other side is read too:

* the ASK holds, but every property of the other side is one a thing has once
  (:data:`INVERSES`' ``one``: a country has one capital; a person one father and one
  mother, so a child's father names someone else only when the mother does too) and names
  something else there: withheld (the KG says both);
* the ASK fails, but the other side says it: withheld (the KG says it after all).

Only an ASK of one triple between two entities is read; a KG that cannot be asked leaves
the answer as it was (nothing read contradicts it)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.errors import KGQueryError, KGTimeout
from kg.client import KG
from kg.sparql import entity_iri, iri_ref, local_id, prop_iri
from qa.decisions import Case, Verdict, passed, withheld
from qa.decisions.namesake import PROPERTY


@dataclass(frozen=True)
class Inverse:
    """The property that says a fact from the other side, and whether a thing holds it once."""

    pid: str
    one: bool = False


INVERSES: dict[str, tuple[Inverse, ...]] = {
    "P1376": (Inverse("P36", one=True),),  # capital of -> capital (a country has one)
    "P36": (Inverse("P1376"),),
    "P40": (Inverse("P22", one=True), Inverse("P25", one=True)),  # child -> father, mother
    "P22": (Inverse("P40"),),
    "P25": (Inverse("P40"),),
    "P355": (Inverse("P749", one=True),),  # subsidiary -> parent organization
    "P749": (Inverse("P355"),),
    "P150": (Inverse("P131"),),  # contains -> located in (many levels: not one)
    "P131": (Inverse("P150"),),
    "P527": (Inverse("P361"),),  # has part -> part of
    "P361": (Inverse("P527"),),
    "P1830": (Inverse("P127"),),  # owner of -> owned by
    "P127": (Inverse("P1830"),),
    "P155": (Inverse("P156"),),  # follows -> followed by
    "P156": (Inverse("P155"),),
    "P1365": (Inverse("P1366"),),  # replaces -> replaced by
    "P1366": (Inverse("P1365"),),
    "P802": (Inverse("P1066"),),  # student -> student of
    "P1066": (Inverse("P802"),),
    "P185": (Inverse("P184"),),  # doctoral student -> doctoral advisor
    "P184": (Inverse("P185"),),
    "P26": (Inverse("P26"),),  # spouse, shares border with, sibling, partner: their own inverses
    "P47": (Inverse("P47"),),
    "P3373": (Inverse("P3373"),),
    "P451": (Inverse("P451"),),
}
"""Per property, the properties Wikidata says the same fact by from the other side."""

ENTITY = re.compile(r"^wd:(Q[1-9][0-9]*)$")
DISAGREES = "data_disagrees"
"""The reply it asks for (:mod:`qa.decisions.reply`): the data says it both ways."""
READ = 50
"""How many values of the other side are read."""


class InverseCheck:
    """Withholds a yes or a no that the other side of the fact contradicts (``kg``: asked once
    per inverse property, bounded by ``timeout_s``)."""

    name = "inverse"
    phase = "result"
    noted = "withheld"

    def __init__(self, kg: KG, *, timeout_s: float = 5.0) -> None:
        self.kg = kg
        self.timeout_s = timeout_s

    def __call__(self, case: Case) -> Verdict:
        kept, result = case.kept, case.result
        if kept is None or result is None or result.boolean is None or kept.shape != "ask" or len(kept.triples) != 1:
            return passed(self.name)
        s, p, o = kept.triples[0]
        subject, prop, obj = ENTITY.match(s), PROPERTY.match(p), ENTITY.match(o)
        if subject is None or prop is None or obj is None:
            return passed(self.name)
        a, b = subject.group(1), obj.group(1)
        inverses = INVERSES.get(prop.group(1), ())
        read = [(inverse, values) for inverse in inverses if (values := self._values(b, inverse.pid)) is not None]
        if not result.boolean and (said := next((i.pid for i, values in read if a in values), None)):
            return withheld(self.name, f"my data says no from {a}'s side, but {b} {said} {a} from the other",
                            DISAGREES)
        if result.boolean and read and len(read) == len(inverses) and all(i.one and values and a not in values
                                                                          for i, values in read):
            other = sorted(v for _, values in read for v in values)
            return withheld(self.name, f"my data says yes from {a}'s side, but from {b}'s it is "
                                       f"{', '.join(other)} ({', '.join(i.pid for i, _ in read)})", DISAGREES)
        return passed(self.name)

    def _values(self, qid: str, pid: str) -> set[str] | None:
        """The entity values of ``qid``'s ``pid`` (``None`` when the KG cannot be asked)."""
        try:
            sparql = f"SELECT DISTINCT ?x WHERE {{ {iri_ref(entity_iri(qid))} {iri_ref(prop_iri(pid))} ?x }}"
            rows = self.kg.query(sparql, timeout_s=self.timeout_s, max_rows=READ).rows
        except (KGTimeout, KGQueryError, ValueError):
            return None
        return {value for row in rows if (t := row.get("x")) is not None and (value := local_id(t.value))}
