"""What the first screen says the chat knows (issue 36): the size of the knowledge graph in
plain words, counted once from the embedded store (read-only, in the background: the UI is
served meanwhile and says it without numbers until the count is in)."""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from pathlib import Path

from core.errors import KGSourceError
from core.settings import Settings

log = logging.getLogger(__name__)

LABELLED = "SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?l }"
BETWEEN_ENTITIES = ("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o FILTER(isIRI(?o) && "
                    "STRSTARTS(STR(?p), \"http://www.wikidata.org/prop/direct/\") && "
                    "STRSTARTS(STR(?o), \"http://www.wikidata.org/entity/Q\")) }")
"""The facts the header counts: statements that tie one entity to another (``wdt:`` property,
entity value), not names, descriptions or the dump's other lines."""


@dataclass(frozen=True)
class KGSize:
    """Facts between entities (:data:`BETWEEN_ENTITIES`) and entities with a name."""

    facts: int
    entities: int


_sizes: dict[Path, KGSize | None] = {}
_lock = threading.Lock()


def count(store_dir: Path) -> KGSize | None:
    """Count the store at ``store_dir`` (``None`` when it cannot be opened or read)."""
    import pyoxigraph

    try:
        store = pyoxigraph.Store.read_only(str(store_dir))
        named = next(iter(store.query(LABELLED)))
        facts = next(iter(store.query(BETWEEN_ENTITIES)))
        return KGSize(facts=int(facts["n"].value), entities=int(named["n"].value))
    except (OSError, ValueError, StopIteration) as exc:
        log.warning("could not count the KG at %s: %s", store_dir, exc)
        return None


def store_dir(settings: Settings) -> Path | None:
    """The embedded store of ``settings`` once built (``None`` for a remote endpoint)."""
    if settings.kg_endpoint:
        return None
    from kg.store import kg_paths

    try:
        paths = kg_paths(settings.kg_source, settings.cache_dir)
    except (OSError, KGSourceError):  # no source (yet), or one that cannot be read
        return None
    return paths.store if paths.is_built() else None


def kg_size(settings: Settings) -> KGSize | None:
    """The size counted for ``settings``' store, or ``None`` until it is counted (or when it
    cannot be: a remote endpoint, a store not built yet)."""
    where = store_dir(settings)
    if where is None:
        return None
    with _lock:
        return _sizes.get(where)


def count_in_background(settings: Settings) -> threading.Thread | None:
    """Start counting ``settings``' store once (a daemon thread); ``None`` when there is
    nothing to count or it is counted already."""
    where = store_dir(settings)
    with _lock:
        if where is None or where in _sizes:
            return None
        _sizes[where] = None

    def work() -> None:
        size = count(where)
        with _lock:
            _sizes[where] = size

    thread = threading.Thread(target=work, name="kgqa-kg-size", daemon=True)
    thread.start()
    return thread
