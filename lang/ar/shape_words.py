"""Arabic words that mark a question's shape: counts, superlatives, comparisons, ordinals,
yes/no questions, and the words of the literal properties (read by :mod:`qa.reading.analysis`;
see :class:`lang.base.ShapeWords`)."""

from lang.base import ShapeWords

SHAPE_WORDS = ShapeWords(
    count=("كم",),
    superlative=("أكبر", "أصغر", "أطول", "أقصر", "أكثر", "أقل", "أقدم", "أحدث", "أعلى"),
    ordinal=("أول", "آخر", "ثاني", "ثالث"),
    alternative=("أو", "أم"),
    amount=("عدد",),
    more=("أكبر", "أطول", "أكثر", "أعلى"),
    less=("أصغر", "أقصر", "أقل"),
)
