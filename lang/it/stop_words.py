"""Italian function words: the ``stopwords-iso`` list with the words the product always read as
function or question words of Italian (see :mod:`lang.stopwords`)."""

from lang.stopwords import stop_words

OWN = """
    il lo la i gli le l d un uno una di a del della dei degli delle e o non è sono era erano fu
    stato stata ha hanno che chi cosa qual quale quali dove quando come quanto quanti quante perché
    in nel nella al alla da dal dalla con su per si suo sua suoi dell nell dall sull dov cos quest
    quell
    tutti tutte
"""
"""Function and question words this product reads in Italian, beyond the maintained list."""

STOP_WORDS: frozenset[str] = stop_words("it", OWN)
