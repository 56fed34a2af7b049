"""French cue words: frequent in short questions and rare in the other Latin-script languages,
so each one found is evidence for French when the question's language is detected (:mod:`qa.reading.detect`)."""

CUE_WORDS: frozenset[str] = frozenset({
    "qui", "quel", "quelle", "quels", "quelles", "combien", "où", "quand", "comment", "pourquoi", "lequel",
    "laquelle", "le", "les", "des", "du", "au", "aux", "est", "était", "sont", "ont", "été", "et", "un", "une",
    "dans", "sur", "pour", "avec", "né", "née", "mort", "morte", "ville", "pays", "qu'est", "ce", "c'est", "quoi",
})

CUE_LETTERS = "çêôâèùîïœë"
"""Letters that mark the language among the others of its script (:mod:`qa.reading.detect`)."""

CUE_SPELLING = r"\b(?:qu|l|d|n|c|j|s)['’]\w|\bou (?:est|sont) (?:n[eé]e?s?|morte?s?)\b"
"""Spellings that mark it: elided articles and pronouns (« qu'il », « l'an »), and « où est né »
typed without its accents (« ou est ne einstein »: its other words look German to the detectors)."""
