"""The ``namesake`` component: a name two entities share is read as the better-known one
(« Italien »: Italy, not the Kingdom of Italy) when both readings pass the gate.  When the
name is the label of two entities about as well known, and only the kept one has the
property read (the other has no such value), nothing tells which one was meant: the
answer is withheld (:func:`unresolved_namesake`; "where is sony headquarters located?":
Sony, and Sony Music Entertainment Japan, labelled "Sony" too)."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from core.errors import KGQueryError, KGTimeout
from core.text import fold
from kg.client import KG, Term
from kg.sparql import entity_iri, iri_ref, prop_iri
from qa.candidate import TYPING_PROPERTIES, Candidate, Link
from qa.decisions import Case, Verdict, passed, withheld
from qa.turn import CandidateView

SAMPLED = 2000
"""How many of the things on one side of a property are read for their classes
(:meth:`Namesake.could_be_asked`; a sample, the KG's first ones, read in a few milliseconds)."""
CLASSES_READ = 5000
KINDS_CACHED = 1024
PROPERTY = re.compile(r"^wdt:(P[1-9][0-9]*)$")
"""A triple's property as a candidate carries it (``wdt:P403``); its id is the group."""


class Namesake:
    """Moves the kept candidate to the better-known reading of a shared name; withholds a
    reading of a name two entities as well known share when only the kept one has the value
    and the other is of a kind the KG says that property of (``kg``: asked once, bounded by
    ``timeout_s``; without it every such namesake casts doubt)."""

    name = "namesake"
    phase = "choose"
    noted = "always"

    def __init__(self, kg: KG | None = None, *, timeout_s: float = 5.0) -> None:
        self.kg = kg
        self.timeout_s = timeout_s
        self._kinds = lru_cache(maxsize=KINDS_CACHED)(self._read_kinds)

    def could_be_asked(self, kept: Candidate, qid: str) -> bool:
        """Whether the kept reading's question could be asked of ``qid`` instead: one of its
        ``P31`` classes is among those of the things (:data:`SAMPLED`) that stand where the
        kept entity stands in one of the kept reading's triples.  The Moselle department is
        no river: nothing of its kind has a mouth, so the river is the Moselle asked about;
        Warner Bros. Records is a company, and companies have headquarters.  ``True`` when
        the KG cannot say."""
        if self.kg is None:
            return True
        mine = {f"wd:{e}" for e in kept.entities}
        sides = [(m.group(1), "s" if s in mine else "o") for s, p, o in kept.triples
                 if (s in mine or o in mine) and (m := PROPERTY.match(p)) and m.group(1) not in TYPING_PROPERTIES]
        if not sides:
            return True
        try:
            theirs = self._classes(f"SELECT ?c WHERE {{ {iri_ref(entity_iri(qid))} wdt:P31 ?c }}")
            return any(theirs & self._kinds(pid, side) for pid, side in sides)
        except (KGTimeout, KGQueryError):
            return True

    def _read_kinds(self, pid: str, side: str) -> frozenset[str]:
        """The classes of the things that stand on ``side`` (``s``: subject) of ``pid``
        (:data:`SAMPLED` of them; cached per component, :data:`KINDS_CACHED`)."""
        prop = iri_ref(prop_iri(pid))
        pattern = f"?x {prop} ?v" if side == "s" else f"?v {prop} ?x"
        return self._classes(f"SELECT DISTINCT ?c WHERE {{ {{ SELECT DISTINCT ?x WHERE {{ {pattern} }} "
                             f"LIMIT {SAMPLED} }} ?x wdt:P31 ?c . }}")

    def _classes(self, sparql: str) -> frozenset[str]:
        """The class IRIs a query binds to ``?c`` (none without a KG)."""
        if self.kg is None:
            return frozenset()
        rows = self.kg.query(sparql, timeout_s=self.timeout_s, max_rows=CLASSES_READ).rows
        return frozenset(c.value for row in rows if isinstance(c := row.get("c"), Term))

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
        if (doubt := better_known_asked(case)) is not None:
            mine, other = doubt
            return withheld(self.name, f"{mine.mention!r} names {mine.qid} and the better-known {other.qid}, whose "
                                       f"reading of the same question the validator accepts too but the gate did "
                                       f"not keep: which one is meant is not known")
        set_aside: list[str] = []

        def could_be_asked(kept: Candidate, qid: str) -> bool:
            if not (asked := self.could_be_asked(kept, qid)):
                set_aside.append(qid)
            return asked

        if (pair := unresolved_namesake(case, could_be_asked)) is not None:
            mine, other = pair
            return withheld(self.name, f"{mine.name!r} is the name of {mine.qid} and of {other.qid}, about as well "
                                       f"known, which has no such value: which one is meant is not known")
        notes += [f"the namesake {qid} is of no kind the question is asked of" for qid in dict.fromkeys(set_aside)]
        return passed(self.name, "; ".join(notes))


def namesake_rival(candidates: list[Candidate], chosen: int, passed: list[bool | None]) -> tuple[Link, Link] | None:
    """``(kept link, rival link)`` when another candidate that passed the gate links the same
    words of the question to another, better-known entity (more facts in the KG), else
    ``None``.  « Italien » names both the Kingdom of Italy and Italy: when the reading of the
    lesser-known one is kept while Italy's passes too, the pipeline reads the name as Italy,
    as a reader assumes (Hungary over the Kingdom of Hungary), instead of the backend's
    order.  A sound-alike or a close spelling is no name the words share with one they say
    as written (:data:`WRITTEN_KINDS`): « Республики Конго », the Republic of the Congo's
    name inflected, is not read as Kenya, whose Russian name sounds a little like it."""
    kept = {link.mention: link for link in candidates[chosen].links}
    for i, candidate in enumerate(candidates):
        if i == chosen or not (i < len(passed) and passed[i]):
            continue
        for link in candidate.links:
            mine = kept.get(link.mention)
            if (mine is not None and mine.qid != link.qid and link.degree > mine.degree
                    and (link.kind in WRITTEN_KINDS or mine.kind not in WRITTEN_KINDS)):
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


WRITTEN_KINDS = frozenset({"label", "alias", "folded", "inflected"})
"""Links by a name the words say as written (not a spelling close to it, a sound-alike or a
last name alone): only such a namesake casts doubt on the kept reading (« belize » is no
misspelled « Belgie »)."""
ACCEPTED = 0.5
"""A validator score from which a namesake's reading of the same question is read as accepted."""


def better_known_asked(case: Case) -> tuple[Link, Link] | None:
    """``(kept link, rival link)`` when another judged candidate asks the kept candidate's very
    question (same shape, the same triples) of a better-known entity linked on the same words
    by a name as written (:data:`WRITTEN_KINDS`), and the validator accepts that reading too
    (:data:`ACCEPTED`) though the gate did not keep it: « donde nacio dali » reads « dali » as an
    alias of Dalida and, folded, as Salvador Dalí, the better known; showing Dalida's birthplace
    would answer for the lesser-known namesake."""
    kept = case.kept
    if kept is None or not kept.triples:
        return None
    for link in kept.links:
        mine = f"wd:{link.qid}"
        for i, other in enumerate(case.candidates):
            view = case.views[i] if i < len(case.views) else None
            if (i == case.chosen or view is None or view.validator_score is None or view.validator_score < ACCEPTED
                    or other.shape != kept.shape or len(other.triples) != len(kept.triples)):
                continue
            for rival in other.links:
                if (rival.qid == link.qid or rival.degree <= link.degree or rival.is_class
                        or rival.kind not in WRITTEN_KINDS) or not (
                        rival.span == link.span if link.span is not None else rival.mention == link.mention):
                    continue
                theirs = f"wd:{rival.qid}"
                if tuple(tuple(theirs if t == mine else t for t in triple) for triple in kept.triples) == other.triples:
                    return link, rival
    return None


COMPARABLE = 0.8
"""A namesake at least this share of the kept entity's degree is about as well known."""
READ_BY = 10


def unresolved_namesake(case: Case, could_be_asked: Callable[[Candidate, str], bool] | None = None
                        ) -> tuple[Link, Link] | None:
    """``(kept link, other link)`` when the kept reading's entity was linked by its label and
    another entity of the same label, linked on the same words by one of the first candidates
    or a no-value reading, is about as well known (:data:`COMPARABLE`) and no candidate reads
    the kept reading's property of it: an answer about the one may be read as about the other,
    unless the question could not be asked of it (``could_be_asked(kept, qid)`` false:
    :meth:`Namesake.could_be_asked`)."""
    kept = case.kept
    if kept is None or not kept.entities or not kept.properties:
        return None
    mine = next((link for link in kept.links if link.qid == kept.entities[0]), None)
    if mine is None or mine.span is None or mine.kind != "label":
        return None
    pool = [*case.candidates[:READ_BY], *case.readings]
    asked = set(kept.properties)
    for candidate in pool:
        for link in candidate.links:
            if (link.qid != mine.qid and link.kind == "label" and link.span == mine.span and not link.is_class
                    and fold(link.name) == fold(mine.name) and link.degree >= COMPARABLE * mine.degree
                    and not any(link.qid in c.entities and asked & set(c.properties)
                                for c in case.candidates if not c.no_value)
                    and (could_be_asked is None or could_be_asked(kept, link.qid))):
                return mine, link
    return None
