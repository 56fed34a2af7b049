"""The reads the pipeline makes of a KG besides running a candidate's query: one interface,
:class:`KGIndex`, with two implementations.

* :class:`kg.labels.LabelIndex`: the embedded store's label index (the offline default),
  a SQLite file built beside the store;
* :class:`kg.endpoint.EndpointIndex`: any SPARQL 1.1 endpoint, with portable SPARQL only
  (exact names over ``rdfs:label`` / ``skos:altLabel`` through ``VALUES``), plus optional
  accelerations (Wikidata's entity search, ``wikibase:sitelinks`` popularity).

The entity linker (:mod:`backends.local.linking`) and the local generator
(:mod:`backends.local.generator`) read names, popularity, classes and property labels only
through this interface; facts and the names of ids are SPARQL (:class:`kg.client.KG`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Protocol

from kg.labels import EntityStats, NameHit

__all__ = ["EntityStats", "KGIndex", "NameHit"]


class KGIndex(Protocol):
    """Names, popularity, classes and property labels of a KG."""

    def lookup(self, keys: Iterable[str], *, lang: str = "",
               written: Mapping[str, str] | None = None) -> dict[str, list[NameHit]]:
        """Entities named by each normalized key (:func:`core.text.name_keys`), in one batch:
        every name span of a question at once.  ``lang`` is the question's language and
        ``written`` the span as the user wrote it (its case), per key: an endpoint matches
        literal names, so it needs both; the label index is keyed by normalized names and
        ignores them.  Only keys with hits are returned."""
        ...

    def prefetch(self, *, similar: Iterable[str] = (), prefixes: Iterable[str] = (), sounds: Iterable[str] = ()
                 ) -> None:
        """A hint before a question is linked: the words whose close words
        (:meth:`similar_tokens`), the prefixes whose words (:meth:`tokens_with_prefix`) and
        the sound keys (:meth:`lookup_phonetic`) the linker is about to read.  An index read
        over a network reads them in one request; a local one reads nothing ahead."""
        ...

    def lookup_phonetic(self, keys: Iterable[str], *, per_key: int = 100) -> dict[str, list[tuple[NameHit, str]]]:
        """Entities whose name sounds like each phonetic key, with the name's Latin form."""
        ...

    def similar_tokens(self, token: str, *, limit: int = 4) -> list[tuple[str, float]]:
        """Words close to ``token`` (inflections, typos): ``(word, similarity)``, best first."""
        ...

    def tokens_with_prefix(self, prefix: str, limit: int = 5000, *, max_len: int | None = None
                           ) -> list[tuple[str, int]]:
        """Name words starting with ``prefix``: ``(word, how many names hold it)``."""
        ...

    def entity_stats(self, qids: Iterable[str]) -> dict[str, EntityStats]:
        """Popularity (degree or its stand-in) and class size of each known entity."""
        ...

    def classes_of(self, qids: Iterable[str]) -> dict[str, list[str]]:
        """The ``P31`` classes of each entity (entities without any are left out)."""
        ...

    def property_labels(self) -> dict[str, dict[str, list[str]]]:
        """``{pid: {lang: [label, alias, …]}}`` (labels before aliases)."""
        ...

    def property_classes(self) -> dict[tuple[str, str], list[tuple[str, int]]]:
        """``{(pid, "s"|"o"): [(class, count), …]}``: frequent classes of each property's ends."""
        ...
