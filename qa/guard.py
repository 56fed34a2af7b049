"""Candidates are untrusted input: the SPARQL allow-list every candidate passes before
anything (verbalizer, validator, KG) sees it, whichever backend produced it.

**What runs is what was checked.**  The query is parsed by rdflib's SPARQL parser and
translated to its algebra; every check reads that structure (nothing is matched with
regular expressions), and the query passed on is written out again from it by
:func:`qa.sparql_writer.write_query`, never the text the backend sent: a comment, an escape
or a line break that another parser reads differently never reaches the engine, the
verbalizer or the validator.  Anything the writer does not write is rejected.  A text that
differs from one already accepted only in its entity ids (``wd:Q…``, renamed one to one;
no literal, comment, IRI or escape in it) is accepted as that one was, its own ids written
back (:func:`_form`): the local backend's 60 candidates of a question are a few dozen forms.

Before parsing, the text's size, nesting and characters are checked (:func:`prescreen`):
rdflib's parser is slow on deep or long inputs.  A candidate is accepted only when

* it is a SELECT or an ASK query (an update, ``LOAD`` or anything else does not parse
  as a query, and is rejected) that names no dataset (``FROM``, ``FROM NAMED``);
* every algebra node is one the writer writes (no ``SERVICE``, ``GRAPH``, ``UNION``,
  ``OPTIONAL``, ``MINUS``, ``EXISTS``, sub-queries, extension functions, ``GROUP_CONCAT``);
  ``FILTER NOT EXISTS { … }`` is written (an exclusion, "who is not …", "is X still alive"),
  at most :data:`MAX_NOT_EXISTS` of them and none inside another;
* it has at most :data:`MAX_PATTERNS` triple patterns, all joined through shared variables
  into one group anchored on a constant (an IRI or literal in subject or object position,
  or a ``VALUES`` variable): no cartesian products, no scans of the whole graph; the
  patterns of a ``NOT EXISTS`` (a test per solution, which adds no rows) form one group
  anchored on a constant or on a variable of the query's own patterns, and bind no answer;
* it is priced (:func:`_price`): at most :data:`MAX_VARIABLE_PREDICATES` unbound predicate,
  only on a pattern that names a constant; joins at most :data:`MAX_JOIN_DEPTH` patterns
  away from a constant; at most :data:`MAX_WIDE_VARIABLES` variable reached only backwards
  from a constant (``?x wdt:P31 wd:Q5``); at most :data:`MAX_BINDS` ``BIND``s and
  :data:`MAX_STRING_BUILDERS` string-building calls; ``REGEX`` with a short constant pattern;
* its property paths are bounded: ``^``, ``/``, ``|`` and ``?`` freely, a ``*`` or ``+`` only
  over one IRI, in a triple with an IRI at one end, at most :data:`MAX_STAR_PATHS` per
  query (``?x wdt:P31/wdt:P279* wd:Q5``).  Negated paths are never accepted.

A SELECT without a ``LIMIT`` gets ``LIMIT`` :data:`DEFAULT_LIMIT`; a larger ``LIMIT`` or an
``OFFSET`` past :data:`MAX_OFFSET` is rejected.  A rejection is a
:class:`core.errors.CandidateRejected` carrying the reason code; :func:`screen` never
raises for a candidate: one that cannot be read at all is rejected as ``unreadable``.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import queue
import re
import threading
import unicodedata
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from pyparsing import ParseException, ParseResults
from rdflib import Namespace
from rdflib.paths import AlternativePath, InvPath, MulPath, NegatedPath, Path, SequencePath
from rdflib.plugins.sparql import algebra as rdflib_algebra
from rdflib.plugins.sparql.algebra import translateQuery
from rdflib.plugins.sparql.parser import parseQuery, parseUpdate
from rdflib.plugins.sparql.parserutils import CompValue
from rdflib.term import Identifier, Literal, URIRef, Variable

from core.errors import CandidateRejected
from kg.sparql import PREFIXES
from kg.sparql import WD as WD_ENTITY
from kg.sparql import WDT as WD_DIRECT
from qa.candidate import Candidate
from qa.sparql_writer import AGGREGATES, BUILTINS, NotWritable, write_query

log = logging.getLogger(__name__)

MAX_QUERY_CHARS = 4000
MAX_BRACES = 16
"""``{`` in a query (rdflib took 74 s and 6.3 GB on 60 copies of ``{} {}``)."""
MAX_NESTING = 6
"""Depth of ``{`` and of ``(``, each."""
MAX_PARENS = 80
PARSE_TIMEOUT_S = 5.0
"""A backstop: the size limits keep real parses under a second even on a loaded machine."""
CHECK_CACHE_SIZE = 8192
"""Checked query texts remembered (:func:`_check` is a pure function of the text; a
backend's candidates recur across questions: the same entity, another property)."""
MAX_PATTERNS = 12
MAX_STAR_PATHS = 2
MAX_PATH_STEPS = 6
DEFAULT_LIMIT = 1000
"""The LIMIT given to a SELECT that has none (the pipeline reads at most 201 rows)."""
MAX_OFFSET = 1000
MAX_VARIABLE_PREDICATES = 1
MAX_JOIN_DEPTH = 3
MAX_WIDE_VARIABLES = 1
MAX_BINDS = 2
MAX_STRING_BUILDERS = 2
MAX_CONCAT_ARGS = 4
MAX_REGEX = 2
MAX_REGEX_CHARS = 100
MAX_VALUES_ROWS = 100
MAX_ORDER_CONDITIONS = 3
MAX_EXPRESSION_NODES = 40
MAX_NOT_EXISTS = 3
NOT_EXISTS = "Builtin_NOTEXISTS"

STRING_BUILDERS = frozenset({"Builtin_CONCAT", "Builtin_SUBSTR", "Builtin_UCASE", "Builtin_LCASE"})
"""Calls that make new strings (each priced; ``REPLACE`` and ``GROUP_CONCAT`` are not written at all)."""

_STRUCTURE = frozenset({
    "SelectQuery", "AskQuery", "Project", "Distinct", "Reduced", "Slice", "OrderBy", "OrderCondition",
    "Filter", "Extend", "BGP", "Join", "Group", "AggregateJoin", "ToMultiSet", "values",
})
_EXPRESSIONS = frozenset({
    "RelationalExpression", "ConditionalAndExpression", "ConditionalOrExpression", "AdditiveExpression",
    "MultiplicativeExpression", "UnaryNot", "UnaryMinus", "UnaryPlus",
})
ALLOWED_NODES = _STRUCTURE | _EXPRESSIONS | frozenset(BUILTINS) | frozenset(AGGREGATES) | {NOT_EXISTS}
"""Algebra nodes a candidate may hold: the ones :mod:`qa.sparql_writer` writes."""

_REASONS = {"ServiceGraphPattern": "service", "Graph": "graph", "Union": "union", "LeftJoin": "optional",
            "Minus": "minus", "Function": "extension_function"}
_LINE_BREAKS = frozenset("\x85\u2028\u2029\x0b\x0c")

_NAMESPACES = {prefix: Namespace(iri) for prefix, iri in PREFIXES.items()}
# rdflib reports bad queries with pyparsing's ParseException, and with plain ``Exception``
# (an unknown prefix), ValueError or RecursionError from the translation: all mean "rejected"
_PARSE_ERRORS: tuple[type[Exception], ...] = (ParseException, Exception)

TriplePattern = tuple[Identifier, Identifier | Path, Identifier]


@dataclass(frozen=True)
class Screened:
    """The candidates that passed, with the query written out from what was checked (LIMIT
    added where missing: what everything downstream sees and runs); the same candidates as
    their backend wrote them (what ``/api/qa/full`` passes on: a consumer guards them itself,
    as kgqa's QAnswer client does on arrival); and the rejections."""

    accepted: list[Candidate]
    as_written: list[Candidate]
    rejected: list[CandidateRejected]

    def report(self) -> list[dict[str, str]]:
        """The rejections as recorded on a turn: reason code and what was found."""
        return [{"reason": r.reason, "detail": r.detail} for r in self.rejected]


def check_query(sparql: str) -> str:
    """The query to run: written out from ``sparql``'s checked structure, with a LIMIT when
    it had none.

    Raises :class:`CandidateRejected` (``reason`` says why) for anything off the allow-list.
    """
    return _check(sparql).sparql


@dataclass(frozen=True)
class _Checked:
    sparql: str  # to run: written from the structure (LIMIT added where missing)
    entities: tuple[str, ...]  # Q-ids named in subject or object position or in VALUES, in order
    properties: tuple[str, ...]  # P-ids of the predicates (each step of a path), in order


@dataclass(frozen=True)
class _Rejection:
    """A remembered rejection (raised afresh each time as :class:`CandidateRejected`)."""

    reason: str
    sparql: str
    detail: str


def _check(sparql: str) -> _Checked:
    """The checked query, or :class:`CandidateRejected`; the outcome for a text already
    checked is remembered (:data:`CHECK_CACHE_SIZE` texts), except a parse that ran out of
    time, which is a fault of the moment, not of the text.  A text that differs from one
    already accepted only in its entity ids is accepted as that one was (:func:`_form`)."""
    accepted = _by_form(sparql)
    if accepted is not None:
        return accepted
    outcome = _remembered(sparql)
    if isinstance(outcome, _Rejection):
        raise CandidateRejected(outcome.reason, outcome.sparql, outcome.detail)
    return outcome


@functools.lru_cache(maxsize=CHECK_CACHE_SIZE)
def _remembered(sparql: str) -> _Checked | _Rejection:
    try:
        return _check_text(sparql)
    except CandidateRejected as exc:
        if exc.reason == "parse_timeout":
            raise
        return _Rejection(exc.reason, exc.sparql, exc.detail)


_ENTITY_NAME = re.compile(r"(?<![\w?$:])wd:Q([1-9][0-9]{0,15})(?![\w\-:%]|\.[\w\-:%.])")
"""A Wikidata entity written as a prefixed name (``wd:Q42``), as the local backend writes them."""
_NOT_IN_FORMS = frozenset("\"'#<\\")
"""Where a text has a literal, a comment, an IRI or an escape, its entity names are not renamed."""


def _form(sparql: str) -> tuple[str, tuple[str, ...]] | None:
    """``sparql`` with its entity ids renamed ``Q1``, ``Q2`` … in order of first appearance
    (a one-to-one renaming), and the ids; ``None`` where a renaming could change what the text
    says: it has a literal, a comment, an IRI or an escape, or ``wd:Q`` where no entity name
    stands (``?wd:Q1``).  The local backend's candidates for one question, and for the next,
    are a few dozen forms: each form is parsed once, not each text."""
    if not _NOT_IN_FORMS.isdisjoint(sparql):
        return None
    ids: dict[str, int] = {}
    renamed, names = _ENTITY_NAME.subn(lambda m: f"wd:Q{ids.setdefault(m.group(1), len(ids) + 1)}", sparql)
    if not ids or names != sparql.count("wd:Q"):
        return None
    return renamed, tuple(f"Q{number}" for number in ids)


def _by_form(sparql: str) -> _Checked | None:
    """The checked query for ``sparql`` from its form's (:func:`_form`), when the form was
    accepted and its written query names its entities only as renamed names (so each is named
    back); ``None`` otherwise (the text itself is then checked, and a rejection says so with
    the text's own words)."""
    form = _form(sparql)
    if form is None:
        return None
    renamed, ids = form
    try:
        prescreen(sparql)  # its own size, as typed
        outcome = _remembered(renamed)
    except CandidateRejected as exc:
        if exc.reason == "parse_timeout":  # a fault of the moment: not parsed twice
            raise CandidateRejected(exc.reason, sparql, exc.detail) from None
        return None
    if not isinstance(outcome, _Checked) or "/entity/" in outcome.sparql:
        return None
    named = _ENTITY_NAME.findall(outcome.sparql)
    if outcome.sparql.count("wd:Q") != len(named) or any(int(n) > len(ids) for n in named):
        return None
    written = _ENTITY_NAME.sub(lambda m: "wd:" + ids[int(m.group(1)) - 1], outcome.sparql)
    entities = tuple(ids[int(e[1:]) - 1] for e in outcome.entities)
    return _Checked(written, entities, outcome.properties)


def forget_checks() -> None:
    """Forget every remembered outcome (tests that replace the parser)."""
    _remembered.cache_clear()


def _check_text(sparql: str) -> _Checked:
    prescreen(sparql)
    parsed = _parse(sparql)
    algebra = _translate(parsed, sparql)
    if algebra.name not in ("SelectQuery", "AskQuery"):
        raise CandidateRejected("not_select_or_ask", sparql, algebra.name)
    if _field(algebra, "datasetClause"):
        raise CandidateRejected("dataset_clause", sparql, "FROM / FROM NAMED")
    triples: list[TriplePattern] = []
    bound: set[Variable] = set()
    values: list[object] = []
    nodes = list(_nodes(algebra))
    for node in nodes:
        if _is_subquery(node, algebra):
            raise CandidateRejected("subquery", sparql, "a sub-query")
        _check_node(node, sparql)
        if node.name == "BGP":
            triples.extend(node["triples"])
        elif node.name == "values":
            rows = node["res"]
            if len(rows) > MAX_VALUES_ROWS:
                raise CandidateRejected("too_many_values", sparql, f"{len(rows)} VALUES rows > {MAX_VALUES_ROWS}")
            bound.update(var for row in rows for var in row)
            values.extend(term for row in rows for term in row.values())
    _check_slice(algebra, sparql)
    excluded = _not_exists_groups(nodes, sparql)
    negated = {id(t) for group in excluded for t in group}
    positive = [t for t in triples if id(t) not in negated]
    _check_triples(triples, bound, sparql, positive=positive)
    for group in excluded:
        outer = {t for tr in positive for t in _terms(*tr) if isinstance(t, Variable)}
        _check_connected(group, bound | outer, sparql)
    _check_answers_from_graph(algebra, nodes, positive if positive else triples, sparql)
    _price(nodes, triples, bound, sparql)
    entities, properties = _ids(triples, values)
    try:
        written = write_query(algebra, DEFAULT_LIMIT)
    except NotWritable as exc:
        raise CandidateRejected(exc.reason, sparql, exc.detail) from exc
    return _Checked(written, entities, properties)


def screen(candidates: Sequence[Candidate]) -> Screened:
    """Split ``candidates`` into the allowed (in order, written out from their checked
    structure) and the rejected (each logged with its reason); never raises for a
    candidate, so one bad candidate never costs the others.  A candidate that came as text
    only (a foreign backend: no entities or properties) gets them from the structure, so
    that the chat can say what was understood whichever backend produced the query."""
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
        except (KeyError, TypeError, AttributeError, ValueError, RecursionError) as exc:
            # a structure rdflib built in a way no check foresaw: rejected, never the turn's end
            log.exception("candidate unreadable")
            rejected.append(CandidateRejected("unreadable", candidate.sparql, type(exc).__name__))
            continue
        if not candidate.entities and not candidate.properties:  # a foreign candidate: what it names, read once
            candidate = dataclasses.replace(candidate, entities=checked.entities, properties=checked.properties)
        as_written.append(candidate)
        accepted.append(dataclasses.replace(candidate, sparql=checked.sparql))
    return Screened(accepted, as_written, rejected)


# ---------------------------------------------------------------- before parsing


def prescreen(sparql: str) -> None:
    """Size, nesting and characters, checked on the text before rdflib parses it (its parser
    is slow and hungry on deep or long inputs).  Control characters and Unicode line
    breaks, which parsers read differently (a bare ``\r`` ends a ``#`` comment for Oxigraph,
    not for rdflib), and ``\\u``/``\\U`` escapes (rdflib expands them before parsing, so
    ``\\u0023`` starts a comment for it alone) are refused anywhere in the text."""
    if len(sparql) > MAX_QUERY_CHARS:
        raise CandidateRejected("too_long", sparql, f"{len(sparql)} characters, the limit is {MAX_QUERY_CHARS}")
    for ch in sparql:
        if ch in _LINE_BREAKS or (unicodedata.category(ch) in ("Cc", "Cs") and ch not in "\t\n\r"):
            raise CandidateRejected("control_character", sparql, f"character U+{ord(ch):04X}")
    if sparql.replace("\r\n", "\n").count("\r"):  # Oxigraph ends a comment there, rdflib does not
        raise CandidateRejected("control_character", sparql, "a carriage return not followed by a line feed")
    if "\\u" in sparql or "\\U" in sparql:  # rdflib expands them anywhere before parsing, Oxigraph does not
        raise CandidateRejected("unicode_escape", sparql, "a \\u or \\U escape (write the character itself)")
    for opening, closing, most in (("{", "}", MAX_BRACES), ("(", ")", MAX_PARENS)):
        if sparql.count(opening) > most:
            raise CandidateRejected("too_nested", sparql, f"{sparql.count(opening)} '{opening}' > {most}")
        depth = deepest = 0
        for ch in sparql:
            if ch == opening:
                depth += 1
                deepest = max(deepest, depth)
            elif ch == closing:
                depth -= 1
        if deepest > MAX_NESTING:
            raise CandidateRejected("too_nested", sparql, f"'{opening}' nested {deepest} deep > {MAX_NESTING}")


# ---------------------------------------------------------------- parsing


def _parse(sparql: str) -> ParseResults:
    """rdflib's parse of ``sparql``, given at most :data:`PARSE_TIMEOUT_S` (the parse runs in a
    thread of its own, kept for the calling thread's next parses; one past the limit is left to
    end there, its candidate rejected and a fresh thread started for the next: :func:`prescreen`
    keeps what it can cost small)."""
    worker = _parser()
    outcome = worker.parse(sparql, PARSE_TIMEOUT_S)
    if outcome is None:
        _PARSERS.worker = None
        worker.stop()
        raise CandidateRejected("parse_timeout", sparql, f"not parsed in {PARSE_TIMEOUT_S}s")
    if isinstance(outcome, CandidateRejected):
        raise outcome
    return outcome


def _parse_outcome(sparql: str) -> ParseResults | CandidateRejected:
    try:
        return parseQuery(sparql)
    except _PARSE_ERRORS as exc:
        if _is_update(sparql):
            return CandidateRejected("update", sparql, "an update request, not a query")
        return CandidateRejected("syntax", sparql, f"{type(exc).__name__}: {str(exc)[:200]}")


class _ParseThread:
    """A daemon thread that parses the texts handed to it, one at a time (starting a thread
    per candidate cost more than many a parse)."""

    def __init__(self) -> None:
        self._requests: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._replies: queue.SimpleQueue[ParseResults | CandidateRejected] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="guard-parse", daemon=True)
        self._thread.start()

    def alive(self) -> bool:
        """Whether the thread runs (it does not in a process forked after it started:
        ``kgqa serve``'s workers are forked from a warmed template)."""
        return self._thread.is_alive()

    def _run(self) -> None:
        while (sparql := self._requests.get()) is not None:
            self._replies.put(_parse_outcome(sparql))

    def parse(self, sparql: str, timeout_s: float) -> ParseResults | CandidateRejected | None:
        """The outcome, or ``None`` when the parse did not end within ``timeout_s``."""
        self._requests.put(sparql)
        try:
            return self._replies.get(timeout=timeout_s)
        except queue.Empty:
            return None

    def stop(self) -> None:
        """End the thread once its current parse is done (it takes no more)."""
        self._requests.put(None)


class _Parsers(threading.local):
    """Each calling thread's parse thread (``None`` until its first parse)."""

    def __init__(self) -> None:
        self.worker: _ParseThread | None = None


_PARSERS = _Parsers()


def _parser() -> _ParseThread:
    """The calling thread's parse thread (started on first use, and again after a fork)."""
    if _PARSERS.worker is None or not _PARSERS.worker.alive():
        _PARSERS.worker = _ParseThread()
    return _PARSERS.worker


def _translate(parsed: ParseResults, sparql: str) -> CompValue:
    """rdflib's algebra of ``parsed``, its triple patterns in the order the candidate wrote
    them: rdflib sorts them by its own evaluator's cost heuristic (``reorderTriples``, which
    it calls by its module-level name), and the written query keeps the candidate's order
    so that its verbalization, and the validator's score, stay what they were."""
    with _TRANSLATING:
        reorder, collect = rdflib_algebra.reorderTriples, rdflib_algebra.collectAndRemoveFilters
        rdflib_algebra.reorderTriples = _as_written
        rdflib_algebra.collectAndRemoveFilters = _filters_checked(collect)
        _CONSTANT_FILTERS.found = []
        try:
            algebra = translateQuery(parsed, initNs=_NAMESPACES).algebra
            pending = list(_nodes(algebra))
            while pending:  # a NOT EXISTS graph: rdflib keeps its translation as an attribute (what it evaluates)
                node = pending.pop()
                if node.name == NOT_EXISTS:
                    translated = vars(node).get("graph")
                    node["graph"] = translated if translated is not None else \
                        rdflib_algebra.translateGroupGraphPattern(node["graph"])
                    pending.extend(_nodes(node["graph"]))
        except _PARSE_ERRORS as exc:
            raise CandidateRejected("syntax", sparql, f"{type(exc).__name__}: {str(exc)[:200]}") from exc
        finally:
            rdflib_algebra.reorderTriples, rdflib_algebra.collectAndRemoveFilters = reorder, collect
            found, _CONSTANT_FILTERS.found = _CONSTANT_FILTERS.found, None
        if found:
            raise CandidateRejected("constant_filter", sparql, f"FILTER({found[0]:.40}) is a constant")
        return algebra


_TRANSLATING = threading.Lock()


class _FilterLog(threading.local):
    found: list[str] | None = None


_CONSTANT_FILTERS = _FilterLog()


def _filters_checked(collect: Callable[[list[CompValue]], object]) -> Callable[[list[CompValue]], object]:
    """rdflib's ``collectAndRemoveFilters``, noting every constant ``FILTER`` condition of
    the group (for the guard's thread only).  rdflib leaves a group's filter out of its
    algebra when the condition is falsy (``false``, ``0``, ``""``, ``0.0``,
    ``"false"^^xsd:boolean``, a call without arguments such as ``NOW()``), so the query
    written from the algebra would lose it (``ASK { … FILTER(false) }`` became true); a
    constant condition (``true``, ``1``, an IRI) says nothing about the graph in any case.
    Such a candidate is refused (``constant_filter``)."""
    def checked(parts: list[CompValue]) -> object:
        found = _CONSTANT_FILTERS.found
        if found is not None:
            for part in parts:
                expr = part.get("expr") if part.name == "Filter" else None
                if part.name == "Filter" and (isinstance(expr, Literal | URIRef) or not expr):
                    found.append(str(expr) if expr is not None and not isinstance(expr, CompValue)
                                 else getattr(expr, "name", "()"))
        return collect(parts)
    return checked


def _as_written(triples: Iterable[TriplePattern]) -> list[TriplePattern]:
    return list(triples)


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
    if node.name in ALLOWED_NODES:
        return
    reason = _REASONS.get(node.name, "operator")
    raise CandidateRejected(reason, sparql, f"{node.name} is not on the allow-list")


def _check_slice(algebra: CompValue, sparql: str) -> None:
    """A LIMIT of at most :data:`DEFAULT_LIMIT`, an OFFSET of at most :data:`MAX_OFFSET`."""
    top = algebra["p"]
    if algebra.name != "SelectQuery" or top.name != "Slice":
        return
    limit, offset = _field(top, "length"), _field(top, "start") or 0
    if limit is not None and (not isinstance(limit, int) or limit > DEFAULT_LIMIT):
        raise CandidateRejected("limit_too_large", sparql, f"LIMIT {limit} > {DEFAULT_LIMIT}")
    if not isinstance(offset, int) or offset > MAX_OFFSET:
        raise CandidateRejected("offset_too_large", sparql, f"OFFSET {offset} > {MAX_OFFSET}")


# ---------------------------------------------------------------- triple patterns


def _not_exists_groups(nodes: list[CompValue], sparql: str) -> list[list[TriplePattern]]:
    """The triple patterns of each ``NOT EXISTS`` (at most :data:`MAX_NOT_EXISTS`, none
    inside another)."""
    groups = []
    for node in nodes:
        if node.name != NOT_EXISTS:
            continue
        inner = list(_nodes(node["graph"]))
        if any(n.name == NOT_EXISTS for n in inner):
            raise CandidateRejected("nested_not_exists", sparql, "a NOT EXISTS inside another")
        groups.append([t for n in inner if n.name == "BGP" for t in n["triples"]])
    if len(groups) > MAX_NOT_EXISTS:
        raise CandidateRejected("too_many_not_exists", sparql, f"{len(groups)} NOT EXISTS > {MAX_NOT_EXISTS}")
    return groups


def _check_triples(triples: list[TriplePattern], bound: set[Variable], sparql: str, *,
                   positive: list[TriplePattern] | None = None) -> None:
    """Size and paths of every pattern; the connection of the query's own patterns
    (``positive``: those outside a ``NOT EXISTS``; all of them when not given)."""
    if len(triples) > MAX_PATTERNS:
        raise CandidateRejected("too_many_patterns", sparql, f"{len(triples)} triple patterns > {MAX_PATTERNS}")
    stars = 0
    for s, p, o in triples:
        if isinstance(p, Path):
            stars += _check_path(p, s, o, sparql)
    if stars > MAX_STAR_PATHS:
        raise CandidateRejected("unbounded_path", sparql, f"{stars} '*'/'+' paths > {MAX_STAR_PATHS}")
    _check_connected(triples if positive is None else positive, bound, sparql)


def _check_path(path: Path, s: Identifier, o: Identifier, sparql: str) -> int:
    """How many ``*``/``+`` closures ``path`` has (0 or 1); raises for a path off the list."""
    parts = list(_path_parts(path))
    if any(isinstance(p, NegatedPath) for p in parts):
        raise CandidateRejected("negated_path", sparql, str(path))
    if not all(isinstance(p, URIRef | InvPath | SequencePath | AlternativePath | MulPath) for p in parts):
        raise CandidateRejected("path", sparql, str(path)[:100])
    if sum(isinstance(p, URIRef) for p in parts) > MAX_PATH_STEPS:
        raise CandidateRejected("path", sparql, f"{path} (more than {MAX_PATH_STEPS} steps)")
    closures = [p for p in parts if isinstance(p, MulPath) and p.mod in ("*", "+")]
    if not closures:
        return 0
    anchored = isinstance(s, URIRef) or isinstance(o, URIRef)
    if len(closures) > 1 or not isinstance(closures[0].path, URIRef) or not anchored:
        raise CandidateRejected("unbounded_path", sparql, f"{path} (only one '*'/'+' over one IRI, "
                                                          "in a triple with an IRI at one end)")
    return 1


def _path_parts(path: Path | URIRef) -> Iterator[Path | URIRef]:
    """``path`` and every path inside it (each kind of rdflib path, its own field)."""
    yield path
    if isinstance(path, SequencePath | AlternativePath | NegatedPath):
        for arg in path.args:
            yield from _path_parts(arg)
    elif isinstance(path, MulPath):
        yield from _path_parts(path.path)
    elif isinstance(path, InvPath):
        yield from _path_parts(path.arg)


def _check_connected(triples: list[TriplePattern], bound: set[Variable], sparql: str) -> None:
    """Every triple pattern must reach a constant through shared variables, and the ones
    with variables must form one group (two groups make their cartesian product)."""
    parent: dict[object, object] = {}

    def find(x: object) -> object:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(a: object, b: object) -> None:
        parent[find(a)] = find(b)

    anchored: set[object] = set()
    with_variables: list[int] = []
    for index, (s, p, o) in enumerate(triples):
        node = ("triple", index)
        find(node)
        variables = [t for t in _terms(s, p, o) if isinstance(t, Variable)]
        if variables:
            with_variables.append(index)
        for term in variables:
            union(node, term)
        if _is_constant(s) or _is_constant(o) or any(t in bound for t in variables):
            anchored.add(node)
    roots = {find(a) for a in anchored}
    loose = [i for i in range(len(triples)) if find(("triple", i)) not in roots]
    if loose:
        s, p, o = triples[loose[0]]
        raise CandidateRejected("unanchored_pattern", sparql,
                                f"{len(loose)} triple pattern(s) not connected to a constant, "
                                f"e.g. {s.n3()} {_n3(p)} {o.n3()}")
    groups = {find(("triple", i)) for i in with_variables}
    if len(groups) > 1 and not _facts_of_named_entities(triples, with_variables, len(groups)):
        raise CandidateRejected("cartesian_product", sparql,
                                f"{len(groups)} groups of triple patterns share no variable")


MAX_NAMED_GROUPS = 2
"""Groups a query may join without a shared variable when each reads facts of named
entities (a comparison of two entities' values: ``wd:A wdt:P ?a . wd:B wdt:P ?b``)."""


def _facts_of_named_entities(triples: list[TriplePattern], with_variables: list[int], groups: int) -> bool:
    """Whether a product of ``groups`` groups is bounded: at most :data:`MAX_NAMED_GROUPS`,
    and every triple with a variable has an IRI subject and an IRI predicate (each group
    reads the facts of a named entity, a handful of rows, never a scan)."""
    return groups <= MAX_NAMED_GROUPS and all(
        isinstance(triples[i][0], URIRef) and isinstance(triples[i][1], URIRef) for i in with_variables)


def _check_answers_from_graph(algebra: CompValue, nodes: list[CompValue], triples: list[TriplePattern],
                              sparql: str) -> None:
    """An answer comes from the graph: a query has a triple pattern, and every projected
    variable is bound by one (or is an aggregate over such a variable), never by a constant
    the candidate wrote itself (``VALUES ?answer { "Paris" }``, ``BIND("Paris" AS ?answer)``)."""
    if not triples:
        raise CandidateRejected("no_pattern", sparql, "no triple pattern: the answer would not come from the KG")
    if algebra.name != "SelectQuery":
        return
    in_graph = {t for s, p, o in triples for t in _terms(s, p, o) if isinstance(t, Variable)}
    aggregates = {a["res"]: a for n in nodes if n.name == "AggregateJoin" for a in n["A"]}
    for node in nodes:
        if node.name == "Extend" and node["var"] in algebra["PV"]:
            if not _is_aggregate_result(node["expr"]):
                raise CandidateRejected("answer_not_from_graph", sparql,
                                        f"?{node['var']} is computed, not read from the KG")
            argument = _field(aggregates[node["expr"]], "vars")
            if argument not in (None, "*") and argument not in in_graph:
                raise CandidateRejected("answer_not_from_graph", sparql,
                                        f"?{node['var']} aggregates what no triple pattern binds")
    for var in algebra["PV"]:
        if var not in in_graph and not any(n.name == "Extend" and n["var"] == var for n in nodes):
            raise CandidateRejected("answer_not_from_graph", sparql, f"?{var} is bound by no triple pattern")


# ---------------------------------------------------------------- pricing


def _price(nodes: list[CompValue], triples: list[TriplePattern], bound: set[Variable], sparql: str) -> None:
    """What a query may cost: unbound predicates, join depth, wide variables, BINDs,
    string building, regular expressions, ORDER BY conditions and expression size."""
    loose_predicates = [(s, p, o) for s, p, o in triples if isinstance(p, Variable) and p not in bound]
    if len(loose_predicates) > MAX_VARIABLE_PREDICATES:
        raise CandidateRejected("variable_predicates", sparql,
                                f"{len(loose_predicates)} unbound predicates > {MAX_VARIABLE_PREDICATES}")
    for s, _, o in loose_predicates:
        if not any(_is_constant(t) or t in bound for t in (s, o)):
            raise CandidateRejected("variable_predicates", sparql,
                                    "an unbound predicate between two variables (a join chain of any size)")
    depth = _join_depth(triples, bound)
    if depth > MAX_JOIN_DEPTH:
        raise CandidateRejected("join_depth", sparql, f"a pattern {depth} joins from a constant > {MAX_JOIN_DEPTH}")
    wide = _wide_variables(triples, bound)
    if len(wide) > MAX_WIDE_VARIABLES:
        raise CandidateRejected("wide_join", sparql, f"{len(wide)} variables reached only backwards from a "
                                                     f"constant ({', '.join(sorted('?' + v for v in wide))})")
    names = [n.name for n in nodes]
    binds = sum(1 for n in nodes if n.name == "Extend" and not _is_aggregate_result(n["expr"]))
    if binds > MAX_BINDS:
        raise CandidateRejected("too_many_binds", sparql, f"{binds} BINDs > {MAX_BINDS}")
    builders = sum(1 for name in names if name in STRING_BUILDERS)
    if builders > MAX_STRING_BUILDERS:
        raise CandidateRejected("string_building", sparql, f"{builders} string-building calls > "
                                                           f"{MAX_STRING_BUILDERS}")
    for node in nodes:
        if node.name == "Builtin_CONCAT" and len(_list(_field(node, "arg"))) > MAX_CONCAT_ARGS:
            raise CandidateRejected("string_building", sparql, f"CONCAT of more than {MAX_CONCAT_ARGS} values")
        if node.name == "Builtin_REGEX":
            _check_regex(node, sparql)
        if node.name == "OrderBy" and len(_list(node["expr"])) > MAX_ORDER_CONDITIONS:
            raise CandidateRejected("order_by", sparql, f"more than {MAX_ORDER_CONDITIONS} ORDER BY conditions")
    if names.count("Builtin_REGEX") > MAX_REGEX:
        raise CandidateRejected("regex", sparql, f"more than {MAX_REGEX} REGEX calls")
    expressions = sum(1 for name in names if name not in _STRUCTURE)
    if expressions > MAX_EXPRESSION_NODES:
        raise CandidateRejected("expression_size", sparql, f"{expressions} expression nodes > "
                                                           f"{MAX_EXPRESSION_NODES}")


def _check_regex(node: CompValue, sparql: str) -> None:
    pattern, flags = _field(node, "pattern"), _field(node, "flags")
    if not isinstance(pattern, Literal) or len(str(pattern)) > MAX_REGEX_CHARS:
        raise CandidateRejected("regex", sparql, f"a REGEX pattern must be a constant of at most "
                                                 f"{MAX_REGEX_CHARS} characters")
    if "{" in str(pattern):  # counted repetition is how a small pattern compiles to a huge automaton
        raise CandidateRejected("regex", sparql, "a REGEX pattern with a counted repetition ({n})")
    if flags is not None and (not isinstance(flags, Literal) or not set(str(flags)) <= set("imsx")):
        raise CandidateRejected("regex", sparql, "REGEX flags must be a constant of i, m, s, x")


def _is_aggregate_result(expr: object) -> bool:
    return isinstance(expr, Variable) and str(expr).startswith("__agg_")


def _list(value: object) -> list[object]:
    if value is None:
        return []
    return list(value) if isinstance(value, list | tuple) else [value]


def _join_depth(triples: list[TriplePattern], bound: set[Variable]) -> int:
    """How many joins the farthest pattern is from a pattern that names a constant."""
    distance: dict[int, int] = {}
    queue: deque[int] = deque()
    for i, (s, p, o) in enumerate(triples):
        if _is_constant(s) or _is_constant(o) or any(t in bound for t in _terms(s, p, o)):
            distance[i] = 0
            queue.append(i)
    while queue:
        i = queue.popleft()
        shared = {t for t in _terms(*triples[i]) if isinstance(t, Variable)}
        for j, triple in enumerate(triples):
            if j not in distance and shared & set(_terms(*triple)):
                distance[j] = distance[i] + 1
                queue.append(j)
    return max(distance.values(), default=0)


def _wide_variables(triples: list[TriplePattern], bound: set[Variable]) -> set[str]:
    """Variables whose only constant is the object of their own pattern (``?x wdt:P31 wd:Q5``:
    every instance of a class) and that no pattern reaches forwards from a constant or
    ``VALUES``: two of them joined are a product of two large sets."""
    narrow = set(bound)
    backwards: set[Variable] = set()
    for s, _, o in triples:
        if isinstance(o, Variable) and _is_constant(s):
            narrow.add(o)
        if isinstance(s, Variable) and _is_constant(o):
            backwards.add(s)
    return {str(v) for v in backwards - narrow}


def _ids(triples: list[TriplePattern], values: list[object]) -> tuple[tuple[str, ...], tuple[str, ...]]:
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
