"""Portuguese words that mark a question's shape: counts, superlatives, comparisons, ordinals,
yes/no questions, and the words of the literal properties (read by :mod:`qa.reading.analysis`;
see :class:`lang.base.ShapeWords`)."""

from lang.base import ShapeWords

SHAPE_WORDS = ShapeWords(
    count=("quantos", "quantas"),
    superlative=("o mais", "a mais", "os mais", "as mais", "o menos", "a menos", "o maior", "a maior", "o menor",
        "a menor"),
    ordinal=("primeir*", "últim*", "segund*", "terceir*", "quart*"),
    wh=("quem", "que", "qual", "quais", "onde", "quando", "como", "quant*", "por que"),
    alternative=("ou",),
    lists=("ou", "e"),
    than=("que", "do que"),
    amount=("número", "numero", "quantidade"),
    yes_no_openers=("é", "foi", "era", "tem", "tinha", "está", "são", "eram", "há", "havia", "existe", "pode",
        "é verdade que"),
    more=("mais", "maior*"),
    less=("menos", "menor*"),
    ordinal_form=r"\b(?:\w+ésim|quint|sext|sétim|oitav|non|décim)[oa]s?\b",
    gradables={
        "older": ("mais velh*",),
        "younger": ("mais nov*", "mais jovem"),
        "taller": ("mais alt*",),
        "bigger": ("maior",),
        "smaller": ("menor",),
        "earlier": ("antes", "primeir*"),
        "later": ("últim*",),
    },
    literal_properties={
        "P569": ("nasceu", "nascid*", "nascimento"),
        "P570": ("morreu", "morte"),
        "P571": ("fundad*", "fundação"),
        "P580": ("começ*", "inici*"),
        "P582": ("fim", "termin*"),
        "P1082": ("população", "habitantes", "populos*"),
        "P2046": ("área", "superfície"),
        "P2048": ("altura", "estatura"),
        "P2067": ("peso", "pesa"),
        "P2131": ("pib",),
        "P2132": ("per capita",),
        "P2250": ("expectativa de vida",),
    },
    listing=('quais', 'qual', 'que', 'liste', 'lista', 'diga', 'me dê'),
    both=('ambos', 'ambas', 'juntos', 'juntas', 'em comum', 'os dois', 'as duas'),
    alive=('ainda vivo', 'ainda viva', 'está vivo', 'está viva', 'vivo', 'viva', 'ainda está vivo'),
    negation=('não', 'nao', 'sem', 'exceto'),
)
