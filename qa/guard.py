"""Candidates are untrusted input: the SPARQL allow-list every candidate passes before
anything (verbalizer, validator, KG) runs it, whichever backend produced it.

The query is parsed by rdflib's SPARQL parser and translated to its algebra; nothing
is matched with regular expressions.  A candidate is accepted only when

* it is a SELECT or an ASK query (an update, ``LOAD`` or anything else does not parse
  as a query, and is rejected);
* it names no dataset (``FROM``, ``FROM NAMED``);
* every algebra node is one of :data:`ALLOWED_PATTERNS` (so no ``SERVICE``, ``GRAPH``,
  ``UNION``, ``OPTIONAL``, ``MINUS``, sub-queries) and every function is a SPARQL
  built-in (no extension function IRIs);
* it has at most :data:`MAX_PATTERNS` triple patterns;
* every triple pattern is connected, through shared variables, to a constant: an IRI
  or literal in subject or object position, or a variable bound by ``VALUES`` (no
  cartesian products, no scans of the whole graph);
* its property paths are bounded, with one exception the local generator needs for
  class membership (``?x wdt:P31/wdt:P279* wd:Q5``): a ``*`` or ``+`` over one IRI, in a
  triple with an IRI at one end (the closure is then walked from a constant), at most
  :data:`MAX_STAR_PATHS` per query.  Negated paths are never accepted.

A SELECT without a ``LIMIT`` gets ``LIMIT`` :data:`DEFAULT_LIMIT` (appended, then parsed
again to check that the rewrite means what it should); a larger ``LIMIT`` is rejected.
A rejection is a :class:`core.errors.CandidateRejected` carrying the reason code.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from pyparsing import ParseException, ParseResults
from rdflib import Namespace
from rdflib.paths import AlternativePath, InvPath, MulPath, NegatedPath, Path, SequencePath
from rdflib.plugins.sparql.algebra import translateQuery
from rdflib.plugins.sparql.parser import parseQuery, parseUpdate
from rdflib.plugins.sparql.parserutils import CompValue
from rdflib.term import Identifier, Literal, URIRef, Variable

from core.errors import CandidateRejected
from kg.sparql import PREFIXES
from kg.sparql import WD as WD_ENTITY
from kg.sparql import WDT as WD_DIRECT
from qa.candidate import Candidate

log = logging.getLogger(__name__)

MAX_QUERY_CHARS = 4000
MAX_PATTERNS = 12
MAX_STAR_PATHS = 2
DEFAULT_LIMIT = 1000
"""The LIMIT given to a SELECT that has none (the pipeline reads at most 201 rows)."""

ALLOWED_PATTERNS = frozenset({
    "SelectQuery", "AskQuery", "Project", "Distinct", "Reduced", "Slice", "OrderBy", "OrderCondition",
    "Filter", "Extend", "BGP", "Join", "Group", "AggregateJoin", "ToMultiSet", "values",
})
"""Algebra operators a candidate may use (graph patterns and solution modifiers)."""

ALLOWED_EXPRESSIONS = frozenset({
    "RelationalExpression", "ConditionalAndExpression", "ConditionalOrExpression", "AdditiveExpression",
    "MultiplicativeExpression", "UnaryNot", "UnaryMinus", "UnaryPlus",
})
"""Expression nodes (besides ``Aggregate_*`` and ``Builtin_*``, minus the ones below)."""

FORBIDDEN_BUILTINS = frozenset({"Builtin_EXISTS", "Builtin_NOTEXISTS"})
"""Built-ins that hide a graph pattern inside an expression."""

_NAMESPACES = {prefix: Namespace(iri) for prefix, iri in PREFIXES.items()}
# rdflib reports bad queries with pyparsing's ParseException, and with plain ``Exception``
# (an unknown prefix), ValueError or RecursionError from the translation: all mean "rejected"
_PARSE_ERRORS: tuple[type[Exception], ...] = (ParseException, Exception)


@dataclass(frozen=True)
class Screened:
    """The candidates that passed (rewritten where a LIMIT was added), the same as their
    backend wrote them (what ``/api/qa/full`` passes on), and the rejections."""

    accepted: list[Candidate]
    as_written: list[Candidate]
    rejected: list[CandidateRejected]

    def report(self) -> list[dict[str, str]]:
        """The rejections as recorded on a turn: reason code and what was found."""
        return [{"reason": r.reason, "detail": r.detail} for r in self.rejected]


def check_query(sparql: str) -> str:
    """The query to run (``sparql``, with a LIMIT added when it had none).

    Raises :class:`CandidateRejected` (``reason`` says why) for anything off the allow-list.
    """
    return _check(sparql).sparql


@dataclass(frozen=True)
class _Checked:
    sparql: str  # to run (LIMIT added where missing)
    entities: tuple[str, ...]  # Q-ids named in subject or object position or in VALUES, in order
    properties: tuple[str, ...]  # P-ids of the predicates (each step of a path), in order


def _check(sparql: str) -> _Checked:
    if len(sparql) > MAX_QUERY_CHARS:
        raise CandidateRejected("too_long", sparql, f"{len(sparql)} characters, the limit is {MAX_QUERY_CHARS}")
    parsed = _parse(sparql)
    algebra = _translate(parsed, sparql)
    if algebra.name not in ("SelectQuery", "AskQuery"):
        raise CandidateRejected("not_select_or_ask", sparql, algebra.name)
    if _field(algebra, "datasetClause"):
        raise CandidateRejected("dataset_clause", sparql, "FROM / FROM NAMED")
    triples: list[tuple[Identifier, Identifier | Path, Identifier]] = []
    bound: set[Variable] = set()
    values: list[object] = []
    limit: object = None
    for node in _nodes(algebra):
        if _is_subquery(node, algebra):
            raise CandidateRejected("subquery", sparql, "a sub-query")
        _check_node(node, sparql)
        if node.name == "BGP":
            triples.extend(node["triples"])
        elif node.name == "values":
            bound.update(var for row in node["res"] for var in row)
            values.extend(term for row in node["res"] for term in row.values())
        elif node.name == "Slice" and node is algebra["p"]:
            limit = _field(node, "length")
    _check_triples(triples, bound, sparql)
    entities, properties = _ids(triples, values)
    if algebra.name == "AskQuery":
        return _Checked(sparql, entities, properties)
    if limit is None:
        return _Checked(_add_limit(sparql, parsed), entities, properties)
    if not isinstance(limit, int) or limit > DEFAULT_LIMIT:
        raise CandidateRejected("limit_too_large", sparql, f"LIMIT {limit} > {DEFAULT_LIMIT}")
    return _Checked(sparql, entities, properties)


def screen(candidates: Sequence[Candidate]) -> Screened:
    """Split ``candidates`` into the allowed (in order, LIMIT added) and the rejected
    (each logged with its reason).  A candidate that came as text only (a foreign backend:
    no entities or properties) gets them from the parse, so that the chat can say what was
    understood whichever backend produced the query."""
    accepted: list[Candidate] = []
    as_written: list[Candidate] = []
    rejected: list[CandidateRejected] = []
    for candidate in candidates:
        try:
            checked = _check(candidate.sparql)
        except CandidateRejected as exc:
            log.warning("candidate rejected (%s): %s", exc.reason, exc.detail)
            rejected.append(exc)
            continue
        if not candidate.entities and not candidate.properties:  # a foreign candidate: what it names, read once
            candidate = dataclasses.replace(candidate, entities=checked.entities, properties=checked.properties)
        as_written.append(candidate)
        accepted.append(candidate if checked.sparql == candidate.sparql
                        else dataclasses.replace(candidate, sparql=checked.sparql))
    return Screened(accepted, as_written, rejected)


# ---------------------------------------------------------------- parsing


def _parse(sparql: str) -> ParseResults:
    try:
        return parseQuery(sparql)
    except _PARSE_ERRORS as exc:
        if _is_update(sparql):
            raise CandidateRejected("update", sparql, "an update request, not a query") from exc
        raise CandidateRejected("syntax", sparql, f"{type(exc).__name__}: {str(exc)[:200]}") from exc


def _translate(parsed: ParseResults, sparql: str) -> CompValue:
    try:
        return translateQuery(parsed, initNs=_NAMESPACES).algebra
    except _PARSE_ERRORS as exc:
        raise CandidateRejected("syntax", sparql, f"{type(exc).__name__}: {str(exc)[:200]}") from exc


def _is_update(sparql: str) -> bool:
    try:
        parseUpdate(sparql)
    except _PARSE_ERRORS:
        return False
    return True


def _field(node: CompValue, key: str) -> object:
    """A field of an algebra node, ``None`` when absent (``CompValue.get`` answers the
    key's name for a missing key)."""
    return dict.get(node, key)


def _nodes(root: CompValue) -> Iterator[CompValue]:
    """Every algebra node under ``root`` (``root`` included), depth first."""
    stack: list[object] = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, CompValue):
            yield item
            stack.extend(value for key, value in item.items() if key not in ("_vars", "PV"))
        elif isinstance(item, list | tuple) and not _is_triple(item):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())


def _is_triple(item: object) -> bool:
    return isinstance(item, tuple) and len(item) == 3 and all(isinstance(x, Identifier | Path) for x in item)


def _is_subquery(node: CompValue, root: CompValue) -> bool:
    """A nested query (rdflib puts a sub-SELECT's projection under a ``ToMultiSet``)."""
    if node.name in ("SelectQuery", "AskQuery"):
        return node is not root
    return node.name == "ToMultiSet" and node["p"].name != "values"


def _check_node(node: CompValue, sparql: str) -> None:
    name = node.name
    if name in ALLOWED_PATTERNS or name in ALLOWED_EXPRESSIONS:
        return
    if name.startswith("Aggregate_"):
        return
    if name.startswith("Builtin_") and name not in FORBIDDEN_BUILTINS:
        return
    reason = {"ServiceGraphPattern": "service", "Graph": "graph", "Union": "union", "LeftJoin": "optional",
              "Minus": "minus", "Function": "extension_function"}.get(name, "operator")
    raise CandidateRejected(reason, sparql, f"{name} is not on the allow-list")


# ---------------------------------------------------------------- triple patterns


def _check_triples(triples: list[tuple[Identifier, Identifier | Path, Identifier]], bound: set[Variable],
                   sparql: str) -> None:
    if len(triples) > MAX_PATTERNS:
        raise CandidateRejected("too_many_patterns", sparql, f"{len(triples)} triple patterns > {MAX_PATTERNS}")
    stars = 0
    for s, p, o in triples:
        if isinstance(p, Path):
            stars += _check_path(p, s, o, sparql)
    if stars > MAX_STAR_PATHS:
        raise CandidateRejected("unbounded_path", sparql, f"{stars} '*'/'+' paths > {MAX_STAR_PATHS}")
    _check_connected(triples, bound, sparql)


def _check_path(path: Path, s: Identifier, o: Identifier, sparql: str) -> int:
    """How many ``*``/``+`` closures ``path`` has (0 or 1); raises for a path off the list."""
    closures = [p for p in _path_parts(path) if isinstance(p, MulPath) and p.mod in ("*", "+")]
    if any(isinstance(p, NegatedPath) for p in _path_parts(path)):
        raise CandidateRejected("negated_path", sparql, str(path))
    if not closures:
        return 0
    anchored = isinstance(s, URIRef) or isinstance(o, URIRef)
    if len(closures) > 1 or not isinstance(closures[0].path, URIRef) or not anchored:
        raise CandidateRejected("unbounded_path", sparql, f"{path} (only one '*'/'+' over one IRI, "
                                                          "in a triple with an IRI at one end)")
    return 1


def _path_parts(path: Path | URIRef) -> Iterator[Path | URIRef]:
    yield path
    if isinstance(path, SequencePath | AlternativePath):
        for arg in path.args:
            yield from _path_parts(arg)
    elif isinstance(path, MulPath | InvPath):
        yield from _path_parts(path.path)
    elif isinstance(path, NegatedPath):
        yield from path.args


def _check_connected(triples: list[tuple[Identifier, Identifier | Path, Identifier]], bound: set[Variable],
                     sparql: str) -> None:
    """Every triple pattern must reach a constant through shared variables."""
    parent: dict[object, object] = {}

    def find(x: object) -> object:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(a: object, b: object) -> None:
        parent[find(a)] = find(b)

    anchor = object()
    for index, (s, p, o) in enumerate(triples):
        node = ("triple", index)
        find(node)
        for term in _terms(s, p, o):
            if isinstance(term, Variable):
                union(node, term)
                if term in bound:
                    union(node, anchor)
        if _is_constant(s) or _is_constant(o):
            union(node, anchor)
    loose = [i for i in range(len(triples)) if find(("triple", i)) != find(anchor)]
    if loose:
        s, p, o = triples[loose[0]]
        raise CandidateRejected("unanchored_pattern", sparql,
                                f"{len(loose)} triple pattern(s) not connected to a constant, "
                                f"e.g. {s.n3()} {_n3(p)} {o.n3()}")


def _ids(triples: list[tuple[Identifier, Identifier | Path, Identifier]],
         values: list[object]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The Wikidata entity ids (subject/object IRIs and ``VALUES`` IRIs) and property ids
    (predicates, each step of a path) a query names, in order of appearance."""
    nodes = [t for s, _, o in triples for t in (s, o)] + list(values)
    entities = [str(t)[len(WD_ENTITY):] for t in nodes if isinstance(t, URIRef) and str(t).startswith(WD_ENTITY)]
    steps = [part for _, p, _ in triples for part in _path_parts(p)]
    properties = [str(t)[len(WD_DIRECT):] for t in steps if isinstance(t, URIRef) and str(t).startswith(WD_DIRECT)]
    return tuple(dict.fromkeys(entities)), tuple(dict.fromkeys(properties))


def _terms(s: Identifier, p: Identifier | Path, o: Identifier) -> Iterable[Identifier]:
    yield s
    if isinstance(p, Identifier):
        yield p
    yield o


def _is_constant(term: Identifier) -> bool:
    return isinstance(term, URIRef | Literal)


def _n3(p: Identifier | Path) -> str:
    return p.n3() if isinstance(p, Identifier) else str(p)


# ---------------------------------------------------------------- rewriting


def _add_limit(sparql: str, parsed: ParseResults) -> str:
    """``sparql`` with ``LIMIT`` :data:`DEFAULT_LIMIT` appended.

    The parser accepted ``sparql`` up to its end (it parses the whole text), so when the
    query has no LIMIT and no trailing ``VALUES`` block, its text ends with its solution
    modifiers (ORDER BY, OFFSET, or none) plus blanks or a comment: a LIMIT clause on a
    new line is then where the grammar expects it (checked by the tests, which parse
    every rewritten candidate again)."""
    query = parsed[1]
    if "valuesClause" in query:
        raise CandidateRejected("no_limit", sparql, "a trailing VALUES block: no LIMIT can be appended")
    return f"{sparql.rstrip()}\nLIMIT {DEFAULT_LIMIT}"
