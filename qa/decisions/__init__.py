"""The decisions that stand between the gate's choice and a shown answer, as named, ordered
components (spaCy's pipeline components are the model): each is a class behind one
protocol, :class:`Component`, called with the :class:`Case` of one question and returning
a :class:`Verdict`.  The pipeline runs them in :data:`ORDER`; the first that withholds the
answer ends the turn with its reason (``Turn.withheld_by``, ``Turn.decisions``).

* ``guard``: the SPARQL allow-list screened the candidates (:mod:`qa.decisions.guard`);
* ``gate``: a candidate cleared its threshold, with a validator score (:mod:`qa.decisions.gate`);
* ``namesake``: a name two entities share is read as the better-known one (:mod:`qa.decisions.namesake`);
* ``coverage``: the reading accounts for every word of the question (:mod:`qa.decisions.coverage`);
* ``type``: the answers are of the kind asked for (:mod:`qa.decisions.kind`);
* ``number``: the answers' number fits the question (:mod:`qa.decisions.number`);
* ``inverse``: a yes or a no that the fact's other side in the KG does not contradict (:mod:`qa.decisions.inverse`).

Each component declares its ``phase`` (:data:`PHASES`: ``screen`` after generation,
``choose`` before the kept query runs, ``result`` on its result) and whether its reason goes
to the turn's notes (``noted``); :mod:`qa.decisions.components` builds them from
:data:`ORDER`, so the pipeline names none of them.

Which "I don't know" a withheld or unanswered question gets is said by :mod:`qa.decisions.reply`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from kg.client import QueryResult
from qa.candidate import Candidate
from qa.reading.reading import Reading, read
from qa.turn import CandidateView

ORDER = ("guard", "gate", "namesake", "coverage", "type", "number", "inverse")
"""The components in the order they decide."""

PHASES = ("screen", "choose", "result")
"""When a component decides: on the screened candidates (``screen``), on the kept candidate
before its query runs (``choose``), or on that query's result (``result``)."""

Noted = Literal["never", "withheld", "always"]
"""When a component's reason is written to the turn's notes (its verdicts are always recorded)."""


@dataclass
class Case:
    """What the components decide on for one question: the question as read, the language
    it is read in, its tokens (:func:`core.text.tokenize`), the candidates that passed the
    guard with their reported views, the backend's no-value readings, the kept candidate's
    index (set by the gate, moved by ``namesake``) and, once executed, its result."""

    question: str
    lang: str
    candidates: list[Candidate]
    views: list[CandidateView]
    readings: list[Candidate] = field(default_factory=list)
    rejected: int = 0
    chosen: int | None = None
    result: QueryResult | None = None
    tokens: list[str] = field(default_factory=list)
    worded: frozenset[int] = frozenset()  # tokens some property phrase of the lexicon says (any property)
    person_properties: frozenset[str] = frozenset()  # properties whose values are persons (the lexicon's types)
    validated: bool = True  # the validator is on (off: the backend's top candidate is kept unscored, as asked)
    reading: Reading | None = None  # the question read once (the ``read`` stage); None: read here

    def __post_init__(self) -> None:
        if self.reading is None or (self.reading.text, self.reading.lang) != (self.question, self.lang):
            self.reading = read(self.question, self.lang)
        if not self.tokens:
            self.tokens = list(self.reading.tokens)

    @property
    def kept(self) -> Candidate | None:
        """The kept candidate, if any."""
        return None if self.chosen is None else self.candidates[self.chosen]

    @property
    def kept_view(self) -> CandidateView | None:
        """The kept candidate's reported view, if any."""
        return None if self.chosen is None else self.views[self.chosen]


@dataclass(frozen=True)
class Verdict:
    """One component's decision: whether it withholds the answer, why (in words, for the
    turn's record), and the message it asks the user to be told (``None``: the reply
    chooses, :mod:`qa.decisions.reply`)."""

    component: str
    withheld: bool = False
    reason: str = ""
    message_key: str | None = None
    message_args: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The turn's record of this decision."""
        return {"name": self.component, "withheld": self.withheld, "reason": self.reason}


class Component(Protocol):
    """One named decision: its ``phase`` (:data:`PHASES`) and when its reason is noted."""

    name: str
    phase: str
    noted: Noted

    def __call__(self, case: Case) -> Verdict:
        """Decide on ``case`` (a component may move ``case.chosen``; it never raises for
        what a user typed)."""
        ...


def passed(component: str, reason: str = "") -> Verdict:
    """A verdict that lets the answer through."""
    return Verdict(component, False, reason)


def withheld(component: str, reason: str, message_key: str | None = None,
             message_args: Mapping[str, Any] | None = None) -> Verdict:
    """A verdict that withholds the answer."""
    return Verdict(component, True, reason, message_key, dict(message_args or {}))
