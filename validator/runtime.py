"""What the pipeline loads: the shipped cross-encoder (its ONNX export, run by ONNX
Runtime: no torch, :mod:`validator.inference`) on top of the base model's word
embeddings, the verbalizer over the KG, the calibrated gate and its threshold.

``service.factory`` calls :func:`load_runtime`; a :class:`core.errors.ModelLoadError`
(or ``ImportError``) leaves the pipeline in the explicit "validator unavailable" state.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from core.errors import ModelLoadError
from core.settings import Settings
from kg.client import KG
from qa.reading.lexicon import default_lexicon
from validator.config import ValidatorConfig, read_config
from validator.files import check_base_model, check_onnx_file
from validator.gate import BACKEND_RANK_WEIGHTS, GatePolicy, LearnedGate, backend_rank_weight
from validator.probability import GATE_FILE, load_answer_model
from validator.verbalize import Verbalizer

if TYPE_CHECKING:
    from validator.inference import OnnxCrossEncoder
    from validator.model import CrossEncoder

_CACHE: dict[tuple[str, str], tuple[tuple[float, ...], OnnxCrossEncoder, ValidatorConfig]] = {}
_LOCK = threading.Lock()


@dataclass
class ValidatorRuntime:
    """The validator as the pipeline uses it: its stages verbalize (``verbalize.many``, one
    label fetch for a whole candidate list), score (``scorer.predict``) and gate (the
    learned :class:`LearnedGate`, or without its model the calibrated :class:`GatePolicy`,
    at ``threshold``)."""

    scorer: OnnxCrossEncoder | LazyEncoder
    verbalize: Verbalizer
    gate: GatePolicy | LearnedGate
    threshold: float
    config: ValidatorConfig


def _stamp(paths: Sequence[Path]) -> tuple[float, ...]:
    return tuple(p.stat().st_mtime if p.exists() else -1.0 for p in paths)


def load_encoder(model_dir: Path, base_dir: Path) -> tuple[OnnxCrossEncoder, ValidatorConfig]:
    """The shipped encoder as the runtime runs it, its ONNX export (cached per process until
    its files change); :class:`ModelLoadError` names a missing or broken file."""
    from validator.inference import OnnxCrossEncoder  # onnxruntime: only when a validator is really loaded

    model_dir, base_dir = Path(model_dir), Path(base_dir)
    check_base_model(base_dir)
    key = (str(model_dir.resolve()), str(base_dir.resolve()))
    files = [model_dir / "config.json", model_dir / "model.safetensors", base_dir / "model.safetensors"]
    stamp = _stamp(files)
    with _LOCK:
        cached = _CACHE.get(key)
        if cached and cached[0] == stamp:
            return cached[1], cached[2]
        config = read_config(model_dir)
        encoder = OnnxCrossEncoder.load(model_dir, base_dir)
        _CACHE[key] = (stamp, encoder, config)
    return encoder, config


def load_torch_encoder(model_dir: Path, base_dir: Path, *, quantized: bool | None = None) -> tuple[CrossEncoder,
                                                                                                    ValidatorConfig]:
    """The torch network the export is made from (training, calibration, benchmarks)."""
    from validator.model import CrossEncoder

    model_dir, base_dir = Path(model_dir), Path(base_dir)
    check_base_model(base_dir)
    return CrossEncoder.load(model_dir, base_dir, quantized=quantized), read_config(model_dir)


class LazyEncoder:
    """The shipped encoder, loaded when it first scores, or in the background from
    :meth:`prefetch` on (``kgqa ask``).  ``before_load`` runs once, before the encoder first
    scores (``kgqa ask`` frees the language models there; a prefetched encoder may be loaded
    by then: a question whose language needed lingua's models holds both for its generation)."""

    def __init__(self, model_dir: Path, base_dir: Path, *, before_load: Callable[[], None] | None = None) -> None:
        self.model_dir = Path(model_dir)
        self.base_dir = Path(base_dir)
        self.before_load = before_load
        self._encoder: OnnxCrossEncoder | None = None
        self._prefetch: threading.Thread | None = None
        self.error: ModelLoadError | None = None  # why loading failed (``kgqa ask`` exits non-zero then)

    def prefetch(self) -> None:
        """Start loading the encoder in a background thread (``kgqa ask``: ONNX Runtime builds
        its session without the interpreter lock, so the load overlaps the question's
        generation).  :meth:`predict` waits for it and still runs ``before_load`` first; a
        failed load is simply tried again there (which raises)."""
        if self._encoder is None and self._prefetch is None:
            self._prefetch = threading.Thread(target=self._load_quietly, name="encoder-prefetch", daemon=True)
            self._prefetch.start()

    def wait(self) -> None:
        """Wait for a :meth:`prefetch` still under way (a process ends only after it)."""
        if self._prefetch is not None:
            self._prefetch.join()

    def _load_quietly(self) -> None:
        try:
            encoder, _ = load_encoder(self.model_dir, self.base_dir)
        except Exception:  # noqa: BLE001 - predict loads again and raises it where it is handled
            return
        self._encoder = encoder

    def predict(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """:meth:`CrossEncoder.predict`, loading the encoder first (raises :class:`ModelLoadError`)."""
        self.wait()
        if self.before_load is not None:
            before, self.before_load = self.before_load, None
            before()
        if self._encoder is None:
            try:
                self._encoder, _ = load_encoder(self.model_dir, self.base_dir)
            except ModelLoadError as exc:
                self.error = exc
                raise
        return self._encoder.predict(pairs)


def load_runtime(settings: Settings, kg: KG, *, lazy: bool = False,
                 before_load: Callable[[], None] | None = None) -> ValidatorRuntime:
    """The validator for ``settings`` over ``kg``; raises :class:`ModelLoadError`.

    With ``lazy`` only the configuration is read (and the base model's presence checked):
    the network loads on the first score, and a corrupt weight file is reported then;
    ``before_load`` (lazy only) runs just before it loads."""
    encoder: OnnxCrossEncoder | LazyEncoder
    if lazy:
        check_base_model(settings.model_dir)
        config = read_config(settings.validator_dir)
        check_onnx_file(settings.validator_dir, settings.model_dir)
        encoder = LazyEncoder(settings.validator_dir, settings.model_dir, before_load=before_load)
    else:
        encoder, config = load_encoder(settings.validator_dir, settings.model_dir)
    try:
        policy = GatePolicy(config.gate, backend_rank_weight(config.rank_weight, settings.backend),
                            config.complex_threshold)
    except ValueError as exc:
        raise ModelLoadError(Path(settings.validator_dir) / "config.json", str(exc)) from exc
    verbalizer = Verbalizer(kg, names=default_lexicon(Path(settings.lexicon_path)),
                            timeout_s=min(settings.timeout_s, 5.0))
    model = None if settings.backend in BACKEND_RANK_WEIGHTS else load_answer_model(
        Path(settings.validator_dir) / GATE_FILE)  # fitted on the local backend's ranks and scores
    if model is not None:
        return ValidatorRuntime(encoder, verbalizer, LearnedGate(model, policy, config.threshold), model.threshold,
                                config)
    return ValidatorRuntime(encoder, verbalizer, policy, config.threshold, config)
