"""German names: where a name comes from when the KG has none in German."""

LABEL_FALLBACKS: tuple[str, ...] = ("de", "en", "fr")
"""The languages whose label or alias names a thing, in order (this one first): the
closest languages, then English (:data:`qa.label.LABEL_FALLBACKS`)."""
