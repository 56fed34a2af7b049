"""A scripted backend for tests, shipped the way httpx ships ``MockTransport``."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping

from backends.qanswer import shape_of
from qa.candidate import Candidate

Handler = Callable[[str, str], list[Candidate]]


class FakeBackend:
    """Answers from a mapping ``question -> [Candidate]`` or from a handler callable.

    A handler may raise any :class:`core.errors.BackendError` to simulate faults.
    Every call is recorded in :attr:`calls` as ``(question, lang)``.  Scripted candidates
    are SPARQL text, as from a foreign backend: one without a shape gets it read from its
    text, as the QAnswer client does where a reply enters.
    """

    name = "fake"

    def __init__(self, answers: Mapping[str, list[Candidate]] | Handler | None = None) -> None:
        self._answers = answers or {}
        self.calls: list[tuple[str, str]] = []

    def ask(self, question: str, lang: str) -> list[Candidate]:
        """Return the scripted candidates (empty list when none are scripted)."""
        self.calls.append((question, lang))
        scripted = self._answers(question, lang) if callable(self._answers) else self._answers.get(question, [])
        return [c if c.shape else dataclasses.replace(c, shape=shape_of(c.sparql)) for c in scripted]

    def warm_up(self, langs: Iterable[str]) -> None:
        """Nothing to warm: the answers are scripted."""
