"""Russian inflectional endings: stripped from a word of a property phrase before it is
matched as a prefix (:mod:`qa.reading.lexicon`), so "{stem}…" finds the word's other forms."""

INFLECTION_ENDING = r"(?:[аеёиоуыэюяйь]{1,2})$"
"""A regular expression for the ending a word may lose (at most 2 letters, anchored at its end)."""

NAME_ENDING = 3
"""The longest case ending of a noun or adjective (« -ого », « -ами », « -ией »): a word whose
Snowball stem is shorter by more (« родился », « род ») is a verb form, not an inflected name."""
