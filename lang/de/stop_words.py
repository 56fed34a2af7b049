"""German function words: the ``stopwords-iso`` list with the words the product always read as
function or question words of German (see :mod:`lang.stopwords`)."""

from lang.stopwords import stop_words

OWN = """
    der die das den dem des ein eine einer eines einem einen und oder nicht ist sind war waren wurde
    wurden werden wird hat haben hatte hatten von vom zu zum zur im in am an auf aus bei mit nach
    für über unter wer wen wem wessen was welche welcher welches welchen wo wann wie viele viel
    warum es sie er ihr ihre sein seine man gibt geben
    alle
"""
"""Function and question words this product reads in German, beyond the maintained list."""

STOP_WORDS: frozenset[str] = stop_words("de", OWN)
