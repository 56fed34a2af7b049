"""French inflectional endings: stripped from a word of a property phrase before it is
matched as a prefix (:mod:`qa.reading.lexicon`), so "{stem}…" finds the word's other forms."""

INFLECTION_ENDING = r"(?:es|e|s)$"
"""A regular expression for the ending a word may lose (at most 2 letters, anchored at its end)."""


DEMONYM_ENDINGS: tuple[str, ...] = (
    "aises", "aise", "ais", "aines", "aine", "ains", "ain", "iennes", "ienne", "iens", "ien", "oles", "ole",
    "ois", "oise", "oises",
)
"""Endings of a country's adjective (any order: the closest country name wins)
(:attr:`lang.base.Language.demonym_endings`)."""
