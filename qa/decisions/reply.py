"""Which "I don't know" a question gets, from what was understood rather than from what
the data holds (``Turn.message_key``, with exactly these names):

* ``only_know``: the entity found matches only part of the name typed ("I only know Y");
* ``data_lists``: a count was asked and the data holds only a list, which may be
  incomplete ("my data lists N: a, b, …"; :mod:`qa.decisions.number`);
* ``data_disagrees``: a yes/no question the KG answers one way from one side of the fact and
  the other way from the other side (:mod:`qa.decisions.inverse`);
* ``understood_no_value``: a reading covers the question whole (an entity named whole and
  the property its words say), but the KG holds no value for it ("I know X, but my data
  has no <property> for X");
* ``understood_unnamed``: the kept reading covers the question whole and its query found
  values, but none of them has a name in the KG (none is shown): "I understood: the
  <property> of X. My data has N answers, but no name for them that I can show" (arg ``n``);
* ``unknown_entity``: a name the user typed that no entity of the KG is called
  ("I don't know anyone or anything called X");
* ``not_understood``: no reading covers the question; with ``unplaced`` (the words no
  reading placed) and, when a reading covered the rest, its ``entity`` and ``property``."""

from __future__ import annotations

from typing import Any

from lang import SUPPORTED
from lang import get as language
from qa.candidate import EXACT_LINKS, Candidate
from qa.decisions import Case, Verdict
from qa.decisions.coverage import READ_BY, about, covers, function_word, partial_link, unexplained
from qa.reading.names import aligned_cased

PARTIAL_KNOWLEDGE = ("only_know", "data_lists", "data_disagrees")
"""Replies a withholding decision words itself: what the data does know ("I only know Y",
"my data lists N: …", "my data says this both ways")."""


def which_dont_know(case: Case, verdict: Verdict | None, *, executed_empty: bool = False,
                    unnamed: int = 0) -> tuple[str, dict[str, Any]]:
    """The message key and its arguments for a question answered with "I don't know";
    ``verdict``: the decision that withheld the answer (``None``: the gate kept nothing, or
    the kept reading found nothing to show, ``executed_empty``); ``unnamed``: how many values
    the kept reading found, all without a name (none shown; 0: it found none)."""
    if verdict is not None and verdict.message_key in PARTIAL_KNOWLEDGE:
        return verdict.message_key, dict(verdict.message_args)
    kept = case.kept
    if executed_empty and kept is not None and covers(case, kept, case.kept_view):
        if unnamed and about(kept):  # the data has the values, only no name to show them by
            return "understood_unnamed", {**about(kept), "n": unnamed}
        return "understood_no_value", about(kept)
    reading = next((r for r in case.readings if about(r) and covers(case, r) and not _held(case, r)), None)
    if reading is not None and (verdict is None or verdict.component in ("gate", "guard")):
        return "understood_no_value", about(reading)
    name = unknown_name(case)
    if name is not None:
        return "unknown_entity", {"name": name}
    if verdict is not None and verdict.message_key == "not_understood":
        return "not_understood", dict(verdict.message_args)
    return "not_understood", unplaced(case)


def _held(case: Case, reading: Candidate) -> bool:
    """Whether a candidate reads the same words as another entity that does hold the
    reading's property (a namesake with the value): then "my data has no value" would mislead."""
    spans = {link.span for link in reading.links}
    return any(set(reading.properties) & set(c.properties) and spans & {link.span for link in c.links}
               for c in case.candidates[:READ_BY])


def unknown_name(case: Case) -> str | None:
    """A name the user typed (a run of capitalized words that are no function words and that
    no reading explains as a property or class) that no candidate links whole by a label or
    an alias; ``None`` when every typed name is known, the question has no capitals, or a
    candidate does not say where it linked."""
    cased = aligned_cased(case.question, len(case.tokens))
    if cased is None:
        return None
    pool = [*case.candidates[:READ_BY], *case.readings]
    if any(c.entities and not any(link.span is not None for link in c.links) for c in pool):
        return None  # a backend that does not say where it linked: no evidence of what is unknown
    worded = {i for c in pool for a, b, role in c.explains if role in ("property", "class") for i in range(a, b)}
    named = [link.span for c in pool for link in c.links
             if link.span is not None and link.kind in EXACT_LINKS and link.name_cover == 1.0]
    runs: list[tuple[int, int]] = []
    start = None
    for i, word in enumerate([*cased, ""]):
        capital = (bool(word) and word[0].isupper() and word.isalpha() and i not in worded
                   and not function_word(word.lower(), case.lang))
        if capital and start is None:
            start = i
        elif not capital and start is not None:
            runs.append((start, i))
            start = None
    runs = [(a, b) for a, b in runs if a > 0 or b > 1]  # one word written first: the sentence's capital
    if case.lang in SUPPORTED and language(case.lang).nouns_capitalized:
        runs = [(a, b) for a, b in runs if b - a > 1]  # « Sinn », « Hauptstadt »: nouns, not names
    for a, b in runs:
        if not any(s <= a and b <= e for s, e in named):
            return " ".join(cased[a:b])
    return None


def unplaced(case: Case) -> dict[str, Any]:
    """``{"unplaced": words}`` of the backend's first reading that names an entity and a
    property in full (no partial name) and leaves some content words unexplained, with
    that reading's ``entity`` and ``property``; empty when there is none."""
    for candidate in case.candidates[:3]:
        if not about(candidate) or partial_link(candidate) is not None or not candidate.explains:
            continue
        view = case.views[case.candidates.index(candidate)] if candidate in case.candidates else None
        words = unexplained(case, candidate, view.verbalization if view is not None else None)
        if words:
            return {"unplaced": ", ".join(case.tokens[i] for i in words), **about(candidate)}
    return {}
