"""What flows between the stages: a SPARQL query candidate with the structure its
generator knew (shape, triple patterns, entities, properties, how each entity was linked,
a comparison spec), so that no later stage parses SPARQL text to recover it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Triple = tuple[str, str, str]
"""A triple pattern in compact tokens: ``wd:Q…``, ``wdt:P…`` (or a path), ``?var``."""

Direction = Literal["ASC", "DESC"]


@dataclass(frozen=True)
class ComparisonSpec:
    """Entity 1 vs entity 2 on ``property``; the winner comes first in ``direction``."""

    entity1: str
    entity2: str
    property: str
    direction: Direction


EXACT_LINKS = frozenset({"label", "alias", "folded", "inflected"})
"""Link kinds that match a whole name as written (not fuzzy, partial or by sound)."""
TYPING_PROPERTIES = frozenset({"P31", "P279"})
"""Properties that say what a thing is (instance of, subclass of): a class, not a value of the
subject; a candidate says them by name, and no question is asked of a namesake through them."""


@dataclass(frozen=True)
class Link:
    """How one entity of a candidate was found in the question (the linking evidence)."""

    qid: str
    mention: str  # the question's text span
    name: str  # the KG name (label or alias) it matched
    kind: str  # "label" | "alias" | "folded" | "inflected" | "fuzzy" | "partial" | "phonetic"
    score: float  # link confidence in [0, 1]
    coverage: float = 1.0  # share of the question's content characters the mention covers
    degree: int = 0  # the entity's degree in the KG (popularity prior)
    name_cover: float = 1.0  # share of the name the user typed (its capitalized words) that the mention covers
    span: tuple[int, int] | None = None  # the mention's question tokens [start, end) (core.text.tokenize)
    name_words: int = 0  # capitalized words of the mention when it is written as a name (0: not, or no case)
    is_class: bool = False  # the entity is a class (a noun such as "country" names it): a type constraint
    sound: float = 0.0  # a sound-alike link's sound similarity to the name (core.text.sound_similarity)
    namesakes: int = 0  # how many entities the matched name names in the KG (0: not known)
    described: str = ""  # the word typed right before the name that says what the entity is ("the *painter* Velázquez")
    described_span: tuple[int, int] | None = None  # that word's question tokens [start, end)
    rival_degree: int = 0  # the highest KG degree of another entity the matched name names (0: none)


Explained = tuple[int, int, str]
"""Question tokens ``[start, end)`` (:func:`core.text.tokenize`) a candidate explains, and as
what: ``entity``, ``property`` (the property phrase), ``class`` (a class noun read as a type
constraint), ``cue`` (count, superlative, comparison words) or ``number``."""


@dataclass(frozen=True)
class Candidate:
    """A ranked SPARQL query candidate, as QAnswer's ``/api/qa/full`` returns them, plus
    the structure a generator knew when it built it.

    ``score`` is the backend's own confidence (higher is better); ``features`` are
    diagnostics from the local generator.  ``shape`` is one of :data:`SHAPES` (empty when
    a foreign backend did not say); ``entities``/``properties`` are ids (``Q…``/``P…``);
    ``links`` tell how each entity was linked; ``comparison`` is set for a two-entity
    comparison, which the execute stage evaluates itself.  ``explains`` says which words
    of the question the candidate accounts for (:data:`Explained`; the coverage decision,
    :mod:`qa.decisions`, reads it); a ``no_value`` candidate is a reading of the question
    (an entity and the property its words name) that the KG holds no value for: it only
    tells "I know X, but my data has no <property> for X".
    """

    sparql: str
    score: float
    features: tuple[tuple[str, float], ...] = ()
    shape: str = ""
    triples: tuple[Triple, ...] = ()
    entities: tuple[str, ...] = ()
    properties: tuple[str, ...] = ()
    links: tuple[Link, ...] = ()
    comparison: ComparisonSpec | None = None
    explains: tuple[Explained, ...] = ()  # what of the question it explains (empty: the generator did not say)
    no_value: bool = False  # read from the question only: the KG holds no such triple (never executed)
    worded: bool = False  # the generator read every word: its entity, and a property the others name (the lexicon)
    excluded: tuple[Triple, ...] = ()  # patterns that must not hold (FILTER NOT EXISTS: an exclusion, "still alive")
    wording: tuple[tuple[str, str], ...] = ()  # (pid, the question's words for it): complex, or plain of one pid
    typed_noun: tuple[int, int] | None = None  # the question's class noun (token span) every answer is of

    @property
    def plain_of_one(self) -> bool:
        """A plain candidate of one property: the question's words for that property may say it."""
        return self.shape == "plain" and len(set(self.properties)) == 1


SHAPES = ("plain", "count", "ask", "order", "filter", "list", "intersection", "conditions", "exclusion")
"""``count``, ``ask``, ``order`` (ORDER BY: superlatives, two-entity comparisons),
``filter`` (comparatives), the constraint sets of :mod:`backends.local.constraints`
(``list``: a class and a condition; ``intersection``: two anchors; ``conditions``: three or
more), ``exclusion`` (a set without the members that match a pattern: ``FILTER NOT EXISTS``) or
``plain``."""

COMPLEX_SHAPES = ("count", "ask", "order", "filter", "list", "intersection", "conditions", "exclusion")
