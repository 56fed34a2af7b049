"""The ``guard`` component: a thin wrapper over the SPARQL allow-list (:func:`qa.guard.screen`);
nothing later runs, scores or shows a candidate it rejected."""

from __future__ import annotations

from collections.abc import Sequence

from qa.candidate import Candidate
from qa.decisions import Case, Verdict, passed, withheld
from qa.guard import Screened, screen


class Guard:
    """Screens the backend's candidates; withholds when it rejected every one."""

    name = "guard"
    phase = "screen"
    noted = "never"

    def screen(self, candidates: Sequence[Candidate]) -> Screened:
        """The candidates through the allow-list."""
        return screen(list(candidates))

    def __call__(self, case: Case) -> Verdict:
        if not case.candidates and case.rejected:
            return withheld(self.name, f"the allow-list rejected all {case.rejected} candidates")
        if case.rejected:
            return passed(self.name, f"{case.rejected} candidates rejected by the allow-list")
        return passed(self.name)
