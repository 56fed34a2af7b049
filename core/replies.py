"""The one check of what an outbound HTTP reply holds: the shapes the clients read
(SPARQL 1.1 JSON results, a QAnswer ``/api/qa/full`` reply, Wikidata's entity search),
parsed and validated in one step by pydantic (its JSON parser has a nesting limit: a
deeply nested reply is a validation error, not a ``RecursionError``; ``NaN`` and
``Infinity`` are refused where a number is read).

:func:`parse_reply` raises :class:`MalformedReply` (a ``ValueError``) for anything that
is not the shape; each client turns it into its own "service unavailable" error
(:class:`core.errors.KGUnavailable`, :class:`core.errors.BackendResponseError`)."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any, Literal, NotRequired, TypeVar

from pydantic import ConfigDict, StrictBool, StrictStr, TypeAdapter, ValidationError, with_config
from typing_extensions import TypedDict

T = TypeVar("T")
U = TypeVar("U")

BIG_REPLY_BYTES = 1024 * 1024
"""Replies larger than this are parsed one at a time per process (:data:`_BIG_PARSES`): four
8 MiB replies read at once (an endpoint's start-up reads) each become hundreds of MiB of
Python objects."""
_BIG_PARSES = threading.BoundedSemaphore(1)


def _fresh_after_fork() -> None:  # a child must not inherit a parse another thread held
    global _BIG_PARSES
    _BIG_PARSES = threading.BoundedSemaphore(1)


os.register_at_fork(after_in_child=_fresh_after_fork)

_STRICT = ConfigDict(allow_inf_nan=False, extra="ignore")


class MalformedReply(ValueError):
    """A reply that is not the shape its client reads (the message says where)."""


Binding = TypedDict("Binding", {"type": Literal["uri", "literal", "typed-literal", "bnode"], "value": StrictStr,
                                "datatype": NotRequired[StrictStr], "xml:lang": NotRequired[StrictStr]})
"""One RDF term of a SPARQL-JSON row."""


@with_config(_STRICT)
class Head(TypedDict):
    vars: NotRequired[list[StrictStr]]


@with_config(_STRICT)
class Results(TypedDict):
    bindings: list[dict[StrictStr, Binding]]


@with_config(_STRICT)
class SparqlJson(TypedDict):
    """SPARQL 1.1 Query Results JSON: a SELECT (``head.vars``, ``results.bindings``) or an ASK (``boolean``)."""

    head: NotRequired[Head]
    results: NotRequired[Results]
    boolean: NotRequired[StrictBool]


@with_config(_STRICT)
class QAnswerQuery(TypedDict):
    query: StrictStr
    confidence: NotRequired[float]


@with_config(_STRICT)
class QAnswerReply(TypedDict):
    """``{"queries": [{"query", "confidence"}, ...]}`` (QAnswer's ``/api/qa/full``)."""

    queries: NotRequired[list[QAnswerQuery]]


@with_config(_STRICT)
class SearchHit(TypedDict):
    id: StrictStr
    match: NotRequired[dict[str, Any]]


@with_config(_STRICT)
class SearchReply(TypedDict):
    """Wikidata's ``wbsearchentities`` reply (the part read)."""

    search: list[SearchHit]


SPARQL_REPLY: TypeAdapter[SparqlJson] = TypeAdapter(SparqlJson)
QANSWER_REPLY: TypeAdapter[QAnswerReply] = TypeAdapter(QAnswerReply)
SEARCH_REPLY: TypeAdapter[SearchReply] = TypeAdapter(SearchReply)


def parse_reply(adapter: TypeAdapter[T], raw: bytes, convert: Callable[[T], U]) -> U:
    """``convert`` of ``raw`` parsed and checked against ``adapter``'s shape (a big reply is
    parsed and converted while no other is: the parsed form is freed before the next);
    raises :class:`MalformedReply`."""
    if len(raw) > BIG_REPLY_BYTES:
        with _BIG_PARSES:
            return convert(_validated(adapter, raw))
    return convert(_validated(adapter, raw))


def _validated(adapter: TypeAdapter[T], raw: bytes) -> T:
    try:
        return adapter.validate_json(raw)
    except ValidationError as exc:
        first = exc.errors()[0] if exc.error_count() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))[:120]
        raise MalformedReply(f"{exc.error_count()} problem(s), first at {where or 'the top'}: "
                             f"{str(first.get('msg', ''))[:200]}") from None
    except RecursionError as exc:  # a parser without a nesting limit (not pydantic's): never a traceback
        raise MalformedReply("nested too deeply") from exc


def sparql_shape(data: SparqlJson) -> tuple[list[str], list[dict[str, Binding]]] | bool:
    """An ASK's boolean, or a SELECT's ``(vars, bindings)``; raises :class:`MalformedReply`
    when the reply is neither."""
    if "boolean" in data:
        return data["boolean"]
    if "results" not in data:
        raise MalformedReply("neither 'boolean' nor 'results'")
    return list(data.get("head", {}).get("vars", [])), data["results"]["bindings"]
