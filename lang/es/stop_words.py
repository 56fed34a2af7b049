"""Spanish function words: the ``stopwords-iso`` list with the words the product always read as
function or question words of Spanish (see :mod:`lang.stopwords`)."""

from lang.stopwords import stop_words

OWN = """
    el la los las lo un una unos unas de del y o no es son era eran fue fueron ha han había que qué
    quién quiénes quien cuál cuáles cual donde dónde cuándo cuando cómo como cuánto cuántos cuántas
    por para con en al a se su sus este esta estos estas hay está
    todos todas dame
"""
"""Function and question words this product reads in Spanish, beyond the maintained list."""

STOP_WORDS: frozenset[str] = stop_words("es", OWN)
