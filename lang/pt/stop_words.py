"""Portuguese function words: the ``stopwords-iso`` list with the words the product always read as
function or question words of Portuguese (see :mod:`lang.stopwords`)."""

from lang.stopwords import stop_words

OWN = """
    o a os as um uma uns umas de do da dos das e ou não é são era eram foi foram tem têm que quem
    qual quais onde quando como quanto quantos quantas por para com em no na nos nas ao às se seu
    sua d está
    todos todas
"""
"""Function and question words this product reads in Portuguese, beyond the maintained list."""

STOP_WORDS: frozenset[str] = stop_words("pt", OWN)
