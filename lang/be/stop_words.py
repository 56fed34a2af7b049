"""Belarusian function words: ``stopwords-iso`` has no Belarusian list (nor Snowball), so these are
the closed classes the product reads as function or question words of Belarusian: conjunctions,
prepositions and postpositions, particles, pronouns, the copula and the question words (see
:mod:`lang.stopwords`)."""

from lang.stopwords import stop_words

OWN = """
    і й ды а але ці або альбо не ні што хто дзе калі як які якая якое якія якой якім якіх каго каму чаго
    чым чаму колькі адкуль куды чый чыя чыё чые у ў на з са за да ад па пра пры для без над пад перад
    праз паміж каля ля сярод аб то гэта гэты гэтая гэтае гэтыя той тая тое тыя ён яна яно яны я ты мы
    вы яго яе іх ім яму ёй мне мяне сябе свой свая сваё свае быў была было былі ёсць будзе ж жа ну
    вось ужо яшчэ таксама таму так таго як
"""
"""Function and question words of Belarusian; no maintained list covers the language."""

STOP_WORDS: frozenset[str] = stop_words("be", OWN)
