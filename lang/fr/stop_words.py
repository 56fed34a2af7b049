"""French function words: the ``stopwords-iso`` list with the words the product always read as
function or question words of French (see :mod:`lang.stopwords`)."""

from lang.stopwords import stop_words

OWN = """
    le la les l un une des du de d et ou ne pas est sont était étaient été a ont avait qui que qu
    quoi quel quelle quels quelles où quand comment combien pourquoi il elle ils elles ce cette ces
    son sa ses leur leurs dans en sur au aux par pour avec y se s c t on est-ce à
    tous toutes
"""
"""Function and question words this product reads in French, beyond the maintained list."""

STOP_WORDS: frozenset[str] = stop_words("fr", OWN)
