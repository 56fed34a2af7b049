"""Ukrainian function words: the ``stopwords-iso`` list with the words the product always read as
function or question words of Ukrainian (see :mod:`lang.stopwords`)."""

from lang.stopwords import stop_words

OWN = """
    і й та в у на з зі до по про від із за для не це цей ця ці був була було були є хто що який яка
    яке які де коли як скільки чому чий він вона вони його її їх ї об називається називаються
    називали звали звуть
"""
"""Function and question words this product reads in Ukrainian, beyond the maintained list."""

STOP_WORDS: frozenset[str] = stop_words("uk", OWN)
