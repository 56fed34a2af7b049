"""A verbalizer stand-in for pipeline tests: each query "in words" from a function of
the query (by default the query itself)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from qa.candidate import Link


class Verbalize:
    """:class:`qa.verbalize.Verbalizer` from ``fn(sparql, lang)``."""

    def __init__(self, fn: Callable[[str, str], str] = lambda sparql, lang: sparql) -> None:
        self.fn = fn

    def many(self, sparqls: Sequence[str], lang: str, links: Sequence[Sequence[Link]] = ()) -> list[str]:
        """``fn`` of every query, in order (the linking evidence is not used)."""
        return [self.fn(s, lang) for s in sparqls]

    def readings(self, sparqls: Sequence[str], lang: str, links: Sequence[Sequence[Link]] = ()
                 ) -> list[tuple[str, ...]]:
        """One reading per query: :meth:`many`'s text."""
        return [(text,) for text in self.many(sparqls, lang, links)]
