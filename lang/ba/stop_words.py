"""Bashkir function words: ``stopwords-iso`` has no Bashkir list (nor Snowball), so these are
the closed classes the product reads as function or question words of Bashkir: conjunctions,
prepositions and postpositions, particles, pronouns, the copula and the question words (see
:mod:`lang.stopwords`)."""

from lang.stopwords import stop_words

OWN = """
    һәм менән ҡасан ҡайҙа ҡайһы ҡайһыһы кем кемдең кемгә нимә ни нисек нисә нисәнсе күпме ниңә ниндәй
    был бының шул ул уның уға улар уларҙың мин һин беҙ һеҙ өсөн тиклем һуң аша буйынса түгел юҡ бар ине
    булған булды да дә та тә ла лә ҙа ҙә ғына генә ҡына кенә ме мы мә ма йәки әммә ләкин
"""
"""Function and question words of Bashkir; no maintained list covers the language."""

STOP_WORDS: frozenset[str] = stop_words("ba", OWN)
