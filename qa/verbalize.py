"""The verbalize stage: every candidate query in words of the user's language, so that
the cross-encoder can compare it with the question (implemented by
:class:`validator.verbalize.Verbalizer`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from core.text import join_tokens, tokenize
from lang import get as language
from lang import is_supported
from qa.candidate import COMPLEX_SHAPES, Candidate, Link

TYPING = "P31"
"""The typing property a listing reading is also said with the language's "is a" for (:func:`typed_wording`)."""


class Verbalizer(Protocol):
    """Says SPARQL candidates in words."""

    def many(self, sparqls: Sequence[str], lang: str, links: Sequence[Sequence[Link]] = ()) -> list[str]:
        """One verbalization per query, in order, in language ``lang`` (one label fetch
        for the whole list); ``links[i]``: how query ``i``'s entities were linked (an entity
        without a label in ``lang`` is said by the name it was linked by)."""
        ...

    def readings(self, sparqls: Sequence[str], lang: str, links: Sequence[Sequence[Link]] = (),
                 worded: Sequence[Mapping[str, str]] = ()) -> list[tuple[str, ...]]:
        """Each query's readings, one or more distinct texts, the first being its
        :meth:`many` text; a candidate is scored by its best reading.  ``worded[i]``:
        ``{pid: words}``, query ``i``'s property as the question says it (one more reading
        says it so)."""
        ...


def question_wording(candidate: Candidate, tokens: Sequence[str], *, vouched: bool = False) -> dict[str, str]:
    """``{pid: words}``: the words of the question (``tokens``, :func:`core.text.tokenize`)
    that a plain one-property candidate explains as its property, as the question says them
    ("wo starb hawking": ``{"P20": "starb"}``); for a complex candidate, or any candidate when
    ``vouched`` (an English question), the words its generator found for each of its properties
    (:attr:`Candidate.wording`); empty for any other candidate.  The
    validator learned a property's name, not every verb people use for it, and reads
    « Hawking starb ?answer » (0.99) where « Hawking Sterbeort ?answer » scores 0.02."""
    if candidate.shape in COMPLEX_SHAPES or vouched:
        return dict(candidate.wording)
    if not candidate.plain_of_one:
        return {}
    spans = sorted((a, b) for a, b, what in candidate.explains if what == "property" and 0 <= a < b <= len(tokens))
    words = join_tokens([t for a, b in spans for t in tokens[a:b]])
    return {candidate.properties[0]: words} if words else {}


def unshared_wording(candidates: Sequence[Candidate], worded: Sequence[Mapping[str, str]]
                     ) -> list[Mapping[str, str]]:
    """``worded`` less the wordings that say another property of the same entities in the same
    words: "where did steve jobs work" words both the employer and the occupation as « work »,
    and a reading in those words tells the validator nothing of which one is asked.  (In an
    English question only: there the validator knows the names people give properties, and a
    plain candidate's own words are a second chance, not the reading the backend's order
    settles between; « wo starb hawking » and « wie starb hawking » read « Hawking starb
    ?answer » for both the place and the cause of death, and the backend's ranker, which reads
    « wo » and « wie », tells them apart.)"""
    said: dict[tuple[frozenset[str], str], set[str]] = {}
    for c, words in zip(candidates, worded, strict=True):
        for pid, text in words.items():
            said.setdefault((frozenset(c.entities), text), set()).add(pid)
    return [{} if any(len(said[(frozenset(c.entities), text)]) > 1 for text in words.values()) else words
            for c, words in zip(candidates, worded, strict=True)]


def typed_wording(candidates: Sequence[Candidate], worded: Sequence[Mapping[str, str]], wanted: Sequence[bool],
                  lang: str) -> list[dict[str, str]]:
    """``worded`` with, for each wanted candidate that lists answers typed by a class
    (``P31``), the language's word for being one of a class
    (:attr:`lang.base.Language.typing_word`): its worded reading says « ?answer es película »,
    not « ?answer instance of película ».  Not for a count: the validator then read "how many
    films" as asking for the count of films only (« ¿Cuántas películas ha dirigido James
    Cameron? »: 6, where the question counts his 7 works)."""
    word = language(lang).typing_word if is_supported(lang) else ""
    return [{**words, TYPING: word} if (word and ok and c.shape != "count" and TYPING in c.properties
                                         and TYPING not in words) else dict(words)
            for c, words, ok in zip(candidates, worded, wanted, strict=True)]


def class_readings(candidates: Sequence[Candidate], readings: Sequence[tuple[str, ...]], wanted: Sequence[bool],
                   tokens: Sequence[str], lang: str) -> list[tuple[str, ...]]:
    """``readings`` with, for each wanted plain candidate that reads every word
    (:attr:`Candidate.worded`) and a class noun of the question without a typing triple
    (every one of its answers is of that class: :attr:`Candidate.typed_noun`,
    :meth:`backends.local.graphs.QueryGraphs.wholly_typed`), each reading said once more with
    the answers typed by the question's noun and the language's word for being one
    (:attr:`lang.base.Language.typing_word`, else :attr:`lang.base.Language.class_word`):
    « ?answer director Quentin Tarantino. ?answer è
    un film » (0.96 against « Quali film ha diretto Quentin Tarantino? »; 0.009 without it).
    Only a worded one: the validator reads the typed noun more than the property, and « ?answer
    cast member Quentin Tarantino. ?answer est un films » scores 0.90 against « Quels films
    Quentin Tarantino a-t-il réalisés ? ».  An intersection is said so too when the class
    describes its members (:meth:`backends.local.generator.LocalBackend._class_described`):
    « In welke films spelen Robert De Niro en Al Pacino allebei? » reads « … ?answer is een
    films » at 0.99."""
    known = language(lang) if is_supported(lang) else None
    word = (known.typing_word or known.class_word) if known is not None else ""
    out = list(readings)
    if not word:
        return out
    for i, (c, ok) in enumerate(zip(candidates, wanted, strict=True)):
        span = c.typed_noun
        said = c.shape == "intersection" or (c.worded and c.shape == "plain")
        if (not ok or not said or TYPING in c.properties or span is None
                or not 0 <= span[0] < span[1] <= len(tokens)):
            continue
        noun = join_tokens(list(tokens[span[0]:span[1]]))
        out[i] = tuple(dict.fromkeys((*out[i], *(f"{r}. ?answer {word} {noun}" for r in out[i]))))
    return out


COMPLEX_IN_ENGLISH = 3
"""A complex candidate (COUNT, ASK, a list, FILTER ...) ranked among this many first is read in
English as well: « ¿Cuántas películas protagonizó Tom Hanks? » scores 0.42 against « count
?answer miembro del reparto Tom Hanks. ?answer instance of película » and 0.92 against its
English reading; further down the list the extra pairs cost more time than they find answers."""


def readings_with_english(verbalizer: Verbalizer, candidates: Sequence[Candidate], lang: str,
                          wanted: Sequence[bool] | None = None, question: str | None = None
                          ) -> list[tuple[str, ...]]:
    """Each candidate's readings in ``lang``; for a question not in English, a plain
    candidate (``wanted``: which ones, all by default) is also read in English, since most
    property names of the KG are English only, and so is a complex one (COUNT, ASK, a list,
    FILTER ...) among the first :data:`COMPLEX_IN_ENGLISH` (the score gate the answer model
    falls back on lets a complex candidate pass on its validator score alone, so these readings
    were first kept in ``lang``; the decision components stand behind them, and the shapes' dev
    sets gained answers with none wrong).  The pipeline and the records the gate is calibrated
    on both read candidates this way.  With ``question`` not in English, a
    plain candidate that could pass is also read with its property said by the question's own
    words for it (:func:`question_wording`).  In English the words it explains are not enough
    (they lost what a class noun says: "what county is tampa located in?" read « county » as
    "country" and passed the country), so a plain candidate is read in the words its generator
    vouches for (:attr:`Candidate.wording`, as a complex one is in every language: "Which
    neighbours of France don't have French as an official language?" reads « France neighbours
    ?answer. not … » at 0.99, "shares border with" at 0.74), and none is where two properties of
    the same entities are said alike (:func:`unshared_wording`).  A listing reading typed by a
    class is also said with the language's word for being one (:func:`typed_wording`), and so
    is a worded one whose every answer is of the class the question names, or an intersection that
    class describes (:func:`class_readings`)."""
    wanted = [True] * len(candidates) if wanted is None else wanted
    english = lang.split("-")[0] == "en"
    worded: list[dict[str, str]] = []
    tokens = tokenize(question) if question is not None else []
    if question is not None:
        worded = [question_wording(c, tokens, vouched=english) if ok else {}
                  for c, ok in zip(candidates, wanted, strict=True)]
        worded = unshared_wording(candidates, worded) if english else worded
        worded = typed_wording(candidates, worded, wanted, lang)
    readings = verbalizer.readings([c.sparql for c in candidates], lang, [c.links for c in candidates], worded)
    if not english:
        plain = [i for i, (c, ok) in enumerate(zip(candidates, wanted, strict=True))
                 if ok and (c.shape not in COMPLEX_SHAPES or i < COMPLEX_IN_ENGLISH)]
        in_english = verbalizer.many([candidates[i].sparql for i in plain], "en",
                                     [candidates[i].links for i in plain])
        for i, text in zip(plain, in_english, strict=True):
            if text not in readings[i]:
                readings[i] = (*readings[i], text)
    return class_readings(candidates, readings, wanted, tokens, lang) if question is not None else readings
