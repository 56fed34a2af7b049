"""Start-up checks of the long-running commands (``kgqa serve``, the chat, ``kgqa ask``):
what can be checked before anything loads is checked here, so that a bad setting or a
missing file is one line on stderr and exit status 2 rather than a traceback (or a
service that answers without its validator).  Settings themselves are validated when
read (:func:`core.settings.load_settings`)."""

from __future__ import annotations

import argparse

from core.settings import Settings
from validator.files import check_validator_files  # the standard library only: nothing loads


def check_start(settings: Settings) -> None:
    """Raise :class:`~core.errors.KGSourceError` for an unusable KG source (when no endpoint
    is configured) and :class:`~core.errors.ModelLoadError` for a configured validator whose
    files are missing (``--no-validator`` switches it off)."""
    if not settings.kg_endpoint:
        from kg.store import check_source  # kgqa ask answered by a running serve never loads the store

        check_source(settings.kg_source)
    if settings.validator:
        check_validator_files(settings)


def non_negative_int(text: str) -> int:
    """An ``argparse`` type: a whole number, 0 or more."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value}")
    return value


def port_number(text: str) -> int:
    """An ``argparse`` type: a TCP port, 1-65535."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number, got {text!r}") from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 1-65535, got {value}")
    return value


VALIDATOR_HINT = " (--no-validator works without the validator)"
