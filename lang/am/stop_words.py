"""Amharic function words: ``stopwords-iso`` has no Amharic list (nor Snowball), so these are
the closed classes the product reads as function or question words of Amharic: conjunctions,
prepositions and postpositions, particles, pronouns, the copula and the question words (see
:mod:`lang.stopwords`)."""

from lang.stopwords import stop_words

OWN = """
    ና እና ወይም ግን ነው ናቸው ነበር ነበሩ ናት ነች ነበረች ምን ማን የት መቼ እንዴት ስንት ለምን የትኛው የትኛዋ የትኞቹ
    ውስጥ ላይ ጋር ስለ እስከ ይህ ያ ይሄ እነዚህ እነዚያ እሱ እሷ እነሱ እኔ አንተ አንቺ እኛ እናንተ አለ አሉ አላት አለው
    ነገር ምንድን ምንድነው ማነው የትነው
"""
"""Function and question words of Amharic; no maintained list covers the language."""

STOP_WORDS: frozenset[str] = stop_words("am", OWN)
