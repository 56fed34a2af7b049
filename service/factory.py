"""Assemble the pipeline from :class:`Settings`: KG client, backend, validator."""

from __future__ import annotations

import logging
from collections.abc import Callable

from backends.local.generator import LocalBackend
from core.errors import LexiconError, ModelLoadError, SettingsError
from core.settings import Settings
from kg.bounded import open_bounded
from kg.build import build_kg
from kg.client import KG, RemoteKG
from kg.endpoint import endpoint_profile
from qa.generate import Backend
from qa.pipeline import Pipeline, Validation
from qa.reading import profiles
from qa.reading.expect import AnswerTypes
from qa.reading.lexicon import default_lexicon
from validator.runtime import load_runtime

log = logging.getLogger(__name__)


def open_kg(settings: Settings) -> KG:
    """The remote endpoint when configured (``kg_profile`` or ``kg_endpoint``: nothing is
    read or built locally), else the embedded store (built if needed)."""
    profile = endpoint_profile(settings)
    if profile is not None:
        return RemoteKG(profile.url, timeout_s=settings.timeout_s, retries=settings.retries,
                        user_agent=settings.user_agent, max_concurrent=profile.concurrency,
                        auth=settings.kg_auth.pair() if settings.kg_auth else None)

    paths = build_kg(settings.kg_source, settings.cache_dir, progress=False)
    return open_bounded(paths)  # every query in a worker bounded in time and memory, without network


def make_backend(settings: Settings, kg: KG) -> Backend:
    """The configured backend over ``kg``."""
    if settings.backend == "qanswer":
        from backends.qanswer import QAnswerBackend  # httpx: loaded only when this backend is configured

        if not settings.qanswer_url:
            raise SettingsError("KGQA_QANSWER_URL", "", "backend 'qanswer' needs qanswer_url")
        return QAnswerBackend(settings.qanswer_url, kb=settings.qanswer_kb, timeout_s=settings.timeout_s,
                              retries=settings.retries, user=settings.qanswer_user, token=settings.qanswer_token,
                              user_agent=settings.user_agent,
                              auth=settings.qanswer_auth.pair() if settings.qanswer_auth else None)

    return LocalBackend.from_settings(settings, kg)


def build_pipeline(settings: Settings, *, kg: KG | None = None, backend: Backend | None = None,
                   lazy_validator: bool = False, before_validator_load: Callable[[], None] | None = None,
                   require_validator: bool = False) -> Pipeline:
    """The full pipeline; a validator that cannot load leaves it explicitly 'unavailable',
    or, with ``require_validator`` (``kgqa serve``, the chat, ``kgqa ask``), raises its
    :class:`ModelLoadError`: a service never starts answering without the validator it was
    configured with.

    ``lazy_validator``: load the cross-encoder (and ONNX Runtime) only when it first scores
    (``kgqa ask``); its weights are then checked at that point, not here, and
    ``before_validator_load`` runs just before."""
    profiles.use_dir(settings.cache_dir / "models")
    kg = kg or open_kg(settings)
    backend = backend or make_backend(settings, kg)
    validation = None
    state = "off"
    threshold = settings.threshold if settings.threshold is not None else 0.5
    if settings.validator:
        try:
            runtime = load_runtime(settings, kg, lazy=lazy_validator, before_load=before_validator_load)
            validation = Validation(runtime.verbalize, runtime.scorer, runtime.gate)
            threshold = settings.threshold if settings.threshold is not None else runtime.threshold
            state = "on"
        except (ModelLoadError, ImportError) as exc:
            if require_validator:
                raise ModelLoadError(settings.validator_dir, f"validator cannot load: {exc}") from exc
            log.warning("validator unavailable, running with validator off: %s", exc)
            state = "unavailable"
    return Pipeline(backend, kg, validation=validation, threshold=threshold, validator_state=state,
                    max_question_chars=settings.max_question_chars, query_timeout_s=min(settings.timeout_s, 10.0),
                    answer_types=answer_types(settings, backend),
                    kg_budget_s=settings.kg_budget_s if reaches_out(settings) else None)


def reaches_out(settings: Settings) -> bool:
    """Whether a question sends requests out (a SPARQL endpoint, a QAnswer backend): they
    then share one budget per question, ``settings.kg_budget_s``."""
    return endpoint_profile(settings) is not None or settings.backend == "qanswer"


def answer_types(settings: Settings, backend: Backend) -> AnswerTypes | None:
    """The property lexicon's question words (what a question asks for), shared with the local
    backend when it is the one answering; ``None`` when the lexicon cannot be read."""
    if isinstance(backend, LocalBackend):
        return backend.lexicon
    try:
        return default_lexicon(settings.lexicon_path)
    except LexiconError as exc:
        log.warning("property lexicon unavailable, answer types are not checked: %s", exc)
        return None
