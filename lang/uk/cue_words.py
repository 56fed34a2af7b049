"""Ukrainian cue words: frequent in short questions and rare in the other Cyrillic-script languages,
so each one found is evidence for Ukrainian when the question's language is detected (:mod:`qa.reading.detect`)."""

CUE_WORDS: frozenset[str] = frozenset({
    "хто", "що", "коли", "який", "яка", "яке", "які", "якій", "якого", "скільки", "чому", "як", "чи", "та", "це",
    "був", "була", "було", "були", "народився", "народилася", "місто", "столиця", "країна",
})

CUE_LETTERS = "іїєґ"
"""Letters that mark the language among the others of its script (:mod:`qa.reading.detect`)."""
