"""The ``gate`` component: one gate for every candidate.  The pipeline's verbalize, score and
gate stages (or the learned answer confidence) choose the kept candidate; this component
withholds when they kept none, and when the kept one carries no validator score: plain,
count, superlative, comparison and filter candidates alike are shown only once scored."""

from __future__ import annotations

from qa.decisions import Case, Verdict, passed, withheld


class Gate:
    """Withholds an answer the gate did not keep, or kept without a score from the validator
    (its own, blended with the backend's, or the learned confidence over it: what
    ``CandidateView.compared`` names).  With the validator off (``Case.validated`` false, or
    ``requires_score`` false) the backend's top candidate is kept unscored, as the user asked."""

    name = "gate"
    phase = "choose"
    noted = "never"

    def __init__(self, *, requires_score: bool = True) -> None:
        self.requires_score = requires_score

    def __call__(self, case: Case) -> Verdict:
        view = case.kept_view
        if view is None:
            return withheld(self.name, "no candidate cleared the gate's threshold")
        if self.requires_score and case.validated and view.validator_score is None and view.compared is None:
            return withheld(self.name, f"the kept candidate ({view.shape or 'unknown'} shape) has no validator score")
        score = "unscored" if view.compared is None else f"{view.compared.score_name} score {view.compared.score:.3f}"
        return passed(self.name, f"candidate {case.chosen} kept ({score})")
