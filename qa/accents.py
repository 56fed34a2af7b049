"""Reading a question typed without its accents: « y donde murio » is read « y dónde murió ».

People type fast, on keyboards without the letters of their language; the stages after
detection (the backend's phrase matching, the validator, which was trained on written
questions) read accented words.  :func:`restore_accents` puts back the accents of the words
the language's own word lists know (:mod:`lang`: question words, stop words, cue words,
pronouns, and the language's part of the property lexicon, ``lang/<code>/lexicon.json``), by one rule:

* a word that the lists know only with accents gets them (« murio » -> « murió »: the lists
  have « murió » and no « murio »);
* a word the lists know both ways (« donde » / « dónde », « ou » / « où ») gets the accented
  form only as the question word that opens the question, after an opener such as « y »,
  « et », « e » at most (« y donde murio » -> « y dónde murió »; « Chile o Ecuador » and
  « la ville où » are left alone);
* a word the lists know both ways also gets the accented form when, with the word before it
  (as read), it makes two words of a property phrase of the lexicon that the bare form does
  not (« ou est ne einstein » -> « où est né einstein »: « est né » is a phrase, and « ne »
  there is no negation);
* a word that only the property lexicon knows with accents (« marié ») gets them only after a
  function word (« est marie » -> « est marié ») or as part of a phrase pair; elsewhere it is
  likely a name (« ou est nee marie curie »: Marie Curie);
* a letter typed as a keyboard without it types it (German « ö » as "oe", « ß » as "ss":
  ``lang/<code>/typed_letters.py``) is put back in a word the lists know with it
  (« gehoert » -> « gehört », « fliesst » -> « fließt »), wherever the word stands: no name
  is typed "gehoert";
* a word with accents of its own, or one the lists do not know, is left as typed.

Only languages written in Latin letters are read so (Russian « е » for « ё » is matched by
:func:`core.text.fold_yo` instead).
"""

from __future__ import annotations

import re
from functools import cache

from core.errors import LexiconError
from core.text import fold_typed
from lang import SUPPORTED
from lang import get as language
from qa.reading.lexicon import language_lexicon

_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
OPENING_WORDS = 2
"""A question word is read with its accents among the question's first words (an opener first)."""


@cache
def _vocabulary(lang: str) -> tuple[dict[str, str], frozenset[str]]:
    """``({bare form: the one accented form}, bare words the lists know as written)`` for ``lang``;
    a bare form with two accented forms (« esta » / « está » / « ésta ») maps to none."""
    words = _listed_words(lang)
    try:
        own = language_lexicon(lang)
    except LexiconError:
        own = {}
    for phrases in own.get("phrases", {}).values():
        words.update(phrases)
    words.update(own.get("question_words", {}))
    tokens = {token for phrase in words for token in _WORD.findall(phrase.lower())}
    plain = frozenset(t for t in tokens if fold_typed(t) == t)
    accented: dict[str, set[str]] = {}
    for token in tokens - plain:
        accented.setdefault(fold_typed(token), set()).add(token)
    for token in tokens:  # « fließt » has no accent to fold, but is typed "fliesst"
        if (typed := _typed_spelling(token, lang)) != token and typed not in tokens:
            accented.setdefault(typed, set()).add(token)
    return {bare: next(iter(forms)) for bare, forms in accented.items() if len(forms) == 1}, plain


def _typed_spelling(word: str, lang: str) -> str:
    """``word`` as typed without the letters a keyboard may lack (:attr:`lang.base.Language.typed_letters`:
    German « gehört » as "gehoert"); as it is in a language without such spellings."""
    letters = language(lang).typed_letters
    return "".join(letters.get(ch, ch) for ch in word) if letters else word


@cache
def _typed_forms(lang: str) -> frozenset[str]:
    """The spellings :func:`_typed_spelling` gives the accented words of ``lang``'s lists."""
    return frozenset(typed for form in _vocabulary(lang)[0].values() if (typed := _typed_spelling(form, lang)) != form)


def _listed_words(lang: str) -> set[str]:
    """The phrases of ``lang``'s function, cue and question word lists and its pronouns."""
    spec = language(lang)
    pronouns = spec.pronouns
    words: set[str] = set()
    for listed in (spec.stop_words, spec.cue_words, spec.question_words, pronouns.person, pronouns.thing,
                   pronouns.place, pronouns.possessive, pronouns.of_pronouns, pronouns.openers,
                   pronouns.second_starts):
        words.update(listed)
    return words


@cache
def _listed(lang: str) -> frozenset[str]:
    """The accented words of ``lang``'s function, cue and question word lists and pronouns (the
    others :func:`_vocabulary` knows come from the property lexicon alone)."""
    return frozenset(t for phrase in _listed_words(lang) for t in _WORD.findall(phrase.lower()) if fold_typed(t) != t)


@cache
def _question_words(lang: str) -> frozenset[str]:
    spec = language(lang)
    return frozenset(w for phrase in spec.question_words for w in _WORD.findall(phrase.lower())) | frozenset(
        w for w in spec.pronouns.second_starts)


def restore_accents(text: str, lang: str | None) -> str:
    """``text`` with the accents its words lack put back (the module's rule); as typed for a
    language not written in Latin letters, or when nothing is missing."""
    if lang not in SUPPORTED or not language(lang).name_letters or not language(lang).stop_words:
        return text
    if not all(ord(ch) < 0x250 for ch in text if ch.isalpha()):
        return text  # not (only) Latin letters
    accented, plain = _vocabulary(lang)
    asked = _question_words(lang)
    openers = frozenset(language(lang).pronouns.openers)
    pairs = _phrase_pairs(lang)
    listed = _listed(lang)
    function = language(lang).stop_words
    out: list[str] = []
    last = 0
    before = ""  # the word before, as read
    for position, match in enumerate(_WORD.finditer(text)):
        word = match.group(0)
        lower = word.lower()
        form = accented.get(lower) if fold_typed(lower) == lower else None
        opening = position < OPENING_WORDS and (position == 0 or _first_word(text, openers))
        paired = form is not None and (before, form) in pairs and (before, lower) not in pairs
        read = lower
        lexical = (form is not None and form not in listed and not paired and before not in function
                   and lower not in _typed_forms(lang))  # "gehoert" is no name: only « gehört » is typed so
        if lexical:  # a word of the lexicon alone, not after a function word: « marie curie » is a name
            form = None
        if form is not None and (lower not in plain or (opening and form in asked) or paired):
            out.append(text[last:match.start()])
            out.append(form if word.islower() else form[:1].upper() + form[1:])
            last = match.end()
            read = form
        before = read
    return "".join(out) + text[last:] if out else text


@cache
def _phrase_pairs(lang: str) -> frozenset[tuple[str, str]]:
    """Two words in a row of a property phrase of ``lang``'s lexicon (« est », « né »)."""
    try:
        own = language_lexicon(lang)
    except LexiconError:
        return frozenset()
    pairs: set[tuple[str, str]] = set()
    for phrases in own.get("phrases", {}).values():
        for phrase in phrases:
            words = _WORD.findall(phrase.lower())
            pairs.update(zip(words, words[1:], strict=False))
    return frozenset(pairs)


def _first_word(text: str, openers: frozenset[str]) -> bool:
    """Whether the question's first word is an opener (« y », « et »): its second word may then
    be the question word."""
    first = _WORD.search(text)
    return first is not None and first.group(0).lower() in openers
