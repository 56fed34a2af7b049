"""Italian cue words: frequent in short questions and rare in the other Latin-script languages,
so each one found is evidence for Italian when the question's language is detected (:mod:`qa.reading.detect`)."""

CUE_WORDS: frozenset[str] = frozenset({
    "chi", "che", "quale", "quali", "quanto", "quanti", "quante", "dove", "quando", "come", "perché", "il", "lo",
    "gli", "della", "dello", "delle", "degli", "dei", "del", "nel", "nella", "di", "è", "era", "sono", "ha", "hanno",
    "stato", "stata", "stati", "un", "una", "con", "per", "nato", "nata", "morto", "città", "paese",
})

CUE_LETTERS = "èìòù"
"""Letters that mark the language among the others of its script (:mod:`qa.reading.detect`)."""

CUE_SPELLING = r"\b(?:dell|all|nell|sull|quest|un)['’]\w"
"""Spellings that mark it: elided articles (« dell'anno », « un'isola »)."""
