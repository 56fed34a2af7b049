"""Spanish cue words: frequent in short questions and rare in the other Latin-script languages,
so each one found is evidence for Spanish when the question's language is detected (:mod:`qa.reading.detect`)."""

CUE_WORDS: frozenset[str] = frozenset({
    "qué", "quién", "quiénes", "cuál", "cuáles", "cuánto", "cuántos", "cuántas", "dónde", "cuándo", "cómo", "por",
    "el", "los", "las", "del", "al", "es", "fue", "ha", "han", "fueron", "y", "un", "una", "en", "con", "para",
    "nació", "murió", "ciudad", "país", "está", "hay",
})

CUE_LETTERS = "ñ¿¡áíóú"
"""Letters that mark the language among the others of its script (:mod:`qa.reading.detect`)."""
