"""Portuguese names: the written variants of the language a name may come from."""

LABEL_FALLBACKS: tuple[str, ...] = ("pt", "pt-br")
"""The language and its written variants, in order (then English, then the KG's own label:
:func:`qa.label.label_chain`)."""
