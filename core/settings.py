"""Settings, read once (in ``app.py`` or the ``kgqa`` CLI) into a frozen dataclass.

Library modules never read the environment; they receive a :class:`Settings`.
Every field can be set by an environment variable ``KGQA_<FIELD>`` (upper case) or
by a command-line flag of the same name.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_KG_SOURCE = PROJECT_ROOT.parent / "shared" / "data" / "kg" / "kg_union.nt.gz"
DEFAULT_BENCH_DIR = PROJECT_ROOT.parent / "shared" / "data" / "bench"
ASSETS_DIR = PROJECT_ROOT / "assets"
LEXICON_PATH = ASSETS_DIR / "property_lexicon.json"
RANKER_PATH = ASSETS_DIR / "ranker.json"
VALIDATOR_DIR = ASSETS_DIR / "validator"


@dataclass(frozen=True)
class Settings:
    """Everything configurable about the product."""

    kg_source: Path = DEFAULT_KG_SOURCE
    kg_endpoint: str | None = None
    cache_dir: Path = PROJECT_ROOT / ".cache"
    backend: str = "local"
    qanswer_url: str | None = None
    qanswer_kb: str = "wikidata"
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

    @property
    def model_dir(self) -> Path:
        """The converted multilingual-e5-small base model."""
        return self.base_model_dir or self.cache_dir / "models" / "e5-small"


def _coerce(field: dataclasses.Field, raw: str) -> object:
    kind = str(field.type)
    if "bool" in kind:
        return raw.strip().lower() in {"1", "true", "yes", "on"}
    if "Path" in kind:
        return Path(raw).expanduser() if raw else None
    if "float" in kind:
        return float(raw) if raw else None
    if "int" in kind:
        return int(raw)
    return raw or None


def load_settings(env: Mapping[str, str], **overrides: object) -> Settings:
    """Build settings from ``KGQA_*`` variables, then explicit ``overrides`` (flags).

    ``None`` overrides are ignored so that unset flags keep the environment's value.
    """
    values: dict[str, object] = {}
    for f in dataclasses.fields(Settings):
        raw = env.get(f"KGQA_{f.name.upper()}")
        if raw is not None:
            values[f.name] = _coerce(f, raw)
    values.update({k: v for k, v in overrides.items() if v is not None})
    return Settings(**values)  # type: ignore[arg-type]
