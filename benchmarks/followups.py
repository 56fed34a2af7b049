"""Follow-up questions (issue 36): the two-turn conversations of ``tests/data/followups.json``
asked through the real pipeline, the second turn with the first's context, as the chat asks
them.  Prints the share of follow-ups answered right, wrong and not at all, and whether
unrelated second questions stayed unglued.

    python benchmarks/followups.py [--lang de] [--verbose] [--no-context]

Outcomes as :mod:`evaluation.followups` counts them.  The KG and cache come from the
``KGQA_*`` environment (as ``kgqa serve``).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.settings import load_settings
from evaluation.followups import figures, load, run


def main() -> int:
    """Print the figure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", help="only the conversations in this language")
    parser.add_argument("--verbose", action="store_true", help="one line per conversation")
    parser.add_argument("--no-context", action="store_true",
                        help="the baseline: each second question asked on its own, as before issue 36")
    args = parser.parse_args()
    from service.factory import build_pipeline

    started = time.perf_counter()
    pipeline = build_pipeline(load_settings(os.environ))
    conversations = [c for c in load() if not args.lang or c["lang"] == args.lang]
    outcomes = []
    for conversation in conversations:
        outcome = run(pipeline, conversation, with_context=not args.no_context)
        outcomes.append(outcome)
        if args.verbose:
            second = outcome.second
            print(f"{outcome.outcome:9} {'GLUED ' if outcome.glued else ''}{conversation['lang']} "
                  f"{conversation['turns'][0]!r} -> {conversation['turns'][1]!r} read {second.read_as!r}: "
                  f"{[(a.id, a.label) for a in second.answers][:3]} (first: {outcome.first.status})")
    f = figures(outcomes)
    share = f["right"] / f["followups"] if f["followups"] else 0.0
    print(f"follow-ups: {f['right']}/{f['followups']} right ({share:.1%}), {f['wrong']} wrong, "
          f"{f['abstained']} abstained; unrelated second questions: {f['unrelated_right']}/{f['unrelated']} "
          f"right, {f['glued']} glued; languages: {', '.join(f['languages'])}; "
          f"{time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
