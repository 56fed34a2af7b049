"""The ``coverage`` component: answer only what was understood whole.

A reading is shown only when it accounts for every content word of the question.  A
candidate says which tokens it explains (:attr:`qa.candidate.Candidate.explains`: entity
mentions, the property phrase, class nouns as type constraints); a candidate that does not
say (a foreign backend, the complex layer) is aligned with its verbalization instead: a
question word is explained when a word of how the candidate is said has its stem or shares
its beginning (« children » and "child"); with neither (the validator off) nothing is
judged.  A word needs no explaining when it is a function word of the question's
language (:func:`function_word`, the maintained lists of :mod:`lang.stopwords`), unless it
is a cue word: an ordinal ("the second largest"), a superlative or a comparison word,
which only a candidate of the matching shape explains.

Which words are *content* words: cue words; words another reading explains as a relation of
the kept reading's own entity to a person (:func:`chained`: "Where was Einstein's *wife*
born?"); and, for a candidate that does not say what it explains, the words of property
phrases of the lexicon found in the question (:func:`worded_positions`).  A word no reading
can place ("famous") is not held against the kept one.  A preposition that ends an English
question away from its bare question word ("what did she go to college *for*?") is explained
only by a phrase of the kept property that holds it (:func:`stranded`).

Also here, as they are coverage of names: a link that covers only part of the name the
user typed (:func:`partial_link`, "I only know Y"), and a typed name another candidate links
whole that the kept reading leaves out (:func:`ignored_name`)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from core.text import fold, tokenize
from lang import SUPPORTED
from lang import get as language
from lang.morphology import lemmas, stem
from qa.candidate import EXACT_LINKS, Candidate, Link
from qa.decisions import Case, Verdict, passed, withheld
from qa.reading.expect import AnswerTypes
from qa.reading.reading import cue_positions, function_word, is_word
from qa.reading.words import LIST_WORDS, LISTING_WORDS, words_for
from qa.turn import CandidateView

READ_BY = 10
"""The first candidates whose explained words make a word a content word."""
SHAPES_FOR_CUE = {"superlative": frozenset({"order"}), "comparative": frozenset({"order", "filter", "ask", "count"}),
                  "ordinal": frozenset()}
"""Which candidate shapes explain a cue word of each kind (no shape reads an ordinal)."""
MIN_PREFIX = 4


class Coverage:
    """Withholds a reading that leaves a content word of the question unexplained, one whose
    entity matches only part of a typed name (``only_know``), or one that leaves out a typed
    name another reading links whole.  ``answer_types``: how each property is said, which
    explains the words of a candidate that does not say what it explains ("born" for ``P19``)."""

    name = "coverage"
    phase = "choose"
    noted = "withheld"

    def __init__(self, answer_types: AnswerTypes | None = None) -> None:
        self.answer_types = answer_types

    def __call__(self, case: Case) -> Verdict:
        kept = case.kept
        if kept is None:
            return passed(self.name)
        partial = partial_link(kept)
        if partial is not None:
            return withheld(self.name, f"{partial.qid} only matches part of {partial.mention!r}", "only_know",
                            {"qid": partial.qid, "name": partial.name})
        split = split_name(case)
        if split is not None:
            part, whole = split
            return withheld(self.name, f"{part.qid} reads {part.mention!r}, part of the name {whole.mention!r} "
                            f"({whole.qid})", "only_know", {"qid": part.qid, "name": part.name})
        ignored = ignored_name(case.candidates, case.chosen or 0)
        if ignored is not None:
            return withheld(self.name, f"the kept candidate leaves out the name {ignored.mention!r} ({ignored.qid})")
        if (item := listed_out(case, kept)) is not None:
            return withheld(self.name, f"the kept candidate leaves out {case.tokens[item]!r}, listed with its "
                            "anchors", "not_understood", {"unplaced": case.tokens[item], **about(kept)})
        view = case.kept_view
        words = unexplained(case, kept, said_as(kept, view, case.lang, self.answer_types))
        if words:
            placed = ", ".join(case.tokens[i] for i in words)
            return withheld(self.name, f"the kept candidate leaves {placed!r} unexplained", "not_understood",
                            {"unplaced": placed, **about(kept)})
        if (i := stranded(case, kept, self.answer_types)) is not None:
            word = case.tokens[i]
            return withheld(self.name, f"the question word is tied to {word!r}, which no phrase of the kept "
                            "candidate's property holds", "not_understood", {"unplaced": word, **about(kept)})
        return passed(self.name, "every content word is explained")


SET_SHAPES = frozenset({"intersection", "conditions"})
"""Shapes whose anchors the question lists ("borders Germany, Austria and Italy")."""


def listed_out(case: Case, kept: Candidate) -> int | None:
    """The position of a word listed with the anchors of a set the kept reading intersects
    (between two of them, or after a list word that follows the last one) that the reading
    neither links nor explains: "Which country borders Germany, Austria and Italy?" read as
    the neighbours of Germany and Italy leaves Austria out, and answers Austria itself.  A
    plain reading of two anchors at once (« Frankreich gemeinsame Grenze mit ?answer. Italien
    gemeinsame Grenze mit ?answer ») intersects them as a set does.
    ``None`` otherwise (function words and list words need no anchor)."""
    if kept.shape not in SET_SHAPES and kept.shape != "plain":
        return None
    spans = sorted(link.span for link in kept.links if link.span is not None and not link.is_class)
    if len(spans) < 2:
        return None
    covered = {i for a, b in spans for i in range(a, b)} | {i for a, b, _ in kept.explains for i in range(a, b)}
    joins = set(words_for(LIST_WORDS, case.lang))
    tokens = case.tokens
    after = spans[-1][1]
    tail = [after + 1] if after + 1 < len(tokens) and tokens[after] in joins else []
    for i in [*range(spans[0][0], spans[-1][1]), *tail]:
        word = tokens[i]
        if i not in covered and is_word(word) and word not in joins and not function_word(word, case.lang):
            return i
    return None


def stranded(case: Case, kept: Candidate, answer_types: AnswerTypes | None) -> int | None:
    """The position of a preposition that ends the question away from its bare question word
    (:attr:`lang.base.Language.stranded_prepositions`: "what did she go to college *for*?"),
    when no phrase of the kept candidate's properties that the question says holds it ("known
    *for*", "what did … die *of*", "play *in*"): the question word is what that preposition
    governs, so a reading of the other words ("educated at": the college) answers another
    question.  ``None`` otherwise, and where a class noun follows the question word ("what
    team does he play *for*": the team is asked, whatever the preposition)."""
    tokens, lang = case.tokens, case.lang
    if lang not in SUPPORTED or answer_types is None or not kept.properties or len(tokens) < 3:
        return None
    last = len(tokens) - 1
    if (tokens[last] not in language(lang).stranded_prepositions or tokens[0] not in asking_words(lang)
            or not function_word(tokens[1], lang)):
        return None
    if any(a <= last < b for a, b, _ in kept.explains):
        return None
    said = {stem(t, lang) or t for t in tokens}
    for pid in kept.properties:
        for phrase in answer_types.phrases(pid, lang):
            words = tokenize(phrase)
            if tokens[last] in words and all((stem(w, lang) or w) in said for w in words):
                return None
    return last


def person_properties(candidates: Sequence[Candidate], answer_types: AnswerTypes | None) -> frozenset[str]:
    """Of the candidates' properties, those whose values are persons (the lexicon's answer types)."""
    if answer_types is None:
        return frozenset()
    return frozenset(p for c in candidates for p in c.properties if answer_types.answer_type(p) == "person")


def worded_positions(question: str, tokens: Sequence[str], lang: str, answer_types: AnswerTypes | None
                     ) -> frozenset[int]:
    """Positions of the question's tokens that some property phrase of the lexicon says (any
    property's): content words a reading must explain, whatever backend wrote it."""
    if answer_types is None:
        return frozenset()
    words = answer_types.property_words(question, lang)
    return frozenset(i for i, t in enumerate(tokens) if t in words and not function_word(t, lang))


def said_as(candidate: Candidate, view: CandidateView | None, lang: str,
            answer_types: AnswerTypes | None) -> str | None:
    """How a candidate is said: its verbalization, and its properties' phrases in ``lang``
    and English (``None`` when neither is known)."""
    parts = [view.verbalization] if view is not None and view.verbalization else []
    if parts and answer_types is not None:
        parts += [p for pid in candidate.properties for code in {lang, "en"} for p in answer_types.phrases(pid, code)]
    return " ".join(parts) or None


def about(candidate: Candidate) -> dict[str, str]:
    """``{"entity": Q…, "property": P…}`` of what a candidate reads, when it names both."""
    if candidate.entities and candidate.properties:
        return {"entity": candidate.entities[0], "property": candidate.properties[0]}
    return {}


def unexplained(case: Case, candidate: Candidate, said: str | None) -> list[int]:
    """The positions of the question's content words that ``candidate`` leaves unexplained
    (``said``: how it is said in words, for a candidate that does not say what it explains)."""
    tokens, lang = case.tokens, case.lang
    if not candidate.explains and not said:
        return []  # nothing says what it reads: no evidence either way (the validator off, a foreign backend)
    cues = dict(case.reading.cues) if case.reading is not None else cue_positions(case.question, tokens, lang)
    if candidate.comparison is not None:
        readable: set[int] = set()  # "which country …, A or B?": the answer is one of the two named, of their kind
    else:
        readable = (chained(case, candidate) | qualifiers(case) | listed_nouns(case) if candidate.explains
                    else set(case.worded))
    content = [i for i, t in enumerate(tokens)
               if is_word(t) and (i in cues or not function_word(t, lang)) and (i in cues or i in readable)]
    explained = {i for a, b, _ in candidate.explains for i in range(a, b)}
    explained |= {i for link in candidate.links for span in (link.span, link.described_span) if span is not None
                  for i in range(*span)}
    explained |= aligned(tokens, said, lang)
    out = []
    for i in content:
        if i in explained and i not in cues:
            continue
        kind = cues.get(i)
        if kind is not None and (candidate.shape in SHAPES_FOR_CUE[kind] or _named(candidate, i)):
            continue
        if kind is None and i in explained:
            continue
        out.append(i)
    return out


def chained(case: Case, candidate: Candidate) -> set[int]:
    """The words another reading explains as a relation of the kept reading's own entity to a
    person (« Einstein's *wife* », « le *mari* de … »): the question asks about that person,
    and a reading of the entity itself answers another question.  (Words other readings
    explain in other ways, an entity, a class, a property of another entity, are a looser
    constraint the validator and the type decision weigh: benchmark questions hold many such
    words that add nothing, "the *main* language of Israel".)"""
    anchor = candidate.entities[0] if candidate.entities else None
    span = next((link.span for link in candidate.links if link.qid == anchor and link.span is not None), None)
    if span is None:
        return set()
    beside = attached(case.tokens, span, case.lang)
    person = case.person_properties
    out: set[int] = set()
    for other in [*case.candidates[:READ_BY], *case.readings]:
        if other is candidate or not other.entities or other.entities[0] != anchor:
            continue
        if not set(other.properties) & person or set(other.properties) & set(candidate.properties):
            continue
        out |= {i for a, b, role in other.explains if role == "property" for i in range(a, b)} & beside
    return out


def qualifiers(case: Case) -> set[int]:
    """Words that qualify the class noun the question asks for: an entity another reading
    joins to that class right beside the noun, in a phrase that starts with a "which" or
    "what" word ("which *Canadian* club", « qual clube *canadense* »: a club of Canada; the
    noun right after the question word counts as the class asked for when the kept reading's
    property reads it: « In quale squadra *canadese* ha giocato Michael Owen? »; not an
    adjective no reading reads, "what *famous* actress is the mother of …").
    The answer must be such a thing, so a reading that ignores the qualifier answers
    another question ("which club", any club).  (Entity words elsewhere are not held
    against a reading: "where in Germany was … born" adds nothing the birthplace lacks.)"""
    asking = asking_words(case.lang)
    tokens = case.tokens
    kept = case.kept
    said = {i for a, b, role in kept.explains if role == "property" for i in range(a, b)} if kept else set()
    asked = [(i, i + 1) for i in range(1, len(tokens)) if tokens[i - 1] in asking and i in said]  # « quale *squadra* »
    out: set[int] = set()
    for other in case.candidates[:READ_BY]:
        classes = [*((a, b) for a, b, role in other.explains if role == "class"), *asked]
        entities = [(a, b) for a, b, role in other.explains if role == "entity"]
        for a, b in classes:
            for e0, e1 in entities:
                after = e0 == b and a > 0 and tokens[a - 1] in asking  # « qual clube canadense »
                before = e1 == a and e0 > 0 and tokens[e0 - 1] in asking  # "which Canadian club"
                if after or before:
                    out |= set(range(e0, e1))
    return out


def listed_at(tokens: Sequence[str], lang: str) -> frozenset[int]:
    """The position of the word a listing phrase that opens the question asks for, past the
    function and question words after it ("give me all *books* written by …", « dame todos
    los *libros* … », "list the *films* …": :attr:`lang.base.ShapeWords.listing`, less the
    "which" and "what" words, whose noun :func:`asking_words` finds)."""
    if lang not in SUPPORTED:
        return frozenset()
    asking = asking_words(lang)
    questions = language(lang).question_words
    out = set()
    for phrase in LISTING_WORDS.get(lang, ()):
        words = tokenize(phrase)
        if not words or words[0] in asking or list(tokens[:len(words)]) != words:
            continue
        i = len(words)
        while i < len(tokens) and (function_word(tokens[i], lang) or tokens[i] in questions or not is_word(tokens[i])):
            i += 1
        if i < len(tokens):
            out.add(i)
    return frozenset(out)


def listed_nouns(case: Case) -> set[int]:
    """The word a listing phrase asks for (:func:`listed_at`) where no reading links it as a
    class: a class noun the type check cannot hold the answers to, so the kept reading must
    read it ("give me all *books* written by Stephen King" is not answered with the films he
    wrote the screenplay of: the KG types 34 things as books, too few to check answers by)."""
    classes = {i for c in case.candidates[:READ_BY] for link in c.links
               if link.is_class and link.span is not None for i in range(*link.span)}
    return set(listed_at(case.tokens, case.lang)) - classes


def asking_words(lang: str) -> frozenset[str]:
    """The question words that ask for a thing of the class noun after them ("which
    country", "what sport"; :attr:`lang.base.Language.question_words`)."""
    if lang not in SUPPORTED:
        return frozenset()
    return frozenset(w for w, kind in language(lang).question_words.items() if kind in ("which", "what"))


def attached(tokens: Sequence[str], span: tuple[int, int], lang: str) -> set[int]:
    """The positions where a word is attached to the name at ``span`` as what it names:
    after a possessive ("Einstein 's wife"), before it with one function word between (« la
    moglie di Einstein », « die Ehefrau von Einstein ») or right before it (« жена Эйнштейна »)."""
    start, end = span
    out = {start - 1}
    if end + 1 < len(tokens) and tokens[end] == "s":
        out.add(end + 1)
    if start >= 2 and function_word(tokens[start - 1], lang):
        out.add(start - 2)
    return {i for i in out if 0 <= i < len(tokens)}


def _named(candidate: Candidate, i: int) -> bool:
    """Whether token ``i`` is part of a name the candidate links ("the Second World War")."""
    return any(link.span is not None and link.span[0] <= i < link.span[1] and link.span[1] - link.span[0] > 1
               for link in candidate.links)

















def aligned(tokens: Sequence[str], said: str | None, lang: str) -> set[int]:
    """Positions of question tokens that a word of ``said`` (a verbalization) accounts for:
    the same folded word, the same Snowball stem, the same dictionary form
    (:func:`core.text.lemmas`), or a shared beginning of at least :data:`MIN_PREFIX`
    letters that leaves at most three letters of either over."""
    if not said:
        return set()
    words = _said_words(said, lang)
    return {i for i, t in enumerate(tokens) if is_word(t) and _matches(fold(t), lang, words)}


@cache
def _said_words(said: str, lang: str) -> frozenset[str]:
    return frozenset(fold(w) for w in tokenize(said) if is_word(w))


def _matches(word: str, lang: str, said: frozenset[str]) -> bool:
    if word in said:
        return True
    own = stem(word, lang)
    forms = lemmas(word, lang)
    for other in said:
        if own is not None and own == stem(other, lang):
            return True
        if forms and forms & lemmas(other, lang):  # the same dictionary form (« жены », « жена »)
            return True
        common = 0
        for x, y in zip(word, other, strict=False):
            if x != y:
                break
            common += 1
        if common >= MIN_PREFIX and common >= min(len(word), len(other)) - 3:
            return True
    return False


def partial_link(candidate: Candidate) -> Link | None:
    """An entity link that covers only part of the name the user typed ("Roger Federer"
    linked to Roger Troutman by "Roger"), else ``None``."""
    return next((link for link in candidate.links if link.name_cover < 1.0), None)


def split_name(case: Case, top: int = READ_BY) -> tuple[Link, Link] | None:
    """``(kept link, whole link)`` when the kept candidate reads part of a name the user typed
    (two or more capitalized words) as an entity, and another of the first ``top`` candidates
    (or a no-value reading) links that whole name exactly, as another entity: « What
    nationality is Anthony O'Sullivan? » read as the nationality Marc Anthony and Maureen
    O'Sullivan share answers for neither the actor the KG names « Anthony O'Sullivan » nor
    anyone the user named.  ``None`` otherwise."""
    kept = case.kept
    if kept is None:
        return None
    pool = [*case.candidates[:top], *case.readings]
    wholes = [(link.span, link) for candidate in pool for link in candidate.links
              if link.span is not None and link.kind in EXACT_LINKS and link.name_words >= 2
              and link.name_cover == 1.0 and not link.is_class and link.qid not in kept.entities]
    parts = [(part.span, part) for part in kept.links if part.span is not None and not part.is_class]
    return next(((part, whole) for (a, b), part in parts for (s, e), whole in wholes
                 if s <= a and b <= e and e - s > b - a), None)


def ignored_name(candidates: list[Candidate], chosen: int, top: int = READ_BY) -> Link | None:
    """A name of two or more capitalized words the user typed that another of the first
    ``top`` candidates links exactly (by a label or an alias, the whole name) and the kept
    candidate leaves out: none of its words is in the kept candidate's mentions (by
    position) and its entity is none of the kept candidate's.  « Which member of The
    Rolling Stones appeared in Pirates of the Caribbean: At World's End? » kept as the
    film's cast list answers another question.  ``None`` when there is none, or when the
    kept candidate's mentions carry no span (a backend that does not say where it linked)."""
    kept = candidates[chosen]
    spans = [link.span for link in kept.links]
    if not spans or any(span is None for span in spans):
        return None
    taken = {i for span in spans if span is not None for i in range(*span)}
    for candidate in candidates[:top]:
        for link in candidate.links:
            if (link.name_words >= 2 and link.name_cover == 1.0 and link.kind in EXACT_LINKS
                    and link.span is not None and link.qid not in kept.entities
                    and not taken.intersection(range(*link.span))):
                return link
    return None


def covers(case: Case, candidate: Candidate, view: CandidateView | None = None) -> bool:
    """Whether ``candidate`` reads the question whole: no partial name, and no content word
    left unexplained (a candidate that says nothing of what it reads covers nothing)."""
    said = view.verbalization if view is not None else None
    if not candidate.explains and not said:
        return False  # nothing says what it reads
    return partial_link(candidate) is None and not unexplained(case, candidate, said)
