"""Portuguese cue words: frequent in short questions and rare in the other Latin-script languages,
so each one found is evidence for Portuguese when the question's language is detected (:mod:`qa.reading.detect`)."""

CUE_WORDS: frozenset[str] = frozenset({
    "quem", "qual", "quais", "quanto", "quantos", "quantas", "onde", "quando", "como", "porque", "o", "os", "as",
    "do", "da", "dos", "das", "no", "na", "nos", "nas", "é", "foi", "são", "tem", "um", "uma", "em", "com", "para",
    "não", "nasceu", "morreu", "cidade", "país", "ao", "pelo", "pela",
})

CUE_LETTERS = "ãõçêôâáíóú"
"""Letters that mark the language among the others of its script (:mod:`qa.reading.detect`)."""
