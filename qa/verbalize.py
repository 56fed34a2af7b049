"""The verbalize stage: every candidate query in words of the user's language, so that
the cross-encoder can compare it with the question (implemented by
:class:`validator.verbalize.Verbalizer`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from qa.candidate import COMPLEX_SHAPES, Candidate, Link


class Verbalizer(Protocol):
    """Says SPARQL candidates in words."""

    def many(self, sparqls: Sequence[str], lang: str, links: Sequence[Sequence[Link]] = ()) -> list[str]:
        """One verbalization per query, in order, in language ``lang`` (one label fetch
        for the whole list); ``links[i]``: how query ``i``'s entities were linked (an entity
        without a label in ``lang`` is said by the name it was linked by)."""
        ...

    def readings(self, sparqls: Sequence[str], lang: str, links: Sequence[Sequence[Link]] = ()
                 ) -> list[tuple[str, ...]]:
        """Each query's readings, one or more distinct texts, the first being its
        :meth:`many` text; a candidate is scored by its best reading."""
        ...


def readings_with_english(verbalizer: Verbalizer, candidates: Sequence[Candidate], lang: str,
                          wanted: Sequence[bool] | None = None) -> list[tuple[str, ...]]:
    """Each candidate's readings in ``lang``; for a question not in English, a plain
    candidate (``wanted``: which ones, all by default) is also read in English, since most
    property names of the KG are English only.  A complex candidate (COUNT, ASK, ORDER BY,
    FILTER) is read in ``lang`` only: it passes the gate on its validator score alone, and
    an English reading of it let wrong answers through.  The pipeline and the records the
    gate is calibrated on both read candidates this way."""
    readings = verbalizer.readings([c.sparql for c in candidates], lang, [c.links for c in candidates])
    if lang.split("-")[0] == "en":
        return readings
    wanted = [True] * len(candidates) if wanted is None else wanted
    plain = [i for i, (c, ok) in enumerate(zip(candidates, wanted, strict=True))
             if ok and c.shape not in COMPLEX_SHAPES]
    english = verbalizer.many([candidates[i].sparql for i in plain], "en", [candidates[i].links for i in plain])
    for i, text in zip(plain, english, strict=True):
        if text not in readings[i]:
            readings[i] = (*readings[i], text)
    return readings
