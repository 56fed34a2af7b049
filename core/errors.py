"""The project's one error tree.  Foreign exceptions are translated at the boundary
(``raise BackendTimeout(...) from exc``); messages speak to developers, the chat
localizes what users see from the exception *class*.

::

    KGQAError
    ├── InputError                 bad user input (the chat shows a localized hint)
    │   ├── EmptyQuestion
    │   └── QuestionTooLong
    ├── KGError                    anything about the knowledge graph
    │   ├── KGSourceError          missing / unreadable / corrupt KG source file (names it)
    │   │   └── LabelIndexOutdated  the label index was built by another schema version (rebuilt)
    │   ├── KGQueryError           a query the KG rejected (syntax, unsupported feature)
    │   ├── KGTimeout              a query ran past its bound
    │   └── KGUnavailable          remote SPARQL endpoint refused, 5xx, malformed reply
    ├── BackendError               a candidate-generating backend failed
    │   ├── BackendTimeout
    │   ├── BackendUnavailable     refused connection, 5xx, 429, circuit breaker open
    │   ├── BackendResponseError   malformed JSON or wrong shape
    │   └── CandidateRejected      a candidate off the SPARQL allow-list (qa.guard; never run)
    ├── AssetError                 a shipped or built asset (model, ranker, lexicon) is unusable
    │   ├── ModelLoadError         missing or corrupt model file (names it)
    │   └── LexiconError           malformed property lexicon (names it)
    ├── DatasetError               unreadable or malformed benchmark file (evaluation)
    ├── SessionLogError            the session log could not be opened or written (chat)
    ├── SettingsError              a KGQA_* variable or flag with an unusable value (exit 2)
    └── InternalError              a foreign exception carried across a process boundary as data

``error_to_data`` / ``error_from_data``: errors cross process boundaries as plain data.

``is_service_fault(exc)`` tells the faults where the user should "try again later".
"""

from __future__ import annotations


class KGQAError(Exception):
    """Root of every error this project raises on purpose."""


class InputError(KGQAError):
    """The user's question cannot be processed as given."""


class EmptyQuestion(InputError):
    """The question is empty or whitespace only."""


class UnsupportedLanguage(InputError):
    """The question is written in a language the chat does not speak (yet)."""

    def __init__(self, lang: str) -> None:
        super().__init__(f"question is in {lang!r}, not a supported language")
        self.lang = lang


class QuestionTooLong(InputError):
    """The question exceeds the configured maximum length."""

    def __init__(self, length: int, limit: int) -> None:
        super().__init__(f"question has {length} characters, the limit is {limit}")
        self.length = length
        self.limit = limit


class KGError(KGQAError):
    """A knowledge-graph operation failed."""


class KGSourceError(KGError):
    """The KG source file is missing, unreadable or corrupt."""

    def __init__(self, path: object, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


class LabelIndexOutdated(KGSourceError):
    """The label index on disk was built by another schema version."""

    def __init__(self, path: object, found: str | None, expected: int) -> None:
        super().__init__(path, f"label index schema {found!r}, expected {expected}")
        self.found = found
        self.expected = expected


class KGQueryError(KGError):
    """The KG rejected a query."""


class KGTimeout(KGError):
    """A KG query ran past its time bound."""


class KGUnavailable(KGError):
    """A remote SPARQL endpoint could not be reached or answered garbage."""


class BackendError(KGQAError):
    """A backend failed to produce candidates."""


class BackendTimeout(BackendError):
    """The backend did not answer within the configured timeout."""


class BackendUnavailable(BackendError):
    """The backend refused, answered 5xx/429, or its circuit breaker is open."""


class BackendResponseError(BackendError):
    """The backend answered with malformed JSON or an unexpected shape."""


class CandidateRejected(BackendError):
    """A backend's candidate is off the SPARQL allow-list (:mod:`qa.guard`): it is never run.

    ``reason`` is a short code (``service``, ``unanchored_pattern``, ``update`` ...),
    ``detail`` says what was found, ``sparql`` is the rejected text."""

    def __init__(self, reason: str, sparql: str, detail: str = "") -> None:
        super().__init__(f"candidate rejected ({reason}): {detail}")
        self.reason = reason
        self.sparql = sparql
        self.detail = detail


class AssetError(KGQAError):
    """A shipped or built asset (model weights, ranker, lexicon) cannot be used."""

    def __init__(self, path: object, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


class ModelLoadError(AssetError):
    """A model file is missing or corrupt."""


class LexiconError(AssetError):
    """The property lexicon file is malformed."""


class DatasetError(KGQAError):
    """A benchmark file (QALD-JSON, QALD-XML, NLPCC) is unreadable or malformed."""


class SessionLogError(KGQAError):
    """The SQLite session log could not be opened, read or written."""


SERVICE_FAULTS: tuple[type[KGQAError], ...] = (
    KGTimeout,
    KGUnavailable,
    BackendTimeout,
    BackendUnavailable,
    BackendResponseError,
)


def is_service_fault(exc: BaseException) -> bool:
    """True when the user should be told "service unavailable, try again"."""
    return isinstance(exc, SERVICE_FAULTS)


class SettingsError(KGQAError):
    """A setting (``KGQA_*`` variable or command-line flag) has a value that cannot be used.

    ``variable`` names where it came from (``KGQA_TIMEOUT_S``, ``--port``), ``value`` is the
    text given, ``reason`` what is wrong with it.  ``kgqa`` prints it as one line and exits 2."""

    def __init__(self, variable: str, value: str, reason: str) -> None:
        super().__init__(f"{variable}={value!r}: {reason}")
        self.variable = variable
        self.value = value
        self.reason = reason


class InternalError(KGQAError):
    """An unexpected foreign exception, carried across a process boundary as data
    (:func:`error_from_data`): ``kind`` is its type name, the message its text."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind


# ------------------------------------------------------------- errors as plain data

ErrorData = dict[str, object]
"""An error as plain data: ``{"types": [qualified class names, most specific first],
"message": str, "attrs": {name: str | int | float | bool | None | list}}``."""

_PLAIN = (str, int, float, bool, type(None))
_MAX_ATTR_CHARS = 2000


def _plain(value: object) -> object:
    if isinstance(value, _PLAIN):
        return value[:_MAX_ATTR_CHARS] if isinstance(value, str) else value
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value[:100]]
    return str(value)[:_MAX_ATTR_CHARS]


def _qualified(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def error_to_data(exc: BaseException) -> ErrorData:
    """``exc`` as plain data (strings, numbers, lists): it crosses a pipe whatever its
    constructor's signature (a pickled exception is re-built by calling its class with
    ``args``, which fails for most of this tree)."""
    types = [_qualified(c) for c in type(exc).__mro__ if issubclass(c, BaseException)]
    attrs = {name: _plain(value) for name, value in vars(exc).items() if not name.startswith("_")}
    return {"types": types, "message": str(exc)[:_MAX_ATTR_CHARS], "attrs": attrs}


def _known_classes() -> dict[str, type[KGQAError]]:
    """Every class of the tree imported so far, by qualified name."""
    found: dict[str, type[KGQAError]] = {}
    todo: list[type[KGQAError]] = [KGQAError]
    while todo:
        cls = todo.pop()
        found.setdefault(_qualified(cls), cls)
        todo.extend(cls.__subclasses__())
    return found


def error_from_data(data: ErrorData) -> KGQAError:
    """The error :func:`error_to_data` described, as the most specific class of this tree
    known here (its attributes restored); a foreign error becomes :class:`InternalError`."""
    raw_types, raw_attrs = data.get("types"), data.get("attrs")
    types = [str(t) for t in raw_types] if isinstance(raw_types, list) else []
    attrs = raw_attrs if isinstance(raw_attrs, dict) else {}
    message = str(data.get("message", ""))
    known = _known_classes()
    cls = next((known[t] for t in types if t in known), None)
    if cls is None:
        kind = types[0].rsplit(".", 1)[-1] if types else "Exception"
        return InternalError(kind, message)
    exc = cls.__new__(cls)
    exc.args = (message,)
    for name, value in attrs.items():
        setattr(exc, str(name), value)
    return exc
