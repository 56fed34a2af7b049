"""English cue words: frequent in short questions and rare in the other Latin-script languages,
so each one found is evidence for English when the question's language is detected (:mod:`qa.reading.detect`)."""

CUE_WORDS: frozenset[str] = frozenset({
    "who", "what", "which", "where", "when", "how", "why", "whom", "whose", "the", "is", "was", "were", "are", "did",
    "does", "do", "has", "have", "of", "by", "with", "from", "into", "name", "many", "much", "born", "died", "die",
    "film", "movie", "city", "country", "and", "an", "that", "this", "year", "people",
})
