"""The decision components built from their names, in :data:`qa.decisions.ORDER` (as spaCy
builds a pipeline from its component names): :data:`FACTORIES` maps each name to how it is
made from the :class:`Setting` shared by all of them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kg.client import KG
from qa.decisions import ORDER, PHASES, Component
from qa.decisions.coverage import Coverage
from qa.decisions.gate import Gate
from qa.decisions.guard import Guard
from qa.decisions.inverse import InverseCheck
from qa.decisions.kind import TypeCheck
from qa.decisions.namesake import Namesake
from qa.decisions.number import NumberCheck
from qa.reading.expect import AnswerTypes


@dataclass(frozen=True)
class Setting:
    """What the components are made from: the KG the checks read, what a question word asks
    for (``None``: not checked) and the time one check's query may take."""

    kg: KG
    answer_types: AnswerTypes | None = None
    timeout_s: float = 5.0


FACTORIES: dict[str, Callable[[Setting], Component]] = {
    "guard": lambda s: Guard(),
    "gate": lambda s: Gate(),
    "namesake": lambda s: Namesake(s.kg, timeout_s=s.timeout_s),
    "coverage": lambda s: Coverage(s.answer_types),
    "type": lambda s: TypeCheck(s.kg, s.answer_types, timeout_s=s.timeout_s),
    "number": lambda s: NumberCheck(s.kg, s.answer_types, timeout_s=s.timeout_s),
    "inverse": lambda s: InverseCheck(s.kg, timeout_s=s.timeout_s),
}
"""How each named component is made."""


def build(setting: Setting, order: Sequence[str] = ORDER) -> tuple[Component, ...]:
    """The components named in ``order``, made from ``setting``; an unknown name, or a
    component that declares a phase not in :data:`PHASES` or a name other than its own,
    raises ``ValueError``."""
    components = []
    for name in order:
        if name not in FACTORIES:
            raise ValueError(f"no decision component named {name!r}")
        component = FACTORIES[name](setting)
        if component.name != name or component.phase not in PHASES:
            raise ValueError(f"component {name!r} declares name {component.name!r}, phase {component.phase!r}")
        components.append(component)
    return tuple(components)
