"""Dutch cue words: frequent in short questions and rare in the other Latin-script languages,
so each one found is evidence for Dutch when the question's language is detected (:mod:`qa.reading.detect`)."""

CUE_WORDS: frozenset[str] = frozenset({
    "wie", "wat", "welke", "welk", "waar", "wanneer", "hoe", "hoeveel", "waarom", "het", "een", "van", "is", "zijn",
    "werd", "was", "er", "heeft", "hebben", "ligt", "woont", "stierf", "geboren", "hoofdstad", "stad", "land", "taal",
    "talen", "inwoners",
})

CUE_LETTERS = "ĳ"
"""Letters that mark the language among the others of its script (:mod:`qa.reading.detect`)."""
