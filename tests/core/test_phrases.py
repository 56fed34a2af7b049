"""The phrase automaton finds what the regexes it replaced found (same starts and ends)."""

from __future__ import annotations

import random
import re

import pytest

from core.phrases import Phrase, PhraseMatcher, Word, non_overlapping, search
from core.text import normalize_cue_text
from qa.reading import words as cx
from qa.reading.lexicon import PropertyLexicon


def _regex_words(text: str, words: tuple[str, ...]) -> list[tuple[int, int, str]]:
    return sorted((m.start(), m.end(), w) for w in words for m in cx.word_pattern(w).finditer(text))


@pytest.mark.parametrize("text", [
    "how many children does angela merkel have?", "wer ist am ältesten", "the oldest one, the longest_river",
    "最高的山是哪座", "was ist am höchsten?", "самый богатейший человек", "богатейш", "österreichische kaiser",
    "hauptstadt reich", "сколько сыгранных матчей", "who is older than x", "more, than",
])
def test_find_words_matches_the_regexes(text: str) -> None:
    words = ("how many", "most", "oldest", "*est", "am *sten", "*reich*", "богатейш*", "сыгранн* матч*", "than",
             "最高", "older", "longest", "höchst*", "river")
    assert cx.find_words(normalize_cue_text(text), words) == _regex_words(normalize_cue_text(text), words)


def test_find_words_on_random_texts_with_every_table_word() -> None:
    words = tuple(sorted({w for table in (cx.COUNT_WORDS, cx.SUPERLATIVE_WORDS, cx.THAN_WORDS, cx.ORDINAL_WORDS,
                                          cx.YES_NO_OPENERS, cx.WH_WORDS) for ws in table.values() for w in ws}))
    rng = random.Random(7)
    tails = ["", "s", "ов", "_x", "中", "?", ",", "'s"]
    for _ in range(400):
        picked = [normalize_cue_text(rng.choice(words).replace("*", rng.choice(tails))) + rng.choice(tails)
                  for _ in range(3)]
        text = " ".join(["x", *picked, "y"])
        assert cx.find_words(text, words) == _regex_words(text, words), text


def _old_pattern(phrase: str, open_end: bool, gapped: bool) -> re.Pattern[str]:
    """The lexicon's former regex for an English phrase (words >= 4 letters open-ended)."""
    words = [re.escape(w) + (r"\w*" if open_end and len(w) >= 4 and w.isalpha() else "") for w in phrase.split()]
    body = (r"(?:\s+\S+){0,4}?\s+" if gapped else r"\s").join(words)
    return re.compile((r"(?<!\w)" if re.match(r"\w", phrase) else "") + body
                      + (r"(?!\w)" if re.match(r"\w", phrase[-1]) else ""))


@pytest.mark.parametrize(("text", "phrase", "gapped"), [
    ("what books did jane austen write", "what books did write", True),
    ("where was albert einstein born?", "where born", True),
    ("where was einstein born", "where was born", False),
    ("who directed the films", "directed films", True),
    ("a b c d e f directed", "a directed", True),
    ("a b c d directed", "a directed", True),
    ("languages spoken", "language", False),
    ("xlanguage", "language", False),
])
def test_lexicon_phrases_match_as_the_regexes_did(text: str, phrase: str, gapped: bool) -> None:
    lexicon = PropertyLexicon.from_dict({"version": 1, "properties": {}, "question_words": {}})
    compiled = lexicon._pattern(phrase, "en", True, gapped=gapped)
    found = _old_pattern(phrase, True, gapped).search(text)
    assert search(text, compiled) == (found.span() if found else None)


def test_one_automaton_reports_each_phrase_at_every_start() -> None:
    shared = Phrase((Word("born", stem=True),), before="word", after="word")
    other = Phrase((Word("born"), Word("in")), before="word", after="word")
    found = PhraseMatcher([shared, other]).find_all("born in ulm, reborn, borning in")
    assert found[shared] == [(0, 4), (21, 28)]
    assert found[other] == [(0, 7)]
    assert non_overlapping([(0, 5), (3, 6), (5, 9)]) == [(0, 5), (5, 9)]


def test_the_lexicon_answers_its_first_question_without_a_warm_up() -> None:
    lexicon = PropertyLexicon.load()
    assert not lexicon._matchers
    matches = lexicon.match_properties("Wo wurde Albert Einstein geboren?", "de")
    assert "P19" in {m.pid for m in matches}
    assert set(lexicon._matchers) == {("de", "exact"), ("de", "gapped")}  # one automaton per table used
