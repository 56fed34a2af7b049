"""Hindi function words: the ``stopwords-iso`` list with the words the product always read as
function or question words of Hindi (see :mod:`lang.stopwords`)."""

from lang.stopwords import stop_words

OWN = """
    का की के में है हैं था थी थे कौन क्या कहाँ कहां कब कैसे कितने कितना कितनी किस किसने किसे किसको
    ने को से पर और एक यह वह इस उस जो कि भी तो हुआ हुई हुए गया गई किया कर नाम
"""
"""Function and question words this product reads in Hindi, beyond the maintained list; « नाम »
("name") too, as English "name" is one: « … के बेटे का नाम क्या था » asks for the son."""

STOP_WORDS: frozenset[str] = stop_words("hi", OWN)
