"""Write a checked query out again from its structure (rdflib's algebra), never from the
text it came as.

:func:`write_query` is the only way a candidate's query reaches the verbalizer, the
validator and the KG: whatever a parser may read differently in the original text (a
comment that Oxigraph ends at ``\\r`` and rdflib only at ``\\n``, ``\\u`` escapes, Unicode
line breaks, odd spacing) is gone, because the text that runs holds only what this
module writes: compact names in the standard prefixes (``wd:Q…``, ``wdt:P…``, ``rdfs:label``), other IRIs as ``<…>``
(checked to hold no character that could end them), escaped literals, ASCII variable
names, keywords and punctuation.  It writes a small subset of SPARQL (the one
:mod:`qa.guard` admits); any other node raises :class:`NotWritable` and the candidate is
rejected.

The text keeps the form the local generator writes (``SELECT DISTINCT ?answer WHERE {
wd:Q937 wdt:P19 ?answer . }``), so that its verbalization, and the validator's score of
it, is the same as before.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from rdflib.paths import AlternativePath, InvPath, MulPath, Path, SequencePath
from rdflib.plugins.sparql.parserutils import CompValue
from rdflib.term import BNode, Identifier, Literal, URIRef, Variable

from kg.sparql import PREFIXES, WD, WDT, XSD, escape_string, iri_ref

MAX_LITERAL_CHARS = 300
"""The longest literal written (longer ones are rejected: no legitimate candidate needs one)."""

_VAR = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
_LOCAL = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,40}$")
_QID = re.compile(r"^[QP][1-9][0-9]{0,11}$")
_LANG = re.compile(r"^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8}){0,4}$")
_INTEGER = re.compile(r"^[+-]?[0-9]{1,30}$")
_DECIMAL = re.compile(r"^[+-]?[0-9]{0,30}\.[0-9]{1,30}$")
_BAD_CATEGORIES = frozenset({"Cc", "Zl", "Zp", "Cs", "Co", "Cn"})
_ESCAPED = frozenset("\t\n\r\b\f")

BUILTINS: dict[str, tuple[str, tuple[str, ...]]] = {
    "Builtin_STR": ("STR", ("arg",)),
    "Builtin_LANG": ("LANG", ("arg",)),
    "Builtin_LANGMATCHES": ("LANGMATCHES", ("arg1", "arg2")),
    "Builtin_DATATYPE": ("DATATYPE", ("arg",)),
    "Builtin_BOUND": ("BOUND", ("arg",)),
    "Builtin_sameTerm": ("sameTerm", ("arg1", "arg2")),
    "Builtin_isIRI": ("isIRI", ("arg",)),
    "Builtin_isBLANK": ("isBLANK", ("arg",)),
    "Builtin_isLITERAL": ("isLITERAL", ("arg",)),
    "Builtin_isNUMERIC": ("isNUMERIC", ("arg",)),
    "Builtin_IF": ("IF", ("arg1", "arg2", "arg3")),
    "Builtin_STRLEN": ("STRLEN", ("arg",)),
    "Builtin_UCASE": ("UCASE", ("arg",)),
    "Builtin_LCASE": ("LCASE", ("arg",)),
    "Builtin_CONTAINS": ("CONTAINS", ("arg1", "arg2")),
    "Builtin_STRSTARTS": ("STRSTARTS", ("arg1", "arg2")),
    "Builtin_STRENDS": ("STRENDS", ("arg1", "arg2")),
    "Builtin_ABS": ("ABS", ("arg",)),
    "Builtin_CEIL": ("CEIL", ("arg",)),
    "Builtin_FLOOR": ("FLOOR", ("arg",)),
    "Builtin_ROUND": ("ROUND", ("arg",)),
    "Builtin_YEAR": ("YEAR", ("arg",)),
    "Builtin_MONTH": ("MONTH", ("arg",)),
    "Builtin_DAY": ("DAY", ("arg",)),
    "Builtin_CONCAT": ("CONCAT", ("arg",)),
    "Builtin_SUBSTR": ("SUBSTR", ("arg", "start", "length")),
    "Builtin_REGEX": ("REGEX", ("text", "pattern", "flags")),
}
"""The built-in functions written, with the fields of their arguments in order (``CONCAT``'s
``arg`` is a list; an absent optional field is left out)."""

AGGREGATES = {"Aggregate_Count": "COUNT", "Aggregate_Sum": "SUM", "Aggregate_Min": "MIN", "Aggregate_Max": "MAX",
              "Aggregate_Avg": "AVG", "Aggregate_Sample": "SAMPLE"}
"""The aggregates written (no ``GROUP_CONCAT``: it builds strings of any size)."""

_INFIX = {"ConditionalAndExpression": "&&", "ConditionalOrExpression": "||"}
_UNARY = {"UnaryNot": "!", "UnaryMinus": "-", "UnaryPlus": "+"}
_OPERATORS = frozenset({"AdditiveExpression", "MultiplicativeExpression"})
_RELATIONS = frozenset({"=", "!=", "<", ">", "<=", ">=", "IN", "NOT IN"})


class NotWritable(Exception):
    """The structure holds something this writer does not write (``reason`` says what)."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


# ---------------------------------------------------------------- terms


def term(t: Identifier) -> str:
    """One RDF term as query text (a variable, IRI or literal)."""
    if isinstance(t, Variable):
        return variable(t)
    if isinstance(t, URIRef):
        return iri(t)
    if isinstance(t, Literal):
        return literal(t)
    if isinstance(t, BNode):
        raise NotWritable("blank_node", "a blank node in a pattern")
    raise NotWritable("operator", f"term {type(t).__name__}")


def variable(v: Variable) -> str:
    name = str(v)
    if not _VAR.match(name) or name.startswith("__"):
        raise NotWritable("variable", f"variable name {name[:40]!r}")
    return f"?{name}"


def iri(u: URIRef) -> str:
    """``wd:Q…``/``wdt:P…``, a name in another standard prefix (``rdfs:label``, the ones every
    KG client declares), else ``<iri>``."""
    text = str(u)
    for prefix, base in (("wd", WD), ("wdt", WDT)):
        if text.startswith(base) and _QID.match(text[len(base):]):
            return f"{prefix}:{text[len(base):]}"
    for prefix, base in PREFIXES.items():
        if text.startswith(base) and _LOCAL.match(text[len(base):]):
            return f"{prefix}:{text[len(base):]}"
    _check_text(text, "iri")
    try:
        return iri_ref(text)
    except ValueError as exc:
        raise NotWritable("iri", text[:80]) from exc


def literal(lit: Literal) -> str:
    text = str(lit)
    _check_text(text, "literal")
    datatype = str(lit.datatype) if lit.datatype is not None else None
    if datatype == XSD + "integer" and _INTEGER.match(text):
        return text
    if datatype == XSD + "decimal" and _DECIMAL.match(text):
        return text
    body = f'"{escape_string(text)}"'
    if lit.language:
        if not _LANG.match(lit.language):
            raise NotWritable("literal", f"language tag {lit.language[:20]!r}")
        return f"{body}@{lit.language}"
    if datatype and datatype != XSD + "string":
        return f"{body}^^{iri(URIRef(datatype))}"
    return body


def _check_text(text: str, what: str) -> None:
    if len(text) > MAX_LITERAL_CHARS:
        raise NotWritable(what, f"{len(text)} characters > {MAX_LITERAL_CHARS}")
    for ch in text:
        if ch not in _ESCAPED and unicodedata.category(ch) in _BAD_CATEGORIES:
            raise NotWritable(what, f"character U+{ord(ch):04X}")


def path(p: Path | URIRef) -> str:
    """A property path: IRIs, ``^``, ``/``, ``|`` and ``*``/``+``/``?`` (negated sets are never written)."""
    if isinstance(p, URIRef):
        return iri(p)
    if isinstance(p, InvPath):
        return f"^{_path_part(p.arg)}"
    if isinstance(p, SequencePath):
        return "/".join(_path_part(a) for a in p.args)
    if isinstance(p, AlternativePath):
        return "|".join(_path_part(a) for a in p.args)
    if isinstance(p, MulPath) and p.mod in ("*", "+", "?"):
        return f"{_path_part(p.path)}{p.mod}"
    raise NotWritable("negated_path" if type(p).__name__ == "NegatedPath" else "path", str(p)[:80])


def _path_part(p: Path | URIRef) -> str:
    text = path(p)
    return text if isinstance(p, URIRef) or (isinstance(p, MulPath) and isinstance(p.path, URIRef)) else f"({text})"


# ---------------------------------------------------------------- expressions


def expression(e: object, aggregates: dict[Variable, str]) -> str:
    """An expression; ``aggregates`` writes rdflib's ``__agg_N__`` variables back as the aggregate."""
    if isinstance(e, Variable):
        if e in aggregates:
            return aggregates[e]
        return variable(e)
    if isinstance(e, Identifier):
        return term(e)
    if not isinstance(e, CompValue):
        raise NotWritable("operator", f"expression {type(e).__name__}")
    name = e.name
    if name in _INFIX:
        parts = [e["expr"], *_as_list(_get(e, "other"))]
        return "(" + f" {_INFIX[name]} ".join(expression(p, aggregates) for p in parts) + ")"
    if name in ("AdditiveExpression", "MultiplicativeExpression"):
        out = expression(e["expr"], aggregates)
        for op, other in zip(_as_list(_get(e, "op")), _as_list(_get(e, "other")), strict=True):
            if op not in ("+", "-", "*", "/"):
                raise NotWritable("operator", f"operator {op!r}")
            out = f"({out} {op} {expression(other, aggregates)})"
        return out
    if name == "RelationalExpression":
        op = _get(e, "op")
        if op is None:
            return expression(e["expr"], aggregates)
        if op not in _RELATIONS:
            raise NotWritable("operator", f"operator {op!r}")
        if op in ("IN", "NOT IN"):
            items = ", ".join(expression(x, aggregates) for x in _as_list(_get(e, "other")))
            return f"({expression(e['expr'], aggregates)} {op} ({items}))"
        return f"({expression(e['expr'], aggregates)} {op} {expression(e['other'], aggregates)})"
    if name in _UNARY:
        return f"{_UNARY[name]}{expression(e['expr'], aggregates)}"
    if name == "Builtin_NOTEXISTS":
        return f"NOT EXISTS {{ {pattern(e['graph'])} }}"
    if name in BUILTINS:
        keyword, fields = BUILTINS[name]
        args = [expression(v, aggregates) for field in fields for v in _as_list(_get(e, field))]
        return f"{keyword}({', '.join(args)})"
    raise NotWritable("extension_function" if name == "Function" else "operator", f"{name} is not written")


def bare(e: object, aggregates: dict[Variable, str]) -> str:
    """An expression without the parentheses around the whole of it (for ``FILTER(…)``,
    ``BIND(… AS ?v)``, ``(… AS ?v)``, where the call's own parentheses hold it)."""
    text = expression(e, aggregates)
    wrapped = isinstance(e, CompValue) and (e.name in _INFIX or e.name in _OPERATORS or (
        e.name == "RelationalExpression" and _get(e, "op") is not None))
    return text[1:-1] if wrapped else text


def aggregate(a: CompValue) -> str:
    keyword = AGGREGATES.get(a.name)
    if keyword is None:
        raise NotWritable("operator", f"{a.name} is not written")
    distinct = "DISTINCT " if _get(a, "distinct") else ""
    arg = _get(a, "vars")
    inner = "*" if arg == "*" or arg is None else expression(arg, {})
    return f"{keyword}({distinct}{inner})"


def _get(node: CompValue, key: str) -> object:
    """A field of a node, ``None`` when absent (``CompValue.get`` answers the key's name)."""
    return dict.get(node, key)


def _as_list(value: object) -> list[object]:
    if value is None:
        return []
    return list(value) if isinstance(value, list | tuple) else [value]


# ---------------------------------------------------------------- graph patterns


def pattern(node: CompValue) -> str:
    """A group graph pattern's elements (without the braces around them)."""
    name = node.name
    if name == "BGP":
        return " ".join(f"{term(s)} {path(p) if isinstance(p, Path) else term(p)} {term(o)} ."
                        for s, p, o in node["triples"])
    if name == "ToMultiSet":
        return pattern(node["p"])
    if name == "values":
        return values(node["res"])
    if name == "Join":
        return " ".join(part for part in (_element(node["p1"]), _element(node["p2"])) if part)
    if name == "Filter":
        return f"{_element(node['p'])} FILTER({bare(node['expr'], {})})".strip()
    if name == "Extend":
        inner = node["p"]  # BINDs in a row share a group; a FILTER below keeps a group of its own
        inner_text = f"{{ {pattern(inner)} }}" if inner.name == "Filter" else pattern(inner)
        return f"{inner_text} BIND({bare(node['expr'], {})} AS {variable(node['var'])})".strip()
    raise NotWritable(_REASONS.get(name, "operator"), f"{name} is not on the allow-list")


_REASONS = {"ServiceGraphPattern": "service", "Graph": "graph", "Union": "union", "LeftJoin": "optional",
            "Minus": "minus", "Function": "extension_function"}


def _element(node: CompValue) -> str:
    """``node`` as a part of a bigger group: a FILTER or BIND gets a group of its own, so that
    its scope stays what it was."""
    if node.name in ("Filter", "Extend"):
        return f"{{ {pattern(node)} }}"
    return pattern(node)


def values(rows: Sequence[dict[Variable, Identifier]]) -> str:
    names = list(dict.fromkeys(v for row in rows for v in row))
    if not names:
        raise NotWritable("operator", "an empty VALUES block")
    if len(names) == 1:
        return f"VALUES {variable(names[0])} {{ {' '.join(_value(row.get(names[0])) for row in rows)} }}"
    cells = " ".join("(" + " ".join(_value(row.get(v)) for v in names) + ")" for row in rows)
    return f"VALUES ({' '.join(variable(v) for v in names)}) {{ {cells} }}"


def _value(t: Identifier | None) -> str:
    return "UNDEF" if t is None else term(t)


# ---------------------------------------------------------------- queries


def write_query(algebra: CompValue, limit: int | None) -> str:
    """The query text of a checked ``SelectQuery``/``AskQuery`` algebra.  A SELECT without a
    LIMIT gets ``LIMIT limit`` (none when ``limit`` is ``None``); the caller checked that a
    given LIMIT is small enough."""
    if algebra.name == "AskQuery":
        node = algebra["p"]
        return f"ASK {{ {pattern(node['p'] if node.name == 'Project' else node)} }}"
    if algebra.name != "SelectQuery":
        raise NotWritable("not_select_or_ask", algebra.name)
    node = algebra["p"]
    start, length = 0, None
    if node.name == "Slice":
        start, length = _get(node, "start") or 0, _get(node, "length")
        node = node["p"]
    modifier = ""
    if node.name in ("Distinct", "Reduced"):
        modifier = "DISTINCT " if node.name == "Distinct" else "REDUCED "
        node = node["p"]
    if node.name != "Project":
        raise NotWritable("operator", f"{node.name} where a projection was expected")
    projected: list[Variable] = list(node["PV"])
    node = node["p"]
    order: list[object] = []
    if node.name == "OrderBy":
        order = list(node["expr"])
        node = node["p"]
    head, having, aggregates, node = _aggregation(node, projected)
    if node.name in ("Group", "AggregateJoin"):
        raise NotWritable("operator", f"{node.name} out of place")
    group = _group_by(head.pop("__group__")) if "__group__" in head else ""
    select = " ".join(head.get(str(v), variable(v)) for v in projected) or "*"
    text = f"SELECT {modifier}{select} WHERE {{ {pattern(node)} }}"
    if group:
        text += f" GROUP BY {group}"
    if having:
        text += " HAVING" + "".join(f" ({bare(h, aggregates)})" for h in having)
    if order:
        text += " ORDER BY " + " ".join(_order(c, aggregates) for c in order)
    if start:
        text += f" OFFSET {int(start)}"
    if length is None:  # the LIMIT added on a line of its own, as the guard always added it
        return text if limit is None else f"{text}\nLIMIT {limit}"
    return f"{text} LIMIT {int(length)}"


def _aggregation(node: CompValue, projected: list[Variable]
                 ) -> tuple[dict[str, object], list[object], dict[Variable, str], CompValue]:
    """Peel the part above an ``AggregateJoin``: projected expressions (``(COUNT(…) AS ?n)``)
    and HAVING filters; ``head`` maps a variable to its projection text, ``__group__`` to
    the GROUP BY expressions.  Without aggregation, ``node`` is the WHERE pattern itself."""
    chain: list[CompValue] = []
    cursor = node
    while cursor.name in ("Extend", "Filter"):
        chain.append(cursor)
        cursor = cursor["p"]
    if cursor.name != "AggregateJoin":
        return {}, [], {}, node
    aggregates = {a["res"]: aggregate(a) for a in cursor["A"]}
    samples = {a["res"]: a["vars"] for a in cursor["A"] if a.name == "Aggregate_Sample"}
    head: dict[str, object] = {}
    having: list[object] = []
    for link in reversed(chain):
        if link.name == "Filter":
            having.append(link["expr"])
            continue
        var, expr = link["var"], link["expr"]
        if isinstance(expr, Variable) and samples.get(expr) == var:
            continue  # rdflib's implicit SAMPLE of a grouped variable: written as the variable
        if var not in projected:
            raise NotWritable("operator", f"an aggregate bound to the unprojected {var}")
        head[str(var)] = f"({bare(expr, aggregates)} AS {variable(var)})"
    group = cursor["p"]
    if group.name != "Group":
        raise NotWritable("operator", f"{group.name} under an aggregation")
    if _get(group, "expr"):
        head["__group__"] = group["expr"]
    return head, having, aggregates, group["p"]


def _group_by(exprs: object) -> str:
    out = []
    for e in _as_list(exprs):
        if not isinstance(e, Variable):
            raise NotWritable("operator", "GROUP BY an expression")
        out.append(variable(e))
    return " ".join(out)


def _order(condition: object, aggregates: dict[Variable, str]) -> str:
    if isinstance(condition, CompValue) and condition.name == "OrderCondition":
        direction = _get(condition, "order")
        inner = expression(condition["expr"], aggregates)
        if direction in ("ASC", "DESC"):
            return f"{direction}({inner})"
        return inner if inner.startswith("?") else f"({inner})"
    inner = expression(condition, aggregates)
    return inner if inner.startswith("?") else f"({inner})"
