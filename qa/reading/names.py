"""How much of the question's name a linked span covers.

In scripts with capitals a person's or place's name is a run of capitalized words.  When
the linked span is only part of such a run ("Roger" of "Roger Federer" linked to Roger
Troutman, "Federer" of "Roger Federer" linked to another Federer), the entity is likely a
namesake of someone the KG does not hold.  These features let the ranker and the answer
confidence see that; they never name an entity.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Sequence

from core.text import cased_tokens, is_cjk
from lang.stopwords import is_stopword


def aligned_cased(question: str, n_tokens: int) -> list[str] | None:
    """The question's tokens with their case kept, or ``None`` when they do not align with
    the ``n_tokens`` lower-cased tokens."""
    toks = cased_tokens(question)
    return toks if len(toks) == n_tokens else None


LIST_PUNCTUATION = re.compile(r"[,;、，；]")
"""The commas and semicolons that separate listed names (Latin and CJK forms)."""


def list_breaks(question: str) -> frozenset[int]:
    """Token positions (of :func:`aligned_cased`) that a comma or semicolon comes before:
    « Frankreich, Deutschland und Italien » lists three names, and no name runs across one."""
    out: set[int] = set()
    n = 0
    for piece in LIST_PUNCTUATION.split(unicodedata.normalize("NFKC", question)):
        if n:
            out.add(n)
        n += len(cased_tokens(piece))
    return frozenset(out)


def _name_word(token: str) -> bool:
    return bool(token) and token[0].isupper() and not is_cjk(token) and not is_stopword(token.lower())


def name_features(cased: Sequence[str] | None, start: int, end: int,
                  stops: Collection[int] = (), breaks: Collection[int] = ()) -> dict[str, float]:
    """``name_extra``: capitalized words right next to the span ``[start, end)`` that it
    leaves out (0 when the span is not capitalized itself); ``name_cover``: the span's share
    of the capitalized run it sits in (1.0 when it covers the run, or without case).

    ``stops``: positions of capitalized words that are not part of a name: a class of the
    linked entity ("Film" in « den Film Titanic », "Landes" in « des Landes Frankreich »),
    or the property asked for (« Albert Einstein Geburtsort »; German capitalizes every
    noun).  They end the run instead of joining it, and a span made of them is no name.
    ``breaks``: positions a comma comes before (:func:`list_breaks`); a run ends there too."""
    if (cased is None or not (0 <= start < end <= len(cased)) or not all(_name_word(t) for t in cased[start:end])
            or all(i in stops for i in range(start, end))):
        return {"name_extra": 0.0, "name_cover": 1.0}

    def named(i: int) -> bool:
        return i not in stops and _name_word(cased[i])

    left = start
    while left > 0 and left not in breaks and named(left - 1):
        left -= 1
    right = end
    while right < len(cased) and right not in breaks and named(right):
        right += 1
    extra = (start - left) + (right - end)
    return {"name_extra": float(extra), "name_cover": round((end - start) / (end - start + extra), 4)}


def name_words(cased: Sequence[str] | None, start: int, end: int) -> int:
    """How many capitalized words the span ``[start, end)`` holds when it is written as a
    name: every word of it that is not a function word capitalized ("The Rolling Stones":
    2); 0 when one is not, and without case."""
    if cased is None or not (0 <= start < end <= len(cased)):
        return 0
    content = [t for t in cased[start:end] if not is_stopword(t.lower())]
    return len(content) if content and all(_name_word(t) for t in content) else 0
