"""The gate stage narrows the kept reading to the class the question names (qa.gate.narrowed)."""

from __future__ import annotations

from qa.candidate import Candidate, Link
from qa.gate import narrowed

DEPP = Link("Q37175", "johnny depp", "johnny depp", "label", 0.9, span=(2, 4))
FILM = Link("Q11424", "movies", "film", "inflected", 0.8, span=(1, 2), is_class=True)
CAST = ("?answer", "wdt:P161", "wd:Q37175")
TYPED = ("?answer", "wdt:P31", "wd:Q11424")


def _plain(*triples, links=(DEPP,)) -> Candidate:
    body = " ".join(f"{s} {p} {o} ." for s, p, o in triples)
    return Candidate(f"SELECT DISTINCT ?answer WHERE {{ {body} }}", 0.5, shape="plain", triples=triples, links=links)


def test_the_kept_reading_is_narrowed_to_the_class_the_question_names() -> None:
    plain, typed = _plain(CAST), _plain(CAST, TYPED, links=(DEPP, FILM))
    assert narrowed([plain, typed], [0.99, 0.97], 0) == 1
    assert narrowed([plain, typed], [0.99, 0.4], 0) == 0  # the validator does not read it as asked
    assert narrowed([plain, typed], [0.99, None], 0) == 0  # not judged
    assert narrowed([typed, plain], [0.97, 0.99], 0) == 0  # already typed
    assert narrowed([plain, typed], [0.99, 0.97], None) is None


def test_only_a_class_the_user_typed_narrows_and_only_the_same_reading() -> None:
    plain = _plain(CAST)
    guessed = Link("Q11424", "movies", "film", "fuzzy", 0.5, span=(1, 2), is_class=True)
    unnamed = Link("Q11424", "", "film", "label", 0.8, span=None, is_class=True)
    assert narrowed([plain, _plain(CAST, TYPED, links=(DEPP, guessed))], [0.99, 0.97], 0) == 0
    assert narrowed([plain, _plain(CAST, TYPED, links=(DEPP, unnamed))], [0.99, 0.97], 0) == 0
    other = _plain(("?answer", "wdt:P57", "wd:Q37175"), TYPED, links=(DEPP, FILM))
    assert narrowed([plain, other], [0.99, 0.97], 0) == 0  # another relation, not a narrower one
    chained = _plain(CAST, ("?answer", "wdt:P136", "wd:Q11424"), links=(DEPP, FILM))
    assert narrowed([plain, chained], [0.99, 0.97], 0) == 0  # not a class constraint on the answer
