"""Bashkir cue letters: letters none of Russian, Ukrainian and Belarusian has (:mod:`qa.reading.detect`)."""

CUE_LETTERS = "ҡғҙҫһәөүң"
"""Letters that mark the language among the others of its script (:mod:`qa.reading.detect`)."""
