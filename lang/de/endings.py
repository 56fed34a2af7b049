"""German inflectional endings: stripped from a word of a property phrase before it is
matched as a prefix (:mod:`qa.reading.lexicon`), so "{stem}…" finds the word's other forms."""

INFLECTION_ENDING = r"(?:en|er|es|em|e|n|s)$"
"""A regular expression for the ending a word may lose (at most 2 letters, anchored at its end)."""
