"""Arabic function words: the ``stopwords-iso`` list with the words the product always read as
function or question words of Arabic (see :mod:`lang.stopwords`)."""

from lang.stopwords import stop_words

OWN = """
    ما ماذا من هو هي في على إلى الى عن مع متى أين اين كيف كم لماذا هل التي الذي الذين كان كانت هذا
    هذه ذلك تلك أي اي أو او و ثم قد لم لن ليس بين عند كل بعض
"""
"""Function and question words this product reads in Arabic, beyond the maintained list."""

STOP_WORDS: frozenset[str] = stop_words("ar", OWN)
