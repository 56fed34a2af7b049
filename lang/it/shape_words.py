"""Italian words that mark a question's shape: counts, superlatives, comparisons, ordinals,
yes/no questions, and the words of the literal properties (read by :mod:`qa.reading.analysis`;
see :class:`lang.base.ShapeWords`)."""

from lang.base import ShapeWords

SHAPE_WORDS = ShapeWords(
    count=("quanti", "quante"),
    superlative=("il più", "la più", "i più", "le più", "il meno", "la meno", "il maggiore", "la maggiore"),
    ordinal=("primo", "prima", "primi", "prime", "ultim*", "second*", "terz*", "quart*"),
    wh=("chi", "che", "cosa", "qual*", "dove", "quando", "come", "quant*", "perché"),
    alternative=("o", "oppure"),
    lists=("o", "oppure", "e"),
    than=("di", "che"),
    amount=("numero", "quantità"),
    yes_no_openers=('è', 'era', 'fu', 'ha', 'aveva', 'sono', 'erano', 'hanno', "c'è", 'ci sono', 'esiste', 'può',
        'è vero che'),
    more=("più", "maggior*"),
    less=("meno", "minor*"),
    ordinal_form=r"\b(?:\w+esim|quint|sest|settim|ottav|decim)[oaie]\b",
    gradables={
        "older": ("più vecchi*", "più anzian*"),
        "younger": ("più giovan*",),
        "taller": ("più alt*",),
        "bigger": ("più grand*",),
        "smaller": ("più piccol*",),
        "earlier": ("prima", "primo"),
        "later": ("ultim*",),
    },
    literal_properties={
        "P569": ("nato", "nata", "nati", "nascita"),
        "P570": ("morto", "morta", "morte"),
        "P571": ("fondat*", "fondazione"),
        "P580": ("inizi*",),
        "P582": ("fine", "termin*"),
        "P1082": ("popolazione", "abitanti", "popolos*"),
        "P2046": ("superficie", "area"),
        "P2048": ("altezza", "statura"),
        "P2067": ("peso", "pesa"),
        "P2131": ("pil",),
        "P2132": ("pro capite",),
        "P2250": ("aspettativa di vita",),
    },
    listing=('quali', 'quale', 'che', 'elenca', 'dammi', 'dimmi'),
    both=('entrambi', 'entrambe', 'insieme', 'in comune', 'tutti e due'),
    alive=('ancora vivo', 'ancora viva', 'è vivo', 'vivo', 'viva', 'in vita'),
    negation=('non', 'senza', 'tranne'),
)
