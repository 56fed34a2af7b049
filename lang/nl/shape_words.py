"""Dutch words that mark a question's shape: counts, superlatives, yes/no questions, lists,
"both", "still alive" and exclusions (read by :mod:`qa.reading.analysis`; see
:class:`lang.base.ShapeWords`; kinds left empty fall back to English)."""

from lang.base import ShapeWords

SHAPE_WORDS = ShapeWords(
    count=("hoeveel",),
    superlative=("grootste", "kleinste", "oudste", "jongste", "langste", "hoogste", "laagste", "meeste", "minste",
        "rijkste", "dichtstbevolkte"),
    wh=("wie", "wat", "welke", "welk", "waar", "wanneer", "waarom", "hoe", "hoeveel"),
    lists=("of", "en"),
    alternative=("of",),
    yes_no_openers=("is", "was", "zijn", "waren", "heeft", "had", "hebben", "leeft", "speelt", "kan"),
    more=("meer", "meeste", "grootste", "hoogste", "groter", "hoger"),
    less=("minder", "minste", "kleinste", "laagste", "kleiner", "lager"),
    listing=('welke', 'welk', 'noem', 'geef', 'lijst'),
    both=('beide', 'allebei', 'samen', 'gemeenschappelijk'),
    both_and=(("zowel", "als"),),
    alive=('nog in leven', 'in leven', 'leeft nog', 'nog levend', 'levend'),
    dead=('dood', 'overleden'),
    negation=('niet', 'geen', 'zonder', 'behalve'),
    contrast=('maar',),
    relative=('waar', 'waarvan', 'wiens'),
)
