"""Every query shape the local generator builds, from IRIs and typed literals only (numbers
and years parsed from the question become ``xsd:decimal`` / ``xsd:dateTime`` /
``xsd:integer`` literals through :func:`kg.sparql.literal`).

Simple shapes, graphs of ``(subject, property id, object)`` ids rendered by :func:`select`:

* 1 hop forward ``wd:E wdt:P ?answer`` (:func:`forward`) and backward (:func:`backward`);
* a graph narrowed by a class (:func:`typed`, :func:`typed_sub`);
* the intersection of two graphs (:func:`intersect`);
* 2 hops ``wd:E wdt:P1 ?x . ?x wdt:P2 ?answer`` (:func:`two_hop`).

Complex shapes, over bodies of compact tokens (``wd:Q…``, ``wdt:P…``, ``?var``), all
projecting ``?answer`` (or ``ASK``):

* **count**: ``SELECT (COUNT(DISTINCT ?answer) AS ?count) WHERE { … }`` (:func:`count_query`; the
  counted variable keeps its name, so the verbalization reads "count … ?answer" as a list's does);
* **yes/no**: ``ASK { … }`` for relations, types, literal tests and comparisons (:func:`ask_query`);
* **superlative** over literals (``ORDER BY DESC(?value) LIMIT 1``) and over counts
  (``GROUP BY ?answer ORDER BY DESC(COUNT(DISTINCT ?x)) LIMIT 1``);
* **alive**: ``ASK { FILTER NOT EXISTS { wd:X wdt:P570 ?value } … }`` over the person's
  death facts (:func:`alive_query`);
* **exclusion**: a set without the members that match a pattern, ``FILTER NOT EXISTS``
  (:func:`exclusion_query`);
* **filter**: numeric and temporal ``FILTER`` on a typed set ("born before 1985",
  "population over 100 million", "taller than 1.9 m") (:func:`filter_query`);
* **typed list**: ``?answer wdt:P31 wd:C . ?answer wdt:P wd:E`` ("Give me all … that …");
* **two-entity comparison**: ``VALUES ?answer { wd:E1 wd:E2 } ?answer wdt:P ?value``
  ordered by the direction the cue word gives ("older" = earlier birth date)
  (:func:`comparison_query`).  Its candidate carries a
  :class:`qa.candidate.ComparisonSpec`, which the execute stage evaluates with
  :func:`qa.execute.evaluate_comparison` (winner 1, 2 or 0, or which value is unknown).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from kg.sparql import XSD, entity_iri, literal, prop_iri, short
from qa.candidate import Direction, Triple
from qa.reading.numbers import NumberFilter

ANSWER = "?answer"
MID = "?x"
P31 = "P31"
P279 = "P279"
SUBCLASS_PATH = "P31/P279*"

# --------------------------------------------------------------------------- query shapes

IdTriple = tuple[str, str, str]
"""``(subject, property id, object)``: each end is a variable (``?answer``) or a QID."""


def sparql_node(node: str) -> str:
    """``?var`` as it is, a QID as ``wd:Q…``."""
    return node if node.startswith("?") else short(entity_iri(node))


def forward(entity: str, pid: str) -> list[IdTriple]:
    """``wd:E wdt:P ?answer``."""
    return [(entity, pid, ANSWER)]


def backward(entity: str, pid: str) -> list[IdTriple]:
    """``?answer wdt:P wd:E``."""
    return [(ANSWER, pid, entity)]


def typed(triples: Sequence[IdTriple], cls: str) -> list[IdTriple]:
    """Narrow ``?answer`` to instances of ``cls`` (``?answer wdt:P31 wd:C``)."""
    return [*triples, (ANSWER, P31, cls)]


def typed_sub(triples: Sequence[IdTriple], cls: str) -> list[IdTriple]:
    """Narrow ``?answer`` to instances of ``cls`` or its subclasses (``wdt:P31/wdt:P279*``)."""
    return [*triples, (ANSWER, SUBCLASS_PATH, cls)]


def two_hop(entity: str, first: str, second: str, *, first_forward: bool = True) -> list[IdTriple]:
    """``wd:E wdt:P1 ?x . ?x wdt:P2 ?answer`` (or ``?x wdt:P1 wd:E`` as the first hop)."""
    hop = (entity, first, MID) if first_forward else (MID, first, entity)
    return [hop, (MID, second, ANSWER)]


def intersect(left: Sequence[IdTriple], right: Sequence[IdTriple]) -> list[IdTriple]:
    """Answers satisfying both graphs (their ``?answer`` is shared)."""
    return [*left, *[t for t in right if t not in left]]


def sparql_pred(path: str) -> str:
    """``P17`` -> ``wdt:P17``; ``P31/P279*`` -> ``wdt:P31/wdt:P279*`` (every step validated)."""
    steps = []
    for step in path.split("/"):
        mod = step[-1] if step[-1] in "*+" else ""
        steps.append(short(prop_iri(step.removesuffix(mod))) + mod)
    return "/".join(steps)


def where(triples: Sequence[IdTriple]) -> str:
    """The graph pattern body ``s p o . s p o .`` built from IRIs only."""
    return " ".join(f"{sparql_node(s)} {sparql_pred(p)} {sparql_node(o)} ." for s, p, o in triples)


def select(triples: Sequence[IdTriple]) -> str:
    """``SELECT DISTINCT ?answer WHERE { … }`` (no PREFIX lines; KG clients add them)."""
    return f"SELECT DISTINCT {ANSWER} WHERE {{ {where(triples)} }}"


# --------------------------------------------------------------------------- complex shapes


def wd(qid: str) -> str:
    """``Q64`` -> ``wd:Q64`` (validated)."""
    return short(entity_iri(qid))


def wdt(pid: str) -> str:
    """``P17`` -> ``wdt:P17`` (validated)."""
    return short(prop_iri(pid))


def render_body(triples: Sequence[Triple]) -> str:
    """``s p o . s p o`` from compact tokens."""
    return " . ".join(f"{s} {p} {o}" for s, p, o in triples)


def rename(triples: Sequence[Triple], old: str, new: str) -> list[Triple]:
    """Rename one variable in a body."""
    return [tuple(new if t == old else t for t in tr) for tr in triples]  # type: ignore[misc]


def entities_of(triples: Sequence[Triple], values: Sequence[str] = ()) -> tuple[str, ...]:
    """The entity ids (``Q…``) of a body's ``wd:`` tokens and of a ``VALUES`` list, in order."""
    found = [*(t[3:] for tr in triples for t in (tr[0], tr[2]) if t.startswith("wd:")), *values]
    return tuple(dict.fromkeys(found))


def properties_of(triples: Sequence[Triple]) -> tuple[str, ...]:
    """The property ids (``P…``) of a body's predicates (each step of a path), in order."""
    found = [step.removeprefix("wdt:").rstrip("*+") for _, p, _ in triples for step in p.split("/")]
    return tuple(dict.fromkeys(p for p in found if p.startswith("P")))


def count_query(triples: Sequence[Triple]) -> str:
    """``SELECT (COUNT(DISTINCT ?answer) AS ?count)`` over the ``?answer`` set of a body (the
    validator reads "count … ?answer …" far better than the same body over ``?x``:
    0.81 against 0.001 for "How many films has Tarantino directed?", typed by film)."""
    return f"SELECT (COUNT(DISTINCT ?answer) AS ?count) WHERE {{ {render_body(triples)} }}"


def superlative_query(triples: Sequence[Triple], pid: str, direction: Direction) -> str:
    """The ``?answer`` of a body with the first ``pid`` value in ``direction``."""
    body = render_body([*triples, ("?answer", wdt(pid), "?value")])
    return f"SELECT ?answer WHERE {{ {body} }} ORDER BY {direction}(?value) LIMIT 1"


def filter_condition(f: NumberFilter, var: str) -> str:
    if f.is_year:
        year = int(f.value)
        if f.op in ("year", "="):
            return f"YEAR({var}) = {literal(str(year), datatype=XSD + 'integer')}"
        if f.op == "decade":
            return (f"YEAR({var}) >= {literal(str(year), datatype=XSD + 'integer')} && "
                    f"YEAR({var}) < {literal(str(year + 10), datatype=XSD + 'integer')}")
        bound = {"<": year, ">=": year, ">": year + 1, "<=": year + 1}[f.op]
        op = {"<": "<", ">=": ">=", ">": ">=", "<=": "<"}[f.op]
        return f"{var} {op} {literal(_year_datetime(bound), datatype=XSD + 'dateTime')}"
    op = "=" if f.op in ("year", "decade") else f.op
    return f"{var} {op} {literal(_decimal_text(f.value), datatype=XSD + 'decimal')}"


def _year_datetime(year: int) -> str:
    sign = "-" if year < 0 else ""
    return f"{sign}{abs(year):04d}-01-01T00:00:00Z"


def _decimal_text(value: Decimal) -> str:
    text = format(value, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def filter_query(triples: Sequence[Triple], pid: str, f: NumberFilter, *, count: bool = False) -> str:
    """The ``?answer`` set of a body whose ``pid`` value passes ``f`` (or its size)."""
    body = render_body([*triples, ("?answer", wdt(pid), "?value")])
    expr = filter_condition(f, "?value")
    if count:
        body = render_body(rename([*triples, ("?answer", wdt(pid), "?value")], "?answer", "?x"))
        return f"SELECT (COUNT(DISTINCT ?x) AS ?answer) WHERE {{ {body} FILTER({expr}) }}"
    return f"SELECT DISTINCT ?answer WHERE {{ {body} FILTER({expr}) }}"


def ask_query(triples: Sequence[Triple], filter_expr: str | None = None) -> str:
    """``ASK { body [FILTER(expr)] }``."""
    body = render_body(triples)
    return f"ASK {{ {body}{f' FILTER({filter_expr})' if filter_expr else ''} }}"


def not_exists(triples: Sequence[Triple]) -> str:
    """``FILTER NOT EXISTS { s p o }`` for each pattern (each a test of its own)."""
    return " ".join(f"FILTER NOT EXISTS {{ {render_body([t])} }}" for t in triples)


def alive_query(excluded: Sequence[Triple]) -> str:
    """``ASK { FILTER NOT EXISTS { wd:X wdt:P570 ?value } … }``: true when none of the
    patterns (a person's death facts) holds ("Is X still alive?")."""
    return f"ASK {{ {not_exists(excluded)} }}"


def exclusion_query(triples: Sequence[Triple], excluded: Sequence[Triple]) -> str:
    """The ``?answer`` set of a body without the members that match ``excluded`` ("countries
    that border Germany but do not have German as an official language"), nor the excluded
    entity itself (Germany does not border Germany, but is no answer to "which countries
    do not border Germany")."""
    return f"SELECT DISTINCT ?answer WHERE {exclusion_group(triples, excluded)}"


def exclusion_group(triples: Sequence[Triple], excluded: Sequence[Triple]) -> str:
    """The group graph pattern of :func:`exclusion_query` (what it counts, too)."""
    others = dict.fromkeys(t for tr in excluded for t in (tr[0], tr[2]) if t.startswith("wd:"))
    differ = "".join(f" FILTER(?answer != {t})" for t in others)
    return f"{{ {render_body(triples)} {not_exists(excluded)}{differ} }}"


def comparison_query(qid1: str, qid2: str, pid: str, direction: Direction) -> str:
    """The two-entity comparison shape (its candidate carries a
    :class:`qa.candidate.ComparisonSpec`, which the execute stage evaluates)."""
    return (f"SELECT ?answer WHERE {{ VALUES ?answer {{ {wd(qid1)} {wd(qid2)} }} ?answer {wdt(pid)} ?value }} "
            f"ORDER BY {direction}(?value) LIMIT 1")
