"""Stage 3, verbalize: every candidate query in words of the user's language, so that
the cross-encoder can compare it with the question (implemented by
:class:`validator.verbalize.Verbalizer`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from qa.candidate import Link


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
