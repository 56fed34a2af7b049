"""Belarusian cue words: frequent in short questions and rare in the other Cyrillic-script languages,
so each one found is evidence for Belarusian when the question's language is detected (:mod:`qa.reading.detect`)."""

CUE_WORDS: frozenset[str] = frozenset({
    "хто", "што", "дзе", "калі", "які", "якая", "якое", "якія", "колькі", "чаму", "як", "ці", "гэта", "быў", "была",
    "было", "былі", "нарадзіўся", "нарадзілася", "памёр", "горад", "сталіца", "краіна", "мова", "жыхароў",
})

CUE_LETTERS = "ў"
"""Letters that mark the language among the others of its script (:mod:`qa.reading.detect`)."""

CUE_SPELLING = r"дз|цц|шч|ць\b|\bу\b.*ы|э.*ы|ы.*э"
"""Spellings that mark it: dzekanne (« дз »), geminate « цц », « шч » for « щ », « ць », and « ы »
beside « у » or « э »."""
