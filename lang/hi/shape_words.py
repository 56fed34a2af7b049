"""Hindi words that mark a question's shape: counts, superlatives, comparisons, ordinals,
yes/no questions, and the words of the literal properties (read by :mod:`qa.reading.analysis`;
see :class:`lang.base.ShapeWords`)."""

from lang.base import ShapeWords

SHAPE_WORDS = ShapeWords(
    count=("कितने", "कितनी", "कितना"),
    superlative=("सबसे",),
    ordinal=("पहल*", "आखिरी", "अंतिम", "दूसर*", "तीसर*"),
    alternative=("या",),
    amount=("संख्या",),
    more=("ज़्यादा", "ज्यादा", "अधिक", "बड़ा", "लंबे", "लम्बे"),
    less=("कम", "छोटा"),
)
