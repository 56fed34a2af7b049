"""Entity linking: question -> scored entity mentions (token span, QID, match quality,
popularity prior).

Every word n-gram (every character n-gram in CJK text) is looked up in the label index
as written and diacritic-folded; names are language-agnostic, so a German question finds
an English label ("Albert Einstein") and "Berlín" finds "Berlin".  Tokens that are not
function words also get fuzzy alternatives from the index vocabulary (inflections such as
"Эйнштейна", "Berlins", and typos such as "Einstien").  No entity is special-cased: scores
come only from the match, the span and the entity's degree in the KG.
"""

from __future__ import annotations

import heapq
import math
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from core.text import (
    CASED_NON_LATIN,
    TRANSLITERABLE,
    cased_tokens,
    fold,
    is_cjk,
    is_katakana,
    latin_form,
    normalize,
    phonetic_key,
    phonetic_keys,
    sound_similarity,
    tokenize,
)
from kg.cldr import country_of_adjective
from kg.index import KGIndex, NameHit
from lang import SUPPORTED, is_supported
from lang import get as language
from lang.base import KinSpelling
from lang.morphology import inflection_prefix, same_word
from lang.stopwords import is_stopword, uninformative_case
from qa.candidate import Link
from qa.reading.names import LIST_PUNCTUATION, aligned_cased
from qa.reading.words import LIST_WORDS, words_for

MAX_SPAN_TOKENS = 10
MAX_SPAN_CJK = 16
MAX_FUZZY_SPAN = 4
FOLDED_QUALITY = 0.94
PARTIAL_QUALITY = 0.8
OUTKNOWN = 10  # a fuzzy spelling of a written word ranks below that word's name as written when the written
# name's entity has this many times the fuzzy one's degree ("lennon": John Lennon, 66 facts, over "Lenna", 3)
OUTKNOWN_MARGIN = 0.98  # such a fuzzy spelling keeps at most this share of the written name's score
OBSCURE_SURNAME = 20  # statements: a lower-case word that is only the last name of people with fewer
# is also matched by sound (a person known only by a Latin name)
PROMINENCE = 100  # a name inside a longer name is a less likely mention, unless its entity has this many
# times the longer name's degree ("Japan", 1,075 facts, inside "capital of Japan", an entity with 5)
PHONETIC_QUALITY = 0.95  # times the sound similarity; capitalized (cased-script) spans
UNCASED_PHONETIC = 0.88  # scripts without capitals (Arabic, Devanagari, kana) give no name signal
MIN_SOUND_SIMILARITY = 0.6
CLOSE_SOUND = 0.82
MAX_PHONETIC_SPAN = 4  # words (a katakana run counts as one word)
MAX_LATIN_SOUND_SPAN = 3  # words of a Latin name typed loosely, matched by sound
MIN_NAME_WORD = 3
LATIN_SOUND_QUALITY = 0.9  # times the sound similarity: a loosely typed Latin name
MAX_KATAKANA_RUN = 24
FUZZY_ALTERNATIVES = 6
INFLECTION_POOL = 400  # vocabulary words with a written word's stem searched for its inflections ("новой"
# has many close words; "новая", its other form, is not among the six closest)
MAX_ENDING = 2  # letters an inflection may be longer than the written word
CASE_LANGUAGES = frozenset(code for code in SUPPORTED if language(code).cased_names)  # lang/<code>: cased_names
INFLECTION_SIMILARITY = 0.9
FUZZY_COMBOS = 150
"""Combinations of close words tried per span, the best first (:func:`best_combinations`): enough
for a name of three inflected words among the spellings of its words, a few milliseconds."""
DEGREE_SCALE = math.log1p(20000)

# Function words and question words: spans made only of these are never linked, and they
# get no fuzzy alternatives.  (Not entity names; only grammar.)


@dataclass(frozen=True)
class Mention:
    """One linked entity: the question tokens ``[start, end)`` name ``qid``; the complex
    layer adds the characters ``[char_start, char_end)`` of its cue text."""

    start: int
    end: int
    surface: str
    qid: str
    quality: float  # 1.0 exact name, lower for folded/fuzzy matches
    prior: float  # popularity in [0, 1] from the entity's KG degree
    score: float  # combined link score in [0, 1]
    is_label: bool
    ambiguity: int  # how many entities share the matched name
    fuzzy: bool
    degree: int
    instances: int  # > 0 when the entity is a class (has P31 instances)
    coverage: float  # share of the question's content characters the span covers
    partial: bool = False  # matched only a person's last name
    phonetic: bool = False  # matched a Latin name by sound only (a transliterated span)
    name: str = ""  # the KG name it matched (normalized; the Latin form for a sound-alike)
    kind: str = ""  # "label" | "alias" | "folded" | "inflected" | "fuzzy" | "partial" | "phonetic"
    char_start: int = -1  # the span in the question's cue text (the complex layer's; -1: unknown)
    char_end: int = -1
    sound: float = 0.0  # a sound-alike's sound similarity to the name it matched (0.0: not matched by sound)
    rival_degree: int = 0  # the highest degree of another entity the matched name names (0: none)

    @property
    def is_class(self) -> bool:
        """True for an entity with instances (usable as ``?answer wdt:P31 <class>``)."""
        return self.instances > 0

    def link(self) -> Link:
        """The linking evidence a candidate carries for this entity."""
        return Link(self.qid, self.surface, self.name, self.kind, self.score, self.coverage, self.degree,
                    span=(self.start, self.end), is_class=self.is_class, sound=self.sound, namesakes=self.ambiguity,
                    rival_degree=self.rival_degree)


@dataclass
class _Match:
    start: int
    end: int
    key: str
    quality: float
    fuzzy: bool
    phonetic: bool = False
    sound: str = ""  # the span in Latin letters (phonetic matches)
    latin: bool = False  # a Latin-script name typed loosely, matched by sound ("jon lenon")
    name: str = ""  # the matched name's Latin form (phonetic matches)
    inflected: bool = False  # another form of the same words (same stems in the question's language)
    unmarked: bool = False  # a word of a cased script whose case marks no name, heard all the same
    kin: bool = False  # respelled in the kindred language (:meth:`Linker._kin_matches`)


class Linker:
    """Links question spans to KG entities through a :class:`~kg.index.KGIndex` (the label
    index, or an endpoint: every span's names are looked up in one batch)."""

    def __init__(self, index: KGIndex) -> None:
        self.index = index

    def link(self, question: str, lang: str = "en", *, limit: int = 12) -> list[Mention]:
        """Scored mentions, best first, one (the best) per entity, at most ``limit``."""
        tokens = tokenize(question)
        if not tokens:
            return []
        phonetic = self._phonetic_matches(question, tokens) + _latin_sound_spans(tokens)
        self._prefetch(tokens, lang, phonetic)
        grammar = _grammar_words(question, tokens, lang)
        breaks = _list_breaks(question, tokens, lang)
        spelled = (self._exact_matches(tokens) + self._fuzzy_matches(tokens, lang) + _demonym_matches(tokens, lang)
                   + self._kin_matches(tokens, lang))
        matches = [m for m in spelled if not (m.end - m.start == 1 and m.start in grammar)
                   and not any(m.start < b < m.end for b in breaks)]
        written = _written(question, tokens, matches)
        hits = {key: named for key, found in self.index.lookup({m.key for m in matches}, lang=lang,
                                                               written=written).items()
                if (named := [h for h in found if h.names_in(lang)])}
        found = _own_language_first([(m, h, 1.0) for m in matches for h in hits.get(m.key, [])], lang)
        ambiguity = {m.key: len(hits.get(m.key, [])) for m in matches}
        phonetic = [m for m in phonetic if not any(m.start < b < m.end for b in breaks)
                    and not (m.unmarked and _holds_a_known_name(m, matches, hits))]
        phonetic += self._surname_sounds(question, tokens, hits)
        found += self._sound_alikes(phonetic, ambiguity)
        marked = not uninformative_case(question) and question != question.lower()
        grammatical = frozenset(i for i, t in enumerate(tokens) if t in language(lang).stop_words) \
            if is_supported(lang) else frozenset()
        return self._score(tokens, found, ambiguity, limit, aligned_cased(question, len(tokens)) if marked else None,
                           grammatical)

    def _prefetch(self, tokens: Sequence[str], lang: str, phonetic: Sequence[_Match]) -> None:
        """Tell the index, in one batch, the vocabulary and sound keys linking will read."""
        words = [t for t in tokens if not is_stopword(t)]
        prefixes = [p for t in words if (p := _inflection_prefix(t, lang))]
        if (kin := _kin_spelling(lang)) is not None:
            respelled = [k for t in words if (k := kin.spell(t)) != t]
            words += respelled
            prefixes += [p for k in respelled if (p := _inflection_prefix(k, kin.lang))]
        self.index.prefetch(similar=[fold(t) for t in words], prefixes=prefixes, sounds=[m.key for m in phonetic])

    def _surname_sounds(self, question: str, tokens: Sequence[str], hits: dict[str, list[NameHit]]) -> list[_Match]:
        """Sound-alike keys of the lower-case words of a cased non-Latin script that are, as
        written, only the last names of little-known people (below :data:`OBSCURE_SURNAME`
        statements each): typed without its capital such a word gives no name signal by its
        case, but as a last name it is one, and the person meant may be known only by a Latin
        name (« набоков »: Dmitri Nabokov by a Russian alias; Vladimir Nabokov, by sound).
        A capitalized word has its sound keys already (:meth:`_phonetic_matches`)."""
        cased = _cased_tokens(question, len(tokens))
        if cased is None:
            return []
        words = {i: found for i, token in enumerate(tokens)
                 if not _capitalized(cased[i]) and not is_stopword(token) and TRANSLITERABLE.search(token)
                 and not is_cjk(token) and (found := hits.get(token)) and all(h.partial for h in found)}
        if not words:
            return []
        stats = self.index.entity_stats({h.qid for found in words.values() for h in found})
        out = []
        for i, found in words.items():
            if all((st := stats.get(h.qid)) is None or st.degree < OBSCURE_SURNAME for h in found):
                text = _latin_j(tokens[i])  # the name as written: its last letters are no case ending
                if key := phonetic_key(text):
                    out.append(_Match(i, i + 1, key, UNCASED_PHONETIC, True, phonetic=True, sound=latin_form(text)))
        return out

    def _sound_alikes(self, phonetic: Sequence[_Match], ambiguity: dict[str, int]
                      ) -> list[tuple[_Match, NameHit, float]]:
        """Entities whose (Latin) names sound like a non-Latin span: ``(match, hit, similarity)``;
        a match's ambiguity counts its close sound-alikes."""
        if not phonetic:
            return []
        sounds = self.index.lookup_phonetic({m.key for m in phonetic})
        out = []
        for m in phonetic:
            close = set()
            for hit, sound in sounds.get(m.key, ()):
                sim = sound_similarity(m.sound, sound)
                if sim >= (CLOSE_SOUND if m.latin or m.unmarked else MIN_SOUND_SIMILARITY) \
                        and not (m.latin and sound == m.sound):
                    out.append((replace(m, name=sound), hit, sim))
                    if sim >= CLOSE_SOUND:
                        close.add(hit.qid)
            ambiguity[m.key + "|" + m.sound] = max(1, len(close))
        return out

    # ------------------------------------------------------------------ spans

    def _spans(self, tokens: Sequence[str]) -> list[tuple[int, int]]:
        out = []
        n = len(tokens)
        for i in range(n):
            cjk = is_cjk(tokens[i])
            longest = MAX_SPAN_CJK if cjk else MAX_SPAN_TOKENS
            for j in range(i + 1, min(n, i + longest) + 1):
                span = tokens[i:j]
                if all(is_stopword(t) for t in span):
                    continue
                if cjk and j - i < 2 and len(span[0]) == 1:
                    continue
                if j - i <= 3 and _inside_katakana_run(tokens, i, j):
                    continue  # "タイ" inside "アインシュタイン" is not Thailand
                out.append((i, j))
        return out

    def _exact_matches(self, tokens: Sequence[str]) -> list[_Match]:
        out = []
        for i, j in self._spans(tokens):
            key = " ".join(tokens[i:j])
            out.append(_Match(i, j, key, 1.0, False))
            folded = fold(key)
            if folded != key:
                out.append(_Match(i, j, folded, FOLDED_QUALITY, False))
        return out

    def _fuzzy_matches(self, tokens: Sequence[str], lang: str) -> list[_Match]:
        """Spans with some words replaced by close vocabulary words.  When every replaced word
        is the written one inflected in the question's language (same Snowball stem: "Франции"
        for "Франция", "Berlins" for "Berlin"; Ukrainian by its dictionary form: "Франції"
        for "Франція"), the span is the name inflected, matched as a folded name is; otherwise it
        is a fuzzy spelling (a typo, or an ending the stemmer does not know)."""
        alternatives = [[(tok, 1.0)] + ([] if is_stopword(tok) else self._close_words(tok, lang)) for tok in tokens]
        out = []
        n = len(tokens)
        for i in range(n):
            for j in range(i + 1, min(n, i + MAX_FUZZY_SPAN) + 1):
                span_alts = alternatives[i:j]
                if all(len(a) == 1 for a in span_alts) or all(is_stopword(t) for t in tokens[i:j]):
                    continue
                for combo, quality in best_combinations(span_alts, FUZZY_COMBOS):
                    if quality >= 1.0 or quality < 0.6:
                        continue
                    key = " ".join(t for t, _ in combo)
                    if _inflected(tokens[i:j], [t for t, _ in combo], lang):
                        out.append(_Match(i, j, key, FOLDED_QUALITY, False, inflected=True))
                    else:
                        out.append(_Match(i, j, key, quality, True))
        return out

    def _kin_matches(self, tokens: Sequence[str], lang: str) -> list[_Match]:
        """Spans respelled in the kindred language the KG names more things in
        (:attr:`lang.base.Language.kin_spelling`: Ukrainian « іван франко » as Russian
        « иван франко », « леніна » as « ленина », an inflection of « Ленин »), matched as
        written and by their inflections there; a respelled name is at best a folded one."""
        kin = _kin_spelling(lang)
        if kin is None:
            return []
        respelled = [kin.spell(t) for t in tokens]
        changed = [a != b for a, b in zip(tokens, respelled, strict=True)]
        if not any(changed):
            return []
        found = self._exact_matches(respelled) + self._fuzzy_matches(respelled, kin.lang)
        return [replace(m, quality=min(m.quality, FOLDED_QUALITY), kin=True) for m in found
                if any(changed[m.start:m.end])]

    def _close_words(self, token: str, lang: str) -> list[tuple[str, float]]:
        """The vocabulary words a written word may stand for, ``(word, similarity)``: the
        closest spellings; in a language whose names change by case, its inflections first
        (the vocabulary's words with its stem that :func:`core.text.same_word` accepts).
        Elsewhere a stem also joins derived words ("perform", "performance"), so only the
        closest spellings are tried."""
        close = self.index.similar_tokens(fold(token), limit=FUZZY_ALTERNATIVES)
        prefix = _inflection_prefix(token, lang)
        if prefix is None:
            return close
        found = self.index.tokens_with_prefix(prefix, INFLECTION_POOL, max_len=len(token) + MAX_ENDING)
        known = {w for w, _ in close}
        inflections = [(w, INFLECTION_SIMILARITY) for w, _df in found
                       if w != token and w not in known and same_word(token, w, lang)]
        ranked = sorted(close, key=lambda c: not same_word(token, c[0], lang))
        return (inflections + ranked)[:FUZZY_ALTERNATIVES]

    def _phonetic_matches(self, question: str, tokens: Sequence[str]) -> list[_Match]:
        """Sound-alike keys of spans written in a non-Latin script (Cyrillic, Greek, Arabic,
        Devanagari, katakana) that could name an entity known only by a Latin name.  In cased
        scripts every word of the span must be capitalized, as names are, unless the question's
        case marks no name (typed all in lower case, « де народився ейнштейн », or all in
        capitals): then a span of words the KG names nothing by is heard, as in a script without
        case, and only a close sound-alike (:data:`CLOSE_SOUND`) is taken."""
        written = _cased_tokens(question, len(tokens))
        cased = written if written is not None and _case_marks_names(question, written) else None
        unmarked = written is not None and cased is None
        out = []
        for words in _segments(tokens):
            for i in range(len(words)):
                for j in range(i + 1, min(len(words), i + MAX_PHONETIC_SPAN) + 1):
                    span = words[i:j]
                    a, b = span[-1]
                    if b - a == 1 and is_stopword(tokens[a]):
                        break
                    if cased is not None and not _capitalized(cased[a]):
                        break
                    text = " ".join("".join(tokens[x:y]) for x, y in span)
                    quality = PHONETIC_QUALITY if cased is not None else UNCASED_PHONETIC
                    for key, sound in _inflection_variants(text):
                        out.append(_Match(span[0][0], b, key, quality, True, phonetic=True, sound=sound,
                                          unmarked=unmarked))
        return out

    # ------------------------------------------------------------------ scoring

    def _score(self, tokens: Sequence[str], found: list[tuple[_Match, NameHit, float]],
               ambiguities: dict[str, int], limit: int, cased: Sequence[str] | None = None,
               grammatical: frozenset[int] = frozenset()) -> list[Mention]:
        if not found:
            return []
        stats = self.index.entity_stats({h.qid for _, h, _sim in found})
        content_chars = sum(len(t) for t in tokens if not is_stopword(t)) or 1
        degrees = {q: st.degree for q, st in stats.items()}
        longest_cover = _longest_cover(found, degrees, cased, grammatical)
        rivals = _rival_degrees(found, degrees)
        best: dict[str, Mention] = {}
        mentions: list[Mention] = []
        for m, h, sim in found:
            st = stats.get(h.qid)
            degree = st.degree if st else 0
            instances = st.instances if st else 0
            if m.phonetic:
                quality = m.quality * sim * (PARTIAL_QUALITY if h.partial else 1.0)
            else:
                quality = m.quality * (1.0 if h.exact else PARTIAL_QUALITY if h.partial else FOLDED_QUALITY)
            prior = min(1.0, math.log1p(degree) / DEGREE_SCALE)
            span_chars = sum(len(t) for t in tokens[m.start:m.end] if not is_stopword(t))
            coverage = min(1.0, span_chars / content_chars)
            length_factor = min(1.0, span_chars / 10.0)
            contained = any(a <= m.start and m.end <= b and (b - a) > (m.end - m.start)
                            and degree <= PROMINENCE * cover_degree for (a, b), cover_degree in longest_cover.items())
            ambiguity = max(1, ambiguities.get(_name_key(m), 1))
            score = quality * (0.45 + 0.25 * length_factor + 0.2 * prior + 0.1 * (1.0 / ambiguity))
            if not h.is_label:
                score *= 0.92  # aliases are noisier than labels
            if contained:
                score *= 0.75
            if degree == 0:
                score *= 0.5
            mention = Mention(m.start, m.end, " ".join(tokens[m.start:m.end]), h.qid, round(quality, 4),
                              round(prior, 4), round(score, 4), h.is_label, ambiguity, m.fuzzy, degree,
                              instances, round(coverage, 4), h.partial, m.phonetic, m.name or m.key,
                              _match_kind(m, h), sound=round(sim, 4) if m.phonetic else 0.0,
                              rival_degree=rivals.get((_name_key(m), h.qid), 0))
            mentions.append(mention)
        for mention in _below_written(mentions):
            old = best.get(mention.qid)
            if old is None or _preferred(mention, old):
                best[mention.qid] = mention
        ranked = sorted(best.values(), key=lambda x: (-x.score, -x.degree, x.qid))
        return ranked[:limit]


def _inflection_prefix(token: str, lang: str) -> str | None:
    """The start a word shares with its inflections, in a language whose names change by case."""
    return inflection_prefix(token, lang) if lang in CASE_LANGUAGES else None


def _list_breaks(question: str, tokens: Sequence[str], lang: str) -> frozenset[int]:
    """Token positions that a comma or semicolon of a list comes right before (a list word of
    the question's language follows it: "Germany, Austria and Italy"): no name spans one
    ("Germany, Austria" is no "German Austria"); a comma in no list may be a name's own
    ("Washington, D.C.").  Empty when the question's parts do not tokenize to its tokens."""
    parts = LIST_PUNCTUATION.split(question)
    if len(parts) < 2:
        return frozenset()
    joins = set(words_for(LIST_WORDS, lang))
    out, at = set(), 0
    for part in parts[:-1]:
        at += len(tokenize(part))
        out.add(at)
    if at + len(tokenize(parts[-1])) != len(tokens):
        return frozenset()
    return frozenset(b for b in out if any(t in joins for t in tokens[b:]))


def _grammar_words(question: str, tokens: Sequence[str], lang: str) -> frozenset[int]:
    """Positions of the words that are function words of the question's language written in
    lower case, in a question whose capitals mark its names (Dutch « van » in « Wat is de
    hoofdstad van Spanje? »): such a word alone names no entity (not Vanuatu by its code
    « VAN »); inside a longer name it still counts.  A question all in one case says nothing."""
    if not is_supported(lang) or uninformative_case(question) or question == question.lower():
        return frozenset()
    cased = aligned_cased(question, len(tokens))
    if cased is None:
        return frozenset()
    words = language(lang).stop_words
    return frozenset(i for i, (token, as_written) in enumerate(zip(tokens, cased, strict=True))
                     if token in words and as_written == as_written.lower())


def _written(question: str, tokens: Sequence[str], matches: Sequence[_Match]) -> dict[str, str]:
    """Each exactly matched span's key with the span as the user wrote it: its case, and the
    punctuation inside it (« États-Unis contigus », "Alice's"), where the question's words
    align with its tokens."""
    cased = aligned_cased(question, len(tokens))
    if cased is None:
        return {}
    text = unicodedata.normalize("NFKC", question)
    bounds: list[tuple[int, int]] = []
    at = 0
    for token in cased:
        start = text.find(token, at)
        if start < 0:
            return {m.key: " ".join(cased[m.start:m.end]) for m in matches if not m.fuzzy and m.quality == 1.0}
        at = start + len(token)
        bounds.append((start, at))
    return {m.key: text[bounds[m.start][0]:bounds[m.end - 1][1]] for m in matches
            if not m.fuzzy and m.quality == 1.0}


def _below_written(mentions: Sequence[Mention]) -> list[Mention]:
    """``mentions`` with the fuzzy spellings (and sound-alikes) of a span scored below the
    span's name as written (label, alias, folded, inflected or last name) where that name's
    entity is much better known (:data:`OUTKNOWN` times the degree), their order kept: a word
    that is a well-known entity's name as typed more likely means it than a rare entity's
    name a letter or two away ("lennon": John Lennon, not "Lenna" or "Lennox")."""
    written: dict[tuple[int, int], Mention] = {}
    for m in mentions:
        span = (m.start, m.end)
        if not m.fuzzy and (span not in written or m.degree > written[span].degree):
            written[span] = m
    outknown = {i for i, m in enumerate(mentions) if m.fuzzy and (known := written.get((m.start, m.end)))
                and known.degree >= OUTKNOWN * max(1, m.degree)}
    factor: dict[tuple[int, int], float] = {}
    for i in outknown:
        span = (mentions[i].start, mentions[i].end)
        factor[span] = min(factor.get(span, 1.0), OUTKNOWN_MARGIN * written[span].score / mentions[i].score)
    return [replace(m, score=round(m.score * factor[(m.start, m.end)], 4))
            if i in outknown and factor[(m.start, m.end)] < 1.0 else m for i, m in enumerate(mentions)]


WRITTEN_KINDS = frozenset({"label", "alias", "folded"})
LOOSE_KINDS = frozenset({"inflected", "fuzzy"})
WRITTEN_OVER_LOOSE = 0.95
"""A link by a name as written is kept over the same entity's inflected or fuzzy link on
another span when its score is at least this share of the other's."""


def _preferred(new: Mention, old: Mention) -> bool:
    """Whether ``new`` is a better link than ``old`` to the same entity: over the same span a
    name as written (label, alias or folded) beats a fuzzy spelling, whatever their scores
    ("Francia" is an alias of France, not a misspelled "France"); over another span, a name
    as written beats an inflected or fuzzy form nearly as good (:data:`WRITTEN_OVER_LOOSE`:
    « limitan con Francia pero no … el francés » names France where it says « Francia », not
    in « francés »); otherwise the higher score, then the earlier span; over the same span a
    close spelling beats a sound-alike."""
    if (new.start, new.end) == (old.start, old.end) and new.fuzzy != old.fuzzy:
        return not new.fuzzy
    if (new.start, new.end) == (old.start, old.end) and new.phonetic != old.phonetic:
        return not new.phonetic  # a close spelling says more than a sound-alike
    kinds = {new.kind, old.kind}
    if kinds & WRITTEN_KINDS and kinds & LOOSE_KINDS and len(kinds) == 2:
        written, loose = (new, old) if new.kind in WRITTEN_KINDS else (old, new)
        if written.score >= WRITTEN_OVER_LOOSE * loose.score:
            return written is new
    return (new.score, -new.start) > (old.score, -old.start)


def _kin_spelling(lang: str) -> KinSpelling | None:
    """The kindred spelling the question's language reads names in (``None``: none)."""
    return language(lang).kin_spelling if is_supported(lang) else None


def _match_kind(m: _Match, h: NameHit) -> str:
    """How a span matched a name: by sound, a last name only, a fuzzy spelling, a folded
    form, or a label or alias as written."""
    if m.phonetic:
        return "phonetic"
    if h.partial:
        return "partial"
    if m.fuzzy:
        return "fuzzy"
    if m.inflected:
        return "inflected"
    if m.quality < 1.0 or not h.exact:
        return "folded"
    return "label" if h.is_label else "alias"


_RU_ENDINGS = ("ого", "его", "ому", "ему", "ами", "ями", "ым", "им", "ом", "ем", "ой", "ей", "ах", "ях", "ов",
               "ев", "у", "ю", "а", "я", "е", "ы", "и")
_AR_PREFIXES = ("وال", "بال", "لل", "ال", "و", "ب", "ل")


def _demonym_matches(tokens: Sequence[str], lang: str) -> list[_Match]:
    """A country's adjective read as the country, as an inflected form of its name is (« la
    capital irlandesa »: Irlanda; :func:`kg.cldr.country_of_adjective` over the endings of
    :attr:`lang.base.Language.demonym_endings`)."""
    endings = language(lang).demonym_endings if is_supported(lang) else ()
    if not endings:
        return []
    out = []
    for i, token in enumerate(tokens):
        if is_stopword(token) or not token.isalpha():
            continue
        country = country_of_adjective(token, endings, lang)
        if country is not None:
            out.append(_Match(i, i + 1, normalize(country), FOLDED_QUALITY, False, inflected=True))
    return out


def _own_language_first(found: list[tuple[_Match, NameHit, float]], lang: str) -> list[tuple[_Match, NameHit, float]]:
    """``found`` without the inflections of another language's names over a span that is, as
    written, a name in the question's language: Spanish « Italia » is Italy's Spanish name,
    and not, by the Spanish stemmer, a form of the English "Italian" (the language).  A span
    no name as written holds keeps its inflections (« Франции », "Berlins")."""
    own = {(m.start, m.end) for m, h, _ in found
           if m.quality >= 1.0 and not (m.fuzzy or m.inflected or m.phonetic) and h.exact and lang in h.langs}
    return [(m, h, s) for m, h, s in found
            if not (m.inflected and not m.kin and (m.start, m.end) in own and lang not in h.langs)]


def _inflected(written: Sequence[str], replaced: Sequence[str], lang: str) -> bool:
    """Whether each replaced word is the written one in another inflection
    (:func:`core.text.same_word`)."""
    return all(fold(w) == r or same_word(w, r, lang) for w, r in zip(written, replaced, strict=True))


def _latin_sound_spans(tokens: Sequence[str]) -> list[_Match]:
    """Sound keys of spans of two or three Latin words that could be a person's name typed
    loosely ("jon lenon", "bob dillan", "steven hawking"): every word a content word of at
    least :data:`MIN_NAME_WORD` letters.  Such a span links, by sound, a name that sounds
    closely alike (:data:`CLOSE_SOUND`) and is not spelled the same (an exact name links as
    written), so a multi-word name is preferred over a common word inside it ("star")."""
    out = []
    n = len(tokens)
    for i in range(n):
        for j in range(i + 2, min(n, i + MAX_LATIN_SOUND_SPAN) + 1):
            words = tokens[i:j]
            if not all(w.isascii() and w.isalpha() and len(w) >= MIN_NAME_WORD and not is_stopword(w) for w in words):
                break
            text = " ".join(words)
            for key in sorted(phonetic_keys(text)):  # a Latin span has the keys a Latin name has
                out.append(_Match(i, j, key, LATIN_SOUND_QUALITY, True, phonetic=True, sound=latin_form(text),
                                  latin=True))
    return out


def _segments(tokens: Sequence[str]) -> list[list[tuple[int, int]]]:
    """Runs of consecutive non-Latin words, as token ranges (a katakana run is one word);
    Latin words, digits and Han characters end a run."""
    segments: list[list[tuple[int, int]]] = [[]]
    i = 0
    while i < len(tokens):
        if is_katakana(tokens[i]):
            j = i
            while j < len(tokens) and is_katakana(tokens[j]) and j - i < MAX_KATAKANA_RUN:
                j += 1
            segments[-1].append((i, j))
            i = j
            continue
        if TRANSLITERABLE.search(tokens[i]) and not is_cjk(tokens[i]):
            segments[-1].append((i, i + 1))
        elif segments[-1]:
            segments.append([])
        i += 1
    return [seg for seg in segments if seg]


def _cased_tokens(question: str, n: int) -> list[str] | None:
    """The question's tokens with their case kept (aligned with :func:`tokenize`), or ``None``
    when the question has no cased non-Latin word (Arabic, Devanagari, Japanese)."""
    if not CASED_NON_LATIN.search(question):
        return None
    toks = cased_tokens(question)
    return toks if len(toks) == n else None


def _holds_a_known_name(sound: _Match, matches: Sequence[_Match], hits: dict[str, list[NameHit]]) -> bool:
    """Whether a span heard though its case marks no name holds a word the KG names something
    by, as written or inflected (« жену ленина »: « ленина » is Lenin's Russian name, so the
    span is not John Lennon by sound).  A word that is only some people's last name is heard
    where they are little known (:meth:`Linker._surname_sounds`)."""
    return any(m.start < sound.end and sound.start < m.end and (not m.fuzzy or m.inflected) and not m.kin
               and hits.get(m.key) for m in matches)


def _case_marks_names(question: str, cased: Sequence[str]) -> bool:
    """Whether the capitals of a question with a cased non-Latin word (``cased``: its tokens
    as written, :func:`_cased_tokens`) can mark its names: not when there is no capital after
    its first word (« где родился айнштайн », « Где родился айнштайн? »), nor where
    :func:`~lang.stopwords.uninformative_case` says its case means nothing."""
    return any(_capitalized(t) for t in cased[1:]) and not uninformative_case(question)


def _capitalized(token: str) -> bool:
    return bool(token) and token[0].isupper()


def _inflection_variants(text: str) -> set[tuple[str, str]]:
    """Phonetic keys and sound forms of a span and of its uninflected forms (Russian case
    endings, Arabic article and clitics)."""
    words = text.split()
    stripped = [_strip_ending(w) for w in words]
    variants = {text, " ".join(stripped), " ".join([*words[:-1], stripped[-1]])}
    for w_i, w in enumerate(words):
        for prefix in _AR_PREFIXES:
            if w.startswith(prefix) and len(w) - len(prefix) >= 3:
                variants.add(" ".join([*words[:w_i], w[len(prefix):], *words[w_i + 1:]]))
                break
    variants |= {_latin_j(v) for v in variants}
    out = set()
    for v in variants:
        key = phonetic_key(v)
        if key:
            out.add((key, latin_form(v)))
    return out


_IOTATED = {"я": "ja", "ю": "ju", "й": "j"}
"""Word-initial Cyrillic letters that render the Latin "j" of Germanic and Slavic names (« Якоб »
Jakob or Jacob, « Юрген » Jürgen, « Йозеф » Josef): a Latin name keys its "j" as a consonant
(:func:`core.text.phonetic_keys`), the transliteration keys « я » as a vowel."""


def _latin_j(text: str) -> str:
    """``text`` with each word-initial iotated letter written as the Latin "j" it renders."""
    return " ".join(_IOTATED[w[0]] + w[1:] if w[:1] in _IOTATED else w for w in text.split())


def _strip_ending(word: str) -> str:
    """A Russian word without its longest case ending (the stem keeps three letters)."""
    for ending in _RU_ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            return word[:-len(ending)]
    return word


def _inside_katakana_run(tokens: Sequence[str], i: int, j: int) -> bool:
    """True for a short katakana span with katakana right before or after it."""
    if not all(is_katakana(t) for t in tokens[i:j]):
        return False
    return (i > 0 and is_katakana(tokens[i - 1])) or (j < len(tokens) and is_katakana(tokens[j]))


def _name_key(m: _Match) -> str:
    """The key a match's namesakes are counted under (a sound-alike's with its sound)."""
    return m.key + "|" + m.sound if m.phonetic else m.key


def _rival_degrees(found: Sequence[tuple[_Match, NameHit, float]], degrees: Mapping[str, int]
                   ) -> dict[tuple[str, str], int]:
    """``{(name key, qid): degree}``: for each entity a name names, the highest KG degree of
    another entity the same name names (absent: no other)."""
    named: dict[str, dict[str, int]] = {}
    for m, h, _ in found:
        named.setdefault(_name_key(m), {})[h.qid] = degrees.get(h.qid, 0)
    out = {}
    for key, entities in named.items():
        for qid in entities:
            if (others := [d for q, d in entities.items() if q != qid]):
                out[(key, qid)] = max(others)
    return out


def _longest_cover(found: list[tuple[_Match, NameHit, float]], degrees: dict[str, int],
                   cased: Sequence[str] | None = None, grammatical: frozenset[int] = frozenset()
                   ) -> dict[tuple[int, int], int]:
    """Spans of exact (or closely sound-alike), multi-token matches (sub-spans inside them are
    less likely mentions), each with the highest degree of the entities it names.  In a
    question whose capitals mark its names (``cased``: its tokens as written), a loosely typed
    Latin name (:func:`_latin_sound_spans`) with a word in lower case covers nothing ("France
    don['t]" sounding like "Bernstein" made France a less likely mention); nor does one with a
    function word of the question's language (``grammatical``: positions of the words of its
    maintained stop list, :attr:`lang.base.Language.stop_words`), whatever the case: « tiene
    canada » sounding like "Tiếng Kannada" made Canada a less likely mention than Kannada."""
    out: dict[tuple[int, int], int] = {}
    for m, h, sim in found:
        if m.latin and cased is not None and not all(_capitalized(cased[k]) for k in range(m.start, m.end)):
            continue
        if m.latin and any(m.start <= k < m.end for k in grammatical):
            continue
        if (not m.fuzzy or (m.phonetic and sim >= CLOSE_SOUND)) and m.end - m.start >= 2:
            out[(m.start, m.end)] = max(out.get((m.start, m.end), 0), degrees.get(h.qid, 0))
    return out


def best_combinations(choices: Sequence[Sequence[tuple[str, float]]], limit: int
                      ) -> list[tuple[tuple[tuple[str, float], ...], float]]:
    """The ``limit`` combinations of one choice per position with the highest product of
    similarities, best first (ties: the earlier choices), each with that product: the
    Russian « Объединенных Арабских Эмиратов », each word an inflection of the name's
    (0.9 each), is among the first, where the first combinations in order would vary only
    the last words.  Found best first over the choices sorted by similarity."""
    ranked = [sorted(range(len(c)), key=lambda k, c=c: -c[k][1]) for c in choices]
    if not ranked or any(not r for r in ranked):
        return []

    def entry(index: tuple[int, ...]) -> tuple[float, tuple[int, ...], tuple[tuple[str, float], ...]]:
        combo = tuple(choices[p][ranked[p][k]] for p, k in enumerate(index))
        return -math.prod(q for _, q in combo), index, combo  # the index breaks ties: combos are never compared

    start = (0,) * len(choices)
    heap = [entry(start)]
    seen = {start}
    out = []
    while heap and len(out) < limit:
        negative, index, combo = heapq.heappop(heap)
        out.append((combo, -negative))
        for p in range(len(index)):
            if index[p] + 1 < len(ranked[p]):
                nxt = (*index[:p], index[p] + 1, *index[p + 1:])
                if nxt not in seen:
                    seen.add(nxt)
                    heapq.heappush(heap, entry(nxt))
    return out
