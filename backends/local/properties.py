"""Property matching for the local generator: every way to say each property (the KG's
labels and aliases in every language, the lexicon's phrases) and how well those phrases
match the words of a question outside a mention.

:class:`PropertyText` indexes the phrases; :func:`rest` gives a question's words outside
some spans as they are matched; :func:`prop_matches` scores every property against them
(cached per span set); :func:`asked_words` marks the words that say what is asked.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import marshal
import os
import pickle
import sys
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from core.text import fold, is_cjk, tokenize
from lang.stopwords import is_stopword, is_stopword_as_written, is_stopword_in
from qa.reading.lexicon import PropertyLexicon

ASKED_WORD_SCORE = 0.85  # a lexicon phrase matched this well (a one-word phrase: exactly) names what is asked
UNION_SCORE = 0.85
"""A property matched this well by two of its phrases reads the words of both (« in welches meer
fliesst die elbe »: « in welches meer » and « fließt », each a phrase of the mouth, P403)."""

@dataclass(frozen=True)
class _Phrase:
    pid: str
    tokens: tuple[str, ...]  # content words (function words dropped)
    full: str  # every word, space-joined: a contiguous occurrence earns a bonus
    cjk: bool
    weight: float
    lang: str
    source: str  # "lex" | "kg"


@dataclass
class PropertyMatch:
    """How well a property's phrases match the words of a question outside a mention."""

    score: float = 0.0
    lexicon: float = 0.0
    kg: float = 0.0
    same_lang: float = 0.0
    chars: int = 0  # question characters the best phrase explains
    words: frozenset[str] = frozenset()  # question words the best phrase matched
    contiguous: float = 0.0


class PropertyText:
    """Every way to say each property: KG labels/aliases (all languages) + lexicon phrases."""

    def __init__(self, kg_labels: dict[str, dict[str, list[str]]], lexicon: PropertyLexicon | None) -> None:
        self.answer_types: dict[str, str] = {}
        words = _lexicon_words(lexicon)
        self.kept = _accented_content_words(words)
        self.content = self._content_words(words)
        phrases: list[_Phrase] = []
        forms: dict[str, str] = {}  # while building: each word's form, and whether it is a function
        stop: dict[tuple[str, str], tuple[bool, bool]] = {}  # per word and language (17k phrases repeat words)
        for pid, langs in kg_labels.items():
            for lang, names in langs.items():
                for i, name in enumerate(names):
                    phrases.extend(self._phrase(pid, name, 0.95 if i == 0 else 0.85, lang, "kg", forms, stop))
        if lexicon is not None:
            for pid in lexicon.properties():
                kind = lexicon.answer_type(pid)
                if kind:
                    self.answer_types[pid] = kind
                for lang, items in lexicon.all_phrases(pid).items():
                    for item in items:
                        phrases.extend(self._phrase(pid, item, 1.0, lang, "lex", forms, stop))
        self.by_token: dict[str, list[_Phrase]] = {}
        self.by_prefix: dict[str, set[str]] = {}
        for ph in phrases:
            for tok in set(ph.tokens):
                self.by_token.setdefault(tok, []).append(ph)
                if not ph.cjk and len(tok) >= 4:
                    self.by_prefix.setdefault(tok[:4], set()).add(tok)

    def form(self, token: str) -> str:
        """A question or phrase word as matched: folded, except a lexicon word that folding
        would turn into a function word (French "né" is not "ne")."""
        return token if token in self.kept else fold(token)

    def is_function(self, form: str, lang: str = "") -> bool:
        """Whether a matched word form (:meth:`form`) is a function or question word in a text
        of ``lang``: a function word of another language stays one unless ``lang``'s lexicon
        phrases use it as a content word (English "die", "son", "war"; German "Kind").  A form
        folded from a function word of ``lang`` is one too (Spanish « cuáles » as "cuales")."""
        return self._is_function_memo(form, lang, self.content.get(lang, ()), {})

    def _is_function_memo(self, form: str, lang: str, own: frozenset[str] | tuple[()],
                          stop: dict[tuple[str, str], tuple[bool, bool]]) -> bool:
        """:meth:`is_function` with ``is_stopword`` and ``is_stopword_in`` remembered in
        ``stop`` (``own``: the language's :attr:`content` words)."""
        if form in self.kept:
            return False
        known = stop.get((form, lang))
        if known is None:
            known = stop[form, lang] = (is_stopword(form), bool(lang) and is_stopword_in(form, lang))
        return (known[0] and form not in own) or known[1]

    def _content_words(self, words: dict[str, set[str]]) -> dict[str, frozenset[str]]:
        """Per language: the word forms its lexicon phrases (``words``, per language) use that
        are function words only in other languages."""
        content = {lang: frozenset(f for f in map(self.form, tokens) if is_stopword(f) and not is_stopword_in(f, lang))
                   for lang, tokens in words.items()}
        return {lang: forms for lang, forms in content.items() if forms}

    def _phrase(self, pid: str, text: str, weight: float, lang: str, source: str, forms: dict[str, str],
                stop: dict[tuple[str, str], tuple[bool, bool]]) -> list[_Phrase]:
        toks = []
        for t in tokenize(text):
            form = forms.get(t)
            if form is None:
                form = forms[t] = self.form(t)
            toks.append(form)
        own = self.content.get(lang, ())
        content = tuple(t for t in toks if not self._is_function_memo(t, lang, own, stop)) or tuple(toks)
        if not content:
            return []
        cjk = all(is_cjk(t) for t in content)
        return [_Phrase(pid, content, "".join(toks) if cjk else " ".join(toks), cjk, weight, lang, source)]

    def match(self, rest: Sequence[str], cjk_text: str, lang: str,
              nouns: Collection[str] = ()) -> dict[str, PropertyMatch]:
        """``{pid: PropertyMatch}`` for the question's words outside a mention (``rest``, folded,
        in order, function words included) and its CJK remainder.  ``nouns``: the forms of the
        question's class nouns, which a property reads only by its best phrases (not by
        :data:`UNION_SCORE`: "what films did patrick swayze star in" is asked of the films he
        starred in, and a cast reading that also read « films » would answer with every work)."""
        sims: dict[str, tuple[float, str]] = {}
        for w in rest:
            if is_cjk(w) or self.is_function(w, lang):
                continue
            if w in self.by_token:
                sims[w] = (1.0, w)
            if len(w) >= 4:
                for tok in self.by_prefix.get(w[:4], ()):
                    s = _stem_sim(w, tok)
                    if s > sims.get(tok, (0.0, ""))[0]:
                        sims[tok] = (s, w)
        for ch in set(cjk_text):
            if ch in self.by_token:
                sims[ch] = (1.0, ch)
        text = " " + " ".join(w for w in rest if not is_cjk(w)) + " "
        out: dict[str, PropertyMatch] = {}
        strong: dict[str, list[tuple[bool, frozenset[str]]]] = {}
        seen: set[int] = set()
        for tok in sims:
            for ph in self.by_token.get(tok, ()):
                if id(ph) in seen:
                    continue
                seen.add(id(ph))
                score, contiguous = self._phrase_score(ph, sims, cjk_text, text)
                if score <= 0:
                    continue
                m = out.setdefault(ph.pid, PropertyMatch())
                read = frozenset() if ph.cjk else frozenset(sims[t][1] for t in ph.tokens if t in sims)
                if score >= UNION_SCORE and not ph.cjk:
                    strong.setdefault(ph.pid, []).append((ph.lang == lang, read))
                if score > m.score or (score == m.score and ph.lang == lang and not m.same_lang):
                    # on a tie the question's own language tells more (German "gedreht" over a
                    # one-word phrase "film" of another language)
                    m.score = score
                    m.same_lang = 1.0 if ph.lang == lang else 0.0
                    m.contiguous = 1.0 if contiguous else 0.0
                    if ph.cjk:
                        m.words = frozenset(t for t in ph.tokens if t in cjk_text)
                        m.chars = len(ph.full) if contiguous else len(m.words)
                    else:
                        m.words = read
                        m.chars = sum(len(w) for w in m.words)
                elif score == m.score and not ph.cjk and (ph.lang == lang) == bool(m.same_lang):
                    # as good a phrase of the same property reads other words of the question:
                    # it reads them too (« qué películas dirigió »: « películas de » and « dirigió »)
                    m.words |= read
                    m.chars = sum(len(w) for w in m.words)
                    m.contiguous = max(m.contiguous, 1.0 if contiguous else 0.0)
                if ph.source == "lex":
                    m.lexicon = max(m.lexicon, score)
                else:
                    m.kg = max(m.kg, score)
        nouns = frozenset(nouns)
        for pid, found in strong.items():  # « in welches meer fliesst »: « in welches meer », « fließt »
            m = out[pid]
            if m.score >= UNION_SCORE and m.words and not all(t and is_cjk(t) for t in m.words):
                m.words = m.words.union(*(words - nouns for same, words in found if same == bool(m.same_lang)))
                m.chars = sum(len(w) for w in m.words)
        return out

    @staticmethod
    def _phrase_score(ph: _Phrase, sims: dict[str, tuple[float, str]], cjk_text: str,
                      text: str) -> tuple[float, bool]:
        if ph.cjk:
            contiguous = ph.full in cjk_text
            if contiguous:
                base = 1.0
            else:
                present = sum(1 for t in ph.tokens if t in cjk_text)
                base = 0.6 * present / len(ph.tokens) if present >= 2 else 0.0
            length = len(ph.tokens)
        else:
            got = [sims[t][0] if t in sims else 0.0 for t in ph.tokens]
            if not any(got):
                return 0.0, False
            base = sum(got) / len(got)
            contiguous = " " in ph.full and f" {ph.full} " in text
            length = len(ph.full.split()) if contiguous else len(ph.tokens)
        specificity = 0.8 + 0.2 * min(1.0, length / 3)
        return ph.weight * base * specificity, contiguous


CACHE_FILE = "properties.pickle"
"""The derived :class:`PropertyText` (:func:`property_text`), beside the other derived files."""
_CACHE_FORMAT = 1
_ROOT = Path(__file__).resolve().parents[2]
_CODE = ("backends/local/properties.py", "core/text.py", "qa/reading/lexicon.py", "lang")
"""The code that decides what :class:`PropertyText` derives (the cache's key covers it)."""


def property_text(kg_labels: dict[str, dict[str, list[str]]], lexicon: PropertyLexicon | None,
                  cache_dir: Path | None = None) -> PropertyText:
    """:class:`PropertyText` of the KG's property labels and the lexicon, kept in
    ``cache_dir/`` :data:`CACHE_FILE` (~0.35 s to derive, ~0.07 s to read back).  The file
    records a digest of its inputs (the labels, the lexicon's phrases and answer types) and of
    the code that derives it; any change derives it again.  A missing, stale or unreadable
    file is derived again (and written when the place allows); ``cache_dir=None``: derived."""
    if cache_dir is None:
        return PropertyText(kg_labels, lexicon)
    path = Path(cache_dir) / CACHE_FILE
    key = _cache_key(kg_labels, lexicon)
    try:
        raw = path.read_bytes()
        enabled = gc.isenabled()
        gc.disable()  # ~100k objects at once: the collector would walk them again and again
        try:
            stored = pickle.loads(raw)
        finally:
            if enabled:  # kgqa ask and the services load with it paused (core.memory.loading): leave it so
                gc.enable()
        if isinstance(stored, list) and len(stored) == 2 and stored[0] == key and isinstance(stored[1], dict):
            props = PropertyText.__new__(PropertyText)
            props.__dict__.update(stored[1])
            return props
    except (OSError, EOFError, ValueError, TypeError, AttributeError, ImportError, IndexError,
            pickle.UnpicklingError):
        pass
    props = PropertyText(kg_labels, lexicon)
    part = path.with_name(f"{path.name}.{os.getpid()}.part")
    try:
        part.write_bytes(pickle.dumps([key, props.__dict__], protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(part, path)
    except OSError:
        with contextlib.suppress(OSError):
            part.unlink()
    return props


def _cache_key(kg_labels: dict[str, dict[str, list[str]]], lexicon: PropertyLexicon | None) -> str:
    """A digest of what :class:`PropertyText` derives from: its inputs and its code."""
    digest = hashlib.sha256()
    lex = None if lexicon is None else [(pid, lexicon.answer_type(pid), lexicon.all_phrases(pid))
                                         for pid in lexicon.properties()]
    digest.update(marshal.dumps([_CACHE_FORMAT, tuple(sys.version_info), kg_labels, lex]))
    for name in _CODE:
        top = _ROOT / name
        files = sorted(p for p in top.rglob("*") if p.is_file() and "__pycache__" not in p.parts) \
            if top.is_dir() else [top]
        for file in files:
            digest.update(str(file.relative_to(_ROOT)).encode())
            digest.update(file.read_bytes())
    return digest.hexdigest()


def _lexicon_words(lexicon: PropertyLexicon | None) -> dict[str, set[str]]:
    """Per language, the words (tokens as written) of the lexicon's phrases."""
    words: dict[str, set[str]] = {}
    if lexicon is not None:
        for pid in lexicon.properties():
            for lang, items in lexicon.all_phrases(pid).items():
                words.setdefault(lang, set()).update(t for item in items for t in tokenize(item))
    return words


def _accented_content_words(words: dict[str, set[str]]) -> frozenset[str]:
    """Lexicon words (``words``, per language) that are content words as written but function
    words once folded (French "né", folded "ne")."""
    return frozenset(t for tokens in words.values() for t in tokens if not is_stopword_as_written(t) and is_stopword(t))


def _stem_sim(a: str, b: str) -> float:
    if a == b:
        return 1.0
    common = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        common += 1
    if common >= 4 and common >= min(len(a), len(b)) - 3:
        return 0.85 if common >= min(len(a), len(b)) - 1 else 0.75
    return 0.0


def rest(props: PropertyText, tokens: Sequence[str], spans: Sequence[tuple[int, int]]) -> tuple[list[str], str]:
    """Folded question words outside ``spans`` (in order) and the CJK characters there."""
    inside = {i for a, b in spans for i in range(a, b)}
    words = [props.form(t) for i, t in enumerate(tokens) if i not in inside]
    cjk = "".join(t for i, t in enumerate(tokens) if i not in inside and is_cjk(t))
    return words, cjk


def prop_matches(props: PropertyText, tokens: Sequence[str], lang: str, spans: Sequence[tuple[int, int]],
                 cache: dict[tuple, dict[str, PropertyMatch]],
                 classes: Sequence[tuple[int, int]] = ()) -> dict[str, PropertyMatch]:
    """``{pid: PropertyMatch}`` for the question's words outside ``spans`` (kept in ``cache``
    by the spans); ``classes``: the spans of the question's class nouns (:meth:`PropertyText.match`)."""
    key = tuple(sorted(spans))
    if key not in cache:
        words, cjk = rest(props, tokens, spans)
        nouns = {props.form(t) for a, b in classes for t in tokens[a:b]}
        cache[key] = props.match(words, cjk, lang, nouns)
    return cache[key]


def asked_words(props: PropertyText, tokens: Sequence[str], cased: Sequence[str] | None, lang: str) -> frozenset[int]:
    """Positions of the question's words that a property-lexicon phrase matches well
    (:data:`ASKED_WORD_SCORE`): they say what is asked, not whom it is about."""
    if cased is None:
        return frozenset()
    matches = props.match(rest(props, tokens, ())[0], "", lang)
    forms = {w for m in matches.values() if m.lexicon >= ASKED_WORD_SCORE and m.lexicon == m.score
             for w in m.words}
    return frozenset(i for i, t in enumerate(tokens) if props.form(t) in forms)
