"""Settings, read once (in ``app.py`` or the ``kgqa`` CLI) into a frozen dataclass.

Library modules never read the environment; they receive a :class:`Settings`.
Every field can be set by an environment variable ``KGQA_<FIELD>`` (upper case) or
by a command-line flag of the same name.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import math
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

from core.errors import SettingsError

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_KG_SOURCE = PROJECT_ROOT.parent / "shared" / "data" / "kg" / "kg_union.nt.gz"
DEFAULT_BENCH_DIR = PROJECT_ROOT.parent / "shared" / "data" / "bench"
ASSETS_DIR = PROJECT_ROOT / "assets"
LEXICON_PATH = ASSETS_DIR / "property_types.json"
RANKER_PATH = ASSETS_DIR / "ranker.json"
VALIDATOR_DIR = ASSETS_DIR / "validator"
_HOST_NAME = re.compile(r"(\*\.)?[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?|\[?[0-9A-Fa-f:.]+\]?")


@dataclass(frozen=True)
class Credentials:
    """A user and password taken out of a URL (``http://user:secret@host/``): sent as HTTP
    Basic authentication, never shown (its ``repr`` and ``str`` say ``***``)."""

    user: str = field(repr=False)
    password: str = field(repr=False)

    def __str__(self) -> str:
        return "***"

    def pair(self) -> tuple[str, str]:
        """``(user, password)`` for the HTTP client."""
        return self.user, self.password


def split_credentials(url: str | None) -> tuple[str | None, Credentials | None]:
    """``url`` without its user information, and that information (``None`` when absent)."""
    if not url or "@" not in url:
        return url, None
    try:
        parts = urlsplit(url)
        if parts.username is None and parts.password is None:
            return url, None
        host = parts.netloc.rsplit("@", 1)[1]
        clean = urlunsplit((parts.scheme, host, parts.path, parts.query, parts.fragment))
        return clean, Credentials(unquote(parts.username or ""), unquote(parts.password or ""))
    except ValueError:
        return redact_url(url), None


def redact_url(url: str) -> str:
    """``url`` safe to show: anything before an ``@`` in its authority is ``***``."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return url
    authority, slash, path = rest.partition("/")
    if "@" in authority:
        authority = "***@" + authority.rsplit("@", 1)[1]
    return f"{scheme}{sep}{authority}{slash}{path}"


SECRET_URLS = {"kg_endpoint": "kg_auth", "qanswer_url": "qanswer_auth"}
"""The URL settings whose user information is taken out at the settings boundary (into the
field named), so that no page, reply, error or log can show it."""


@dataclass(frozen=True)
class Settings:
    """Everything configurable about the product.

    A URL setting's user and password (``--kg-endpoint http://user:secret@host/``) are
    taken out when the settings are made (:data:`SECRET_URLS`): the URL fields hold the URL
    without them, and ``kg_auth`` / ``qanswer_auth`` hold them (:class:`Credentials`,
    never shown)."""

    kg_source: Path = DEFAULT_KG_SOURCE
    kg_endpoint: str | None = None
    kg_profile: str | None = None  # a ready endpoint profile (kg.endpoint.PROFILES: wikidata, qlever); None: embedded
    user_agent: str = "kgqa/0.2 (multilingual KGQA chat; set KGQA_USER_AGENT to your contact: name, e-mail or URL)"
    kg_concurrency: int = 0  # requests at once to one endpoint (0: the profile's)
    kg_name_keys: bool = True  # read the name keys an own endpoint holds beside its KG (kg.name_keys)
    kg_budget_s: float = 8.0  # an endpoint's time per question; past it the answer is "service unavailable"
    kg_read_timeout_s: float = 5.0  # one linking read of an endpoint (a name's lookup, a search), at most timeout_s
    cache_dir: Path = PROJECT_ROOT / ".cache"
    backend: str = "local"
    qanswer_url: str | None = None
    qanswer_kb: str = "wikidata"
    qanswer_user: str = "open"  # QAnswer's user parameter (Qanary sends "open")
    qanswer_token: str | None = None  # a bearer token for QAnswer, when the deployment needs one
    validator: bool = True
    validator_dir: Path = VALIDATOR_DIR
    lexicon_path: Path = LEXICON_PATH
    ranker_path: Path = RANKER_PATH
    base_model_dir: Path | None = None
    threshold: float | None = None
    host: str = "127.0.0.1"
    port: int = 7860
    serve_port: int = 8000  # kgqa serve (the web API); kgqa ask uses it when it answers there
    log_path: Path = PROJECT_ROOT / ".cache" / "logs" / "sessions.sqlite"
    timeout_s: float = 10.0
    retries: int = 2
    max_question_chars: int = 1000
    rate_limit_per_minute: int = 30
    trusted_proxies: str = ""  # comma-separated addresses/networks whose X-Forwarded-For is believed
    store_ips: bool = False
    allowed_hosts: str = ""  # comma-separated Host names served ("*": any); empty: the loopback names only
    kg_auth: Credentials | None = field(default=None, repr=False, metadata={"secret": True})
    qanswer_auth: Credentials | None = field(default=None, repr=False, metadata={"secret": True})

    def __post_init__(self) -> None:
        for name, auth in SECRET_URLS.items():
            clean, found = split_credentials(getattr(self, name))
            if found is not None or clean != getattr(self, name):
                object.__setattr__(self, name, clean)
            if found is not None:
                object.__setattr__(self, auth, found)

    @property
    def model_dir(self) -> Path:
        """The converted multilingual-e5-small base model."""
        return self.base_model_dir or self.cache_dir / "models" / "e5-small"


_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})
_RDF_SUFFIXES = (".nt", ".ttl", ".nt.gz", ".ttl.gz")
_BACKENDS = ("local", "qanswer")
MAX_PORT = 65535


def _kind(field: dataclasses.Field) -> str:
    """``bool``, ``int``, ``float``, ``Path`` or ``str``: the type a field's text is read as."""
    text = str(field.type)
    return next((k for k in ("bool", "int", "float", "Path") if k in text), "str")


def _parse(field: dataclasses.Field, variable: str, raw: str) -> object:
    """``raw`` read as ``field``'s type; raises :class:`SettingsError` naming ``variable``."""
    text = raw.strip()
    kind = _kind(field)
    if kind == "bool":
        if text.lower() in _TRUE:
            return True
        if text.lower() in _FALSE:
            return False
        raise SettingsError(variable, raw, "expected one of 1/true/yes/on or 0/false/no/off")
    if kind == "int":
        try:
            return int(text)
        except ValueError:
            raise SettingsError(variable, raw, "expected a whole number") from None
    if kind == "float":
        try:
            return float(text)
        except ValueError:
            raise SettingsError(variable, raw, "expected a number") from None
    if kind == "Path":
        return Path(text).expanduser()
    return text


def _url_problem(url: str) -> str | None:
    """Why ``url`` is not a usable http(s) URL, or ``None``."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        return f"malformed URL ({exc})"
    if parts.scheme not in ("http", "https"):
        return "expected an http:// or https:// URL"
    if not parts.hostname:
        return "the URL names no host"
    if port == 0:
        return "the URL's port must be 1-65535"
    if any(ch.isspace() or ord(ch) < 32 for ch in url):
        return "the URL contains spaces or control characters"
    return None


KG_PROFILES = ("embedded", "wikidata", "qlever")
"""The ready KG profiles (``--kg``; their endpoints: :data:`kg.endpoint.PROFILES`)."""


def _problems(s: Settings) -> Iterator[tuple[str, str]]:
    """``(field, what is wrong)`` for every value of ``s`` that cannot be used."""
    if not math.isfinite(s.timeout_s) or s.timeout_s <= 0:
        yield "timeout_s", "must be a finite number of seconds above 0"
    if s.retries < 0:
        yield "retries", "must be 0 or more"
    if s.threshold is not None and not (math.isfinite(s.threshold) and 0.0 <= s.threshold <= 1.0):
        yield "threshold", "must be a number from 0 to 1"
    for name in ("port", "serve_port"):
        if not 1 <= getattr(s, name) <= MAX_PORT:
            yield name, f"must be a port number from 1 to {MAX_PORT}"
    if s.max_question_chars < 1:
        yield "max_question_chars", "must be 1 or more"
    if s.rate_limit_per_minute < 0:
        yield "rate_limit_per_minute", "must be 0 (off) or more"
    if s.backend not in _BACKENDS:
        yield "backend", f"must be one of {', '.join(_BACKENDS)}"
    for name in ("kg_endpoint", "qanswer_url"):
        url = getattr(s, name)
        problem = _url_problem(url) if url is not None else None
        if problem:
            yield name, problem
    if s.backend == "qanswer" and not s.qanswer_url:
        yield "backend", "'qanswer' needs the URL of a QAnswer-compatible API (KGQA_QANSWER_URL or --qanswer-url)"
    if not s.kg_endpoint and not s.kg_source.name.lower().endswith(_RDF_SUFFIXES):
        yield "kg_source", "expected an N-Triples or Turtle file (.nt, .ttl, optionally .gz)"
    if not s.host.strip():
        yield "host", "must name an interface"
    if not s.qanswer_kb.strip():
        yield "qanswer_kb", "must name a knowledge base"
    if s.kg_profile is not None and s.kg_profile not in KG_PROFILES:
        yield "kg_profile", f"must be one of {', '.join(KG_PROFILES)}"
    if not math.isfinite(s.kg_budget_s) or s.kg_budget_s <= 0:
        yield "kg_budget_s", "must be a finite number of seconds above 0"
    if not math.isfinite(s.kg_read_timeout_s) or s.kg_read_timeout_s <= 0:
        yield "kg_read_timeout_s", "must be a finite number of seconds above 0"
    if s.kg_concurrency < 0:
        yield "kg_concurrency", "must be 0 (the profile's) or more"
    for name in ("trusted_proxies", "allowed_hosts"):
        bad = _list_problem(name, getattr(s, name))
        if bad:
            yield name, bad


def _list_problem(name: str, value: str) -> str | None:
    items = [item.strip() for item in value.split(",") if item.strip()]
    for item in items:
        if name == "trusted_proxies":
            try:
                ipaddress.ip_network(item, strict=False)
            except ValueError:
                return f"{item!r} is neither an IP address nor a network"
        elif item != "*" and not _HOST_NAME.fullmatch(item):
            return f"{item!r} is not a host name or address"
    return None




def load_settings(env: Mapping[str, str], *, flags: Mapping[str, str] | None = None,
                  **overrides: object) -> Settings:
    """Build settings from ``KGQA_*`` variables, then explicit ``overrides`` (flags), and
    check every value (types, ranges, strict booleans, URLs) before anything uses them.

    ``None`` overrides are ignored so that unset flags keep the environment's value; an
    empty variable counts as unset.  ``flags`` names the command-line flag each override
    came from (for the error message).  Raises :class:`SettingsError` naming the variable
    or flag, with the value given."""
    values: dict[str, object] = {}
    given: dict[str, tuple[str, str]] = {}  # field -> (variable or flag, value as given)
    for f in dataclasses.fields(Settings):
        if f.metadata.get("secret"):
            continue  # given inside its URL only
        variable = f"KGQA_{f.name.upper()}"
        raw = env.get(variable)
        if raw is not None and raw.strip():
            values[f.name] = _parse(f, variable, raw)
            given[f.name] = (variable, redact_url(raw) if f.name in SECRET_URLS else raw)
    for name, value in overrides.items():
        if value is not None:
            values[name] = value
            given[name] = ((flags or {}).get(name, name), redact_url(str(value)) if name in SECRET_URLS else str(value))
    settings = Settings(**values)  # type: ignore[arg-type]
    for name, reason in _problems(settings):
        variable, raw = given.get(name, (f"KGQA_{name.upper()}", str(getattr(settings, name))))
        raise SettingsError(variable, raw, reason)
    return settings
