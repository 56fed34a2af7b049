"""The generate stage: the backend protocol ``ask(question, lang) -> list[Candidate]``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, runtime_checkable

from qa.candidate import Candidate

MAX_CANDIDATES = 60


@runtime_checkable
class Backend(Protocol):
    """Turns a natural-language question into ranked SPARQL candidates."""

    name: str

    def ask(self, question: str, lang: str) -> list[Candidate]:
        """Return up to :data:`MAX_CANDIDATES` candidates, best first.

        Raises :class:`core.errors.BackendError` subclasses on service faults.
        """
        ...

    def warm_up(self, langs: Iterable[str]) -> None:
        """Build whatever the first questions in ``langs`` would otherwise pay for (a no-op
        for a backend with nothing to warm)."""
        ...
