"""Lithuanian cue words: frequent in short questions and rare in the other Latin-script languages,
so each one found is evidence for Lithuanian when the question's language is detected (:mod:`qa.reading.detect`)."""

CUE_WORDS: frozenset[str] = frozenset({
    "kas", "kur", "kada", "koks", "kokia", "kokie", "kokios", "kiek", "kodėl", "kuris", "kuri", "kurioje", "yra",
    "buvo", "gimė", "mirė", "sostinė", "miestas", "šalis", "kalba", "gyventojų", "parašė",
})

CUE_LETTERS = "ąčęėįšųūž"
"""Letters that mark the language among the others of its script (:mod:`qa.reading.detect`)."""
