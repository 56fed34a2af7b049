"""A language's morphology: the stems and dictionary forms of its words, by the stemmer and
the lemmatizer its :class:`~lang.base.Language` names (``stemmer``, ``lemmatizer``); the
algorithms themselves are Snowball's and pymorphy3's (:mod:`core.text`)."""

from __future__ import annotations

import os

from core.text import LABEL_SCRIPTS, MIN_STEM, dictionary_forms, fold, is_cjk, script_share, snowball_stem
from lang import get as language
from lang import is_supported
from lang.others import NAME_INFLECTIONS


def _stemmer(lang: str) -> str:
    return language(lang).stemmer if is_supported(lang) else ""


def _lemmatizer(lang: str) -> str:
    return language(lang).lemmatizer if is_supported(lang) else ""


def _name_ending(lang: str) -> int:
    return language(lang).name_ending if is_supported(lang) else 0


def _case_form(word: str, word_stem: str | None, lang: str) -> bool:
    """Whether ``word`` can be a case form of a name with ``word_stem``: its stemmer cut at most
    the language's ``name_ending`` letters (« франции », « франц »; not « родился », « род »)."""
    limit = _name_ending(lang)
    return word_stem is not None and (not limit or len(word) - len(word_stem) <= limit)


def stem(token: str, lang: str) -> str | None:
    """The Snowball stem of a normalized token in ``lang`` ("франции" and "франция" both
    give "франц"), ``None`` without a stemmer for ``lang`` or when the stem is shorter than
    :data:`~core.text.MIN_STEM` letters."""
    return snowball_stem(token, _stemmer(lang))


def lemmas(token: str, lang: str) -> frozenset[str]:
    """The dictionary forms of a normalized token in ``lang`` ("франції" -> {"франція"}), and
    those forms diacritic-folded; empty for a language without a lemmatizer."""
    return dictionary_forms(token, _lemmatizer(lang))


def same_word(written: str, other: str, lang: str) -> bool:
    """Whether ``other`` (a word of the KG's names, maybe diacritic-folded) is the question's
    ``written`` word in another inflection: the same Snowball stem in ``lang``, each word
    longer than it by at most the language's ``name_ending`` (« родился » is not « Роден »,
    though both stem to « род »), or for a lemmatized language a shared dictionary form
    ("франції" and "франція")."""
    if _lemmatizer(lang):
        return bool(lemmas(written, lang) & (lemmas(other, lang) | {other}))
    stems = {s for w in (written, fold(written)) if _case_form(w, s := stem(w, lang), lang)}
    other_stem = stem(other, lang)
    return bool(stems) and other_stem in stems and _case_form(other, other_stem, lang)


def inflection_prefix(written: str, lang: str) -> str | None:
    """The letters that the question's ``written`` word shares with its other inflections in
    ``lang`` (its Snowball stem as written, "новой" -> "нов"; for a lemmatized language the
    start it shares with its dictionary forms), ``None`` when shorter than
    :data:`~core.text.MIN_STEM` or without a stemmer or dictionary for ``lang``."""
    if _lemmatizer(lang):
        forms = lemmas(written, lang)
        prefix = os.path.commonprefix([written, *forms]) if forms else ""
    else:
        prefix = stem(written, lang) or ""
        if not _case_form(written, prefix, lang):
            return None  # a verb form (« родился »): no name's word inflects so
    return prefix if len(prefix) >= MIN_STEM and written.startswith(prefix) else None


def written_script(text: str) -> str:
    """The script most of ``text``'s letters are written in (``latin`` by default; ``cjk``)."""
    if any(is_cjk(ch) for ch in text):
        return "cjk"
    best = max(((script_share(text, s), s) for s in LABEL_SCRIPTS), default=(0.0, "latin"))
    return best[1] if best[0] >= 0.5 else "latin"


def dictionary_candidates(token: str) -> dict[str, float]:
    """The dictionary forms an inflected word may stand for, with a closeness, best first:
    the word with an inflectional ending of its script swapped for a dictionary form's
    (:data:`lang.others.NAME_INFLECTIONS`: "cities" -> "city", "books" -> "book", "berlins"
    -> "berlin", « германии » -> « германия »); a word under four letters has none."""
    if len(token) < 4 or is_cjk(token) or token.isdigit():
        return {}
    forms: dict[str, float] = {}
    for ending, replacements in NAME_INFLECTIONS.get(written_script(token), ()):
        for seen in dict.fromkeys((ending, fold(ending))):  # the linker passes words folded (« й » as « и »)
            base = token[:-len(seen)] if seen else token
            if token.endswith(seen) and len(base) >= 3:
                for i, other in enumerate(replacements):
                    form = base + other
                    if form != token:
                        forms.setdefault(form, round(0.94 - 0.02 * i, 4))
    return dict(sorted(forms.items(), key=lambda kv: (-kv[1], kv[0])))
