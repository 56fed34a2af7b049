"""Spanish inflectional endings: stripped from a word of a property phrase before it is
matched as a prefix (:mod:`qa.reading.lexicon`), so "{stem}…" finds the word's other forms."""

INFLECTION_ENDING = r"(?:es|os|as|[aeo]|s)$"
"""A regular expression for the ending a word may lose (at most 2 letters, anchored at its end)."""


DEMONYM_ENDINGS: tuple[str, ...] = (
    "eses", "esas", "esa", "és", "anos", "anas", "ano", "ana", "inos", "inas", "ino", "ina", "enos", "enas",
    "eno", "ena", "eños", "eñas", "eño", "eña", "oles", "olas", "ola", "ol", "iense", "ienses", "ense",
    "enses", "eras", "eros", "era", "ero",
)
"""Endings of a country's adjective (any order: the closest country name wins)
(:attr:`lang.base.Language.demonym_endings`)."""
