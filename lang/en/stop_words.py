"""English function words: the ``stopwords-iso`` list with the words the product always read as
function or question words of English (see :mod:`lang.stopwords`)."""

from lang.stopwords import stop_words

OWN = """
    a an the of in on at to for from by with about as into is are was were be been being am do does
    did done have has had what which who whom whose where when why how many much is it its this that
    these those there their they them he she his her him i you your we our me my and or not no yes
    name tell give list please can could would should will shall may might must s t d ll ve re one
    ones some any all kind type sort
"""
"""Function and question words this product reads in English, beyond the maintained list."""

STOP_WORDS: frozenset[str] = stop_words("en", OWN)
