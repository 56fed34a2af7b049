"""German cue words: frequent in short questions and rare in the other Latin-script languages,
so each one found is evidence for German when the question's language is detected (:mod:`qa.reading.detect`)."""

CUE_WORDS: frozenset[str] = frozenset({
    "wer", "was", "welche", "welcher", "welches", "welchen", "wie", "wo", "wann", "warum", "wieviele", "wieso",
    "woher", "wohin", "der", "die", "das", "des", "dem", "den", "ist", "sind", "war", "waren", "hat", "hatte",
    "haben", "wurde", "wurden", "von", "und", "ein", "eine", "einen", "einem", "einer", "im", "vom", "zum", "zur",
    "nicht", "auf", "für", "mit", "geboren", "gestorben", "stadt", "land", "starb", "heißt", "liegt", "gibt", "hoch",
    "alt", "groß", "lebte", "schrieb", "spielte",
})

CUE_LETTERS = "ßäöü"
"""Letters that mark the language among the others of its script (:mod:`qa.reading.detect`)."""
