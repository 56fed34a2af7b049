"""Building blocks for SPARQL text.  Queries are built from IRIs and escaped literals
only; user text never reaches a query string."""

from __future__ import annotations

import re

WD = "http://www.wikidata.org/entity/"
WDT = "http://www.wikidata.org/prop/direct/"
RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
SKOS_ALT = "http://www.w3.org/2004/02/skos/core#altLabel"
XSD = "http://www.w3.org/2001/XMLSchema#"

PREFIXES: dict[str, str] = {
    "wd": WD,
    "wdt": WDT,
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "skos": "http://www.w3.org/2004/02/skos/core#",
    "schema": "http://schema.org/",
    "xsd": XSD,
}

PREFIX_HEADER = "".join(f"PREFIX {p}: <{iri}>\n" for p, iri in PREFIXES.items())

_QID = re.compile(r"^[QP][1-9][0-9]*$")
_IRI_FORBIDDEN = re.compile(r'[\x00-\x20<>"{}|^`\\]')


def entity_iri(qid: str) -> str:
    """``Q64`` -> ``http://www.wikidata.org/entity/Q64`` (validated)."""
    if not _QID.match(qid):
        raise ValueError(f"not a Wikidata id: {qid!r}")
    return WD + qid


def prop_iri(pid: str) -> str:
    """``P19`` -> ``http://www.wikidata.org/prop/direct/P19`` (validated)."""
    if not _QID.match(pid) or not pid.startswith("P"):
        raise ValueError(f"not a Wikidata property id: {pid!r}")
    return WDT + pid


def local_id(iri: str) -> str | None:
    """The ``Q…``/``P…`` id at the end of a Wikidata IRI, else ``None``."""
    for base in (WD, WDT):
        if iri.startswith(base):
            tail = iri[len(base):]
            return tail if _QID.match(tail) else None
    return None


def iri_ref(iri: str) -> str:
    """``<iri>`` after checking it holds no character that could break out of it."""
    if _IRI_FORBIDDEN.search(iri):
        raise ValueError(f"unsafe IRI: {iri!r}")
    return f"<{iri}>"


def short(iri: str) -> str:
    """Compact an IRI to ``wd:Q64`` / ``wdt:P19`` when possible, else ``<iri>``."""
    for prefix, base in (("wd", WD), ("wdt", WDT)):
        if iri.startswith(base) and _QID.match(iri[len(base):]):
            return f"{prefix}:{iri[len(base):]}"
    return iri_ref(iri)


_ESCAPES = {
    "\\": "\\\\",
    '"': '\\"',
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\b": "\\b",
    "\f": "\\f",
}


def escape_string(text: str) -> str:
    """Escape ``text`` for a double-quoted SPARQL string literal body."""
    return "".join(_ESCAPES.get(ch, ch) for ch in text)


def literal(text: str, *, lang: str | None = None, datatype: str | None = None) -> str:
    """A safe SPARQL literal: ``"text"@lang`` or ``"text"^^<datatype>``."""
    body = f'"{escape_string(text)}"'
    if lang:
        if not re.fullmatch(r"[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*", lang):
            raise ValueError(f"bad language tag: {lang!r}")
        return f"{body}@{lang}"
    if datatype:
        return f"{body}^^{iri_ref(datatype)}"
    return body


def with_prefixes(body: str) -> str:
    """Prepend the standard prefix declarations to a query body."""
    return PREFIX_HEADER + body
