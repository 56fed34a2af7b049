"""Russian cue words: frequent in short questions and rare in the other Cyrillic-script languages,
so each one found is evidence for Russian when the question's language is detected (:mod:`qa.reading.detect`)."""

CUE_WORDS: frozenset[str] = frozenset({
    "кто", "что", "где", "когда", "какой", "какая", "какое", "какие", "каком", "какую", "каких", "кем", "чем", "чей",
    "чья", "кому", "который", "которая", "сколько", "почему", "как", "ли", "это", "был", "была", "было", "были",
    "родился", "родилась", "город", "столица", "страна",
})

CUE_LETTERS = "ыэъё"
"""Letters that mark the language among the others of its script (:mod:`qa.reading.detect`)."""
