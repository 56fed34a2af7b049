"""A scripted backend for tests, shipped the way httpx ships ``MockTransport``."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from qa.candidate import Candidate

Handler = Callable[[str, str], list[Candidate]]


class FakeBackend:
    """Answers from a mapping ``question -> [Candidate]`` or from a handler callable.

    A handler may raise any :class:`core.errors.BackendError` to simulate faults.
    Every call is recorded in :attr:`calls` as ``(question, lang)``.
    """

    name = "fake"

    def __init__(self, answers: Mapping[str, list[Candidate]] | Handler | None = None) -> None:
        self._answers = answers or {}
        self.calls: list[tuple[str, str]] = []

    def ask(self, question: str, lang: str) -> list[Candidate]:
        """Return the scripted candidates (empty list when none are scripted)."""
        self.calls.append((question, lang))
        if callable(self._answers):
            return list(self._answers(question, lang))
        return list(self._answers.get(question, []))

    def warm_up(self, langs: Iterable[str]) -> None:
        """Nothing to warm: the answers are scripted."""
