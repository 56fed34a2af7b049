"""Japanese function words: the ``stopwords-iso`` list with the words the product always read as
function or question words of Japanese (see :mod:`lang.stopwords`)."""

from lang.stopwords import stop_words

OWN = """
    の は が を に で と も へ や か な 誰 何 ど こ い つ で す か ま す し た
    っ て だ け ね よ
"""
"""Function and question words this product reads in Japanese, beyond the maintained list."""

STOP_WORDS: frozenset[str] = stop_words("ja", OWN)
