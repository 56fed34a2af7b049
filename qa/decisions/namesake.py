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
        unscored = all(view.validator_score is None for view in case.views)  # the validator off
        if unscored and (twin := namesake_twin(case.candidates, case.chosen)) is not None:
            notes.append(f"{case.candidates[case.chosen].links[0].mention!r}: the same question of the better-known "
                         f"namesake {twin[1]} is read (no validator to tell them apart)")
            case.chosen = twin[0]
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


def namesake_twin(candidates: list[Candidate], chosen: int) -> tuple[int, str] | None:
    """With no validator to tell namesakes apart: ``(index, qid)`` of the candidate that asks
    the kept candidate's very question (same shape, the same triples) of a better-known
    entity (more facts, or more sitelinks on an endpoint) linked by the same words to the
    same name, else ``None``.  « Albert Einstein » names the physicist and a footballer
    with two facts: the reader means the physicist."""
    kept = candidates[chosen]
    if not kept.triples:
        return None
    best: tuple[int, int, str] | None = None
    for link in kept.links:
        mine = f"wd:{link.qid}"
        for i, other in enumerate(candidates):
            if i == chosen or other.shape != kept.shape or len(other.triples) != len(kept.triples):
                continue
            for rival in other.links:
                if (rival.mention != link.mention or rival.qid == link.qid or rival.name != link.name
                        or rival.degree <= link.degree or (best is not None and rival.degree <= best[1])):
                    continue
                theirs = f"wd:{rival.qid}"
                if tuple(tuple(theirs if t == mine else t for t in triple) for triple in kept.triples) == other.triples:
                    best = (i, rival.degree, rival.qid)
    return None if best is None else (best[0], best[2])
