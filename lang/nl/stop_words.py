"""Dutch function words: the ``stopwords-iso`` list with the words the product always read as
function or question words of Dutch (see :mod:`lang.stopwords`)."""

from lang.stopwords import stop_words

OWN = """
    de het een en of niet geen is zijn was waren werd werden wordt worden heeft hebben had hadden
    in op aan uit bij met naar voor over onder tot te wie wat welke welk waar wanneer hoe
    hoeveel veel waarom er ze hij zij haar die dat deze dit alle
"""
"""Function and question words this product reads in Dutch, beyond the maintained list.  These
are function words of every language to the linker, so not « van », which names carry (Van
Halen, Van Gogh), nor « men », « door », « hun », which are English words too."""

STOP_WORDS: frozenset[str] = stop_words("nl", OWN)
