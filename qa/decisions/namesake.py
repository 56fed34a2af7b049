"""The ``namesake`` component: a name two entities share is read as the better-known one
(« Italien »: Italy, not the Kingdom of Italy) when both readings pass the gate."""

from __future__ import annotations

from qa.candidate import Candidate, Link
from qa.decisions import Case, Verdict, passed
from qa.turn import CandidateView


class Namesake:
    """Moves the kept candidate to the better-known reading of a shared name; never withholds."""

    name = "namesake"
    after_execute = False

    def __call__(self, case: Case) -> Verdict:
        if case.chosen is None:
            return passed(self.name)
        passing = [bool(v.passed) for v in case.views]
        notes = []
        while (rival := namesake_rival(case.candidates, case.chosen, passing)) is not None:
            case.chosen = better_known_reading(case.candidates, passing, rival[1], case.views)
            notes.append(f"{rival[0].mention!r} names {rival[0].qid} and {rival[1].qid}; "
                         f"both readings pass, the better-known {rival[1].qid} is read")
        return passed(self.name, "; ".join(notes))


def namesake_rival(candidates: list[Candidate], chosen: int, passed: list[bool | None]) -> tuple[Link, Link] | None:
    """``(kept link, rival link)`` when another candidate that passed the gate links the same
    words of the question to another, better-known entity (more facts in the KG), else
    ``None``.  « Italien » names both the Kingdom of Italy and Italy: when the reading of the
    lesser-known one is kept while Italy's passes too, the pipeline reads the name as Italy,
    as a reader assumes (Hungary over the Kingdom of Hungary), instead of the backend's
    order."""
    kept = {link.mention: link for link in candidates[chosen].links}
    for i, candidate in enumerate(candidates):
        if i == chosen or not (i < len(passed) and passed[i]):
            continue
        for link in candidate.links:
            mine = kept.get(link.mention)
            if mine is not None and mine.qid != link.qid and link.degree > mine.degree:
                return mine, link
    return None


def better_known_reading(candidates: list[Candidate], passed: list[bool], link: Link,
                         views: list[CandidateView]) -> int:
    """The passing candidate that reads ``link``'s words as ``link``'s entity with the
    highest compared score (one exists: :func:`namesake_rival` found it)."""
    readings = [i for i, c in enumerate(candidates)
                if i < len(passed) and passed[i] and any(k.mention == link.mention and k.qid == link.qid
                                                         for k in c.links)]
    return max(readings, key=lambda i: (views[i].compared.score if views[i].compared is not None else 0.0, -i))
