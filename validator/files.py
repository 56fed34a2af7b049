"""The validator's files, checked without loading anything: the base model converted, the
shipped configuration and weights, and the ONNX export that fits them (its name carries a
fingerprint of what it was made of).  Only the standard library: the chat and ``kgqa serve``
check these before they start loading (:func:`cli.checks.check_start`), in milliseconds."""

from __future__ import annotations

import hashlib
import json
import struct
from pathlib import Path
from typing import Any

from core.errors import ModelLoadError
from core.settings import Settings
from validator.config import CONFIG_FILE, ValidatorConfig, read_config

WEIGHTS_FILE = "model.safetensors"
EXPORT_FORMAT = 1
"""Bumped whenever :mod:`validator.export` changes what the ONNX file computes or takes."""
REBUILD_HINT = "build it: python -m validator.export"
REQUIRED_FILES = ("config.json", "model.safetensors", "tokenizer.json")
"""The files of a converted base model (:mod:`validator.convert`)."""


def is_complete(out_dir: Path) -> bool:
    """True when ``out_dir`` holds a converted model."""
    return all((Path(out_dir) / name).is_file() for name in REQUIRED_FILES)


def check_base_model(base_dir: Path) -> None:
    """:class:`ModelLoadError` naming ``base_dir`` when it holds no converted base model."""
    if not is_complete(Path(base_dir)):
        raise ModelLoadError(Path(base_dir), "base model not built (run: python -m validator.convert)")


def check_validator_files(settings: Settings) -> None:
    """Cheap start-up check, before anything loads: the base model is converted, the shipped
    config reads, the weights file is there and so is its ONNX export; raises
    :class:`ModelLoadError` naming the file (whether the network and tokenizer really load
    is found when they load)."""
    check_base_model(settings.model_dir)
    read_config(settings.validator_dir)
    check_weights(Path(settings.validator_dir) / WEIGHTS_FILE)
    check_onnx_file(settings.validator_dir, settings.model_dir)


def fingerprint(model_dir: Path, base_dir: Path, config: ValidatorConfig | None = None) -> str:
    """A digest of what the exported network is made of: the shipped weights (their bytes),
    the shipped configuration's network fields, the base model's configuration and
    :data:`EXPORT_FORMAT` (not the threshold or the gate: recalibrating keeps the export)."""
    config = config or read_config(model_dir)
    network = {"layers": config.layers, "quantize": config.quantize, "int8_skip": list(config.int8_skip),
               "int8_per_channel": config.int8_per_channel, "format": EXPORT_FORMAT}
    digest = hashlib.sha256(json.dumps(network, sort_keys=True).encode())
    weights = Path(model_dir) / WEIGHTS_FILE
    base_config = Path(base_dir) / CONFIG_FILE
    try:
        digest.update(_file_digest(weights))
        digest.update(base_config.read_bytes())
    except OSError as exc:
        raise ModelLoadError(exc.filename or weights, f"cannot read: {exc.strerror or exc}") from exc
    return digest.hexdigest()[:16]


_DIGESTS: dict[tuple[str, int, int, int, int], bytes] = {}
"""SHA-256 of files read in this process, by path and stat (start-up checks the export's
fingerprint, then loads it: the weights are read once)."""


def _file_digest(path: Path) -> bytes:
    st = path.stat()
    key = (str(path.resolve()), st.st_size, st.st_ino, st.st_mtime_ns, st.st_ctime_ns)
    if key not in _DIGESTS:
        with path.open("rb") as handle:
            _DIGESTS[key] = hashlib.file_digest(handle, "sha256").digest()
    return _DIGESTS[key]


def onnx_path(model_dir: Path, base_dir: Path, config: ValidatorConfig | None = None) -> Path:
    """Where the export of the validator in ``model_dir`` over ``base_dir`` lives (beside the base)."""
    return Path(base_dir).parent / f"validator-{fingerprint(model_dir, base_dir, config)}.onnx"


def check_onnx_file(model_dir: Path, base_dir: Path) -> Path:
    """The exported network's path; :class:`ModelLoadError` when it was not built."""
    path = onnx_path(model_dir, base_dir)
    if not path.is_file():
        raise ModelLoadError(path, f"no such file ({REBUILD_HINT})")
    return path


def safetensors_header(path: Path) -> tuple[int, dict[str, Any]]:
    """The header size and header of a safetensors file, checked to fit the file's size."""
    with path.open("rb") as handle:
        (size,) = struct.unpack("<Q", handle.read(8))
        if size > 100_000_000:
            raise ValueError(f"header of {size} bytes")
        header = json.loads(handle.read(size))
    end = max((int(e["data_offsets"][1]) for k, e in header.items() if k != "__metadata__"), default=0)
    if 8 + size + end > path.stat().st_size:
        raise ValueError("tensors run past the end of the file")
    return size, header


def check_weights(path: Path) -> None:
    """A cheap check that ``path`` is a whole safetensors file (its header fits its size);
    :class:`ModelLoadError` names it."""
    try:
        safetensors_header(Path(path))
    except FileNotFoundError as exc:
        raise ModelLoadError(path, "no such file") from exc
    except (OSError, ValueError, KeyError, TypeError, IndexError, struct.error) as exc:
        raise ModelLoadError(path, f"corrupt or unreadable weights: {exc}") from exc
