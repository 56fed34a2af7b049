"""Stand-ins for pipeline tests: a verbalizer that says each query "in words" by a
function of the query (by default the query itself), and a scorer that prefers English
readings."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from qa.candidate import Link


class Verbalize:
    """:class:`qa.verbalize.Verbalizer` from ``fn(sparql, lang)``."""

    def __init__(self, fn: Callable[[str, str], str] = lambda sparql, lang: sparql) -> None:
        self.fn = fn

    def many(self, sparqls: Sequence[str], lang: str, links: Sequence[Sequence[Link]] = ()) -> list[str]:
        """``fn`` of every query, in order (the linking evidence is not used)."""
        return [self.fn(s, lang) for s in sparqls]

    def readings(self, sparqls: Sequence[str], lang: str, links: Sequence[Sequence[Link]] = (),
                 worded: Sequence[Mapping[str, str]] = ()) -> list[tuple[str, ...]]:
        """One reading per query: :meth:`many`'s text (the question's wording is not used)."""
        return [(text,) for text in self.many(sparqls, lang, links)]


class PrefersEnglish:
    """:class:`qa.score.Scorer` giving 0.95 to a reading said in English (``"en|…"``, as
    ``Verbalize(lambda sparql, lang: f"{lang}|{sparql}")`` says it) and 0.1 to any other;
    ``seen``: every reading it scored, in order."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def predict(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        self.seen.extend(text for _, text in pairs)
        return [0.95 if text.startswith("en|") else 0.1 for _, text in pairs]
