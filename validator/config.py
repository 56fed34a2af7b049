"""The shipped validator's configuration (``assets/validator/config.json``), readable
without torch (the runtime loads the network only when it first scores)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from core.errors import ModelLoadError

CONFIG_FILE = "config.json"


@dataclass(frozen=True)
class ValidatorConfig:
    """How the shipped validator was built (``assets/validator/config.json``)."""

    layers: int = 4
    max_length: int = 80
    batch_size: int = 64  # inference batch (torch: one packed pass; ONNX: at most inference.PADDED_BATCH)
    threshold: float = 0.5
    quantize: bool = True
    int8_skip: tuple[str, ...] = ()  # Linear layers (name regexes) left in fp32 when quantizing
    int8_per_channel: bool = False  # one int8 weight scale per output row
    fuse_qkv: bool = False  # query/key/value merged into one Linear before quantizing (fp32 runtime: always)
    gate: str = "first"
    rank_weight: float = 0.0
    complex_threshold: float | None = None  # complex-shape candidates: validator score alone (validator.gate)
    extra: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ValidatorConfig:
        """Parse, ignoring unknown keys (forward compatible)."""
        names = set(cls.__dataclass_fields__)
        values = {k: v for k, v in data.items() if k in names}
        if "int8_skip" in values:
            values["int8_skip"] = tuple(values["int8_skip"] or ())
        return cls(**values)


def write_config(config: ValidatorConfig, out_dir: Path) -> None:
    """(Re)write ``config.json`` (e.g. after threshold calibration)."""
    (Path(out_dir) / CONFIG_FILE).write_text(json.dumps(config.to_json(), indent=2) + "\n", encoding="utf-8")


def read_config(model_dir: Path) -> ValidatorConfig:
    """The shipped validator config; :class:`ModelLoadError` names a bad file."""
    path = Path(model_dir) / CONFIG_FILE
    try:
        return ValidatorConfig.from_json(json.loads(path.read_text(encoding="utf-8")))
    except FileNotFoundError as exc:
        raise ModelLoadError(path, "no such file") from exc
    except (OSError, ValueError, TypeError) as exc:
        raise ModelLoadError(path, f"corrupt validator config: {exc}") from exc
