"""Russian function words: the ``stopwords-iso`` list with the words the product always read as
function or question words of Russian (see :mod:`lang.stopwords`)."""

from lang.stopwords import stop_words

OWN = """
    и в во на с со к ко по о об от до из за у для не ни это этот эта эти то был была было были есть
    является являлась являлся кто что какой какая какое какие каким какую каком где когда как
    сколько почему чей чья чьи ли же он она они его её ее их который которая которое которые
    называется называются называлась называлось назывался называют называли зовут звали
"""
"""Function and question words this product reads in Russian, beyond the maintained list."""

STOP_WORDS: frozenset[str] = stop_words("ru", OWN)
