"""French names: where a name comes from when the KG has none in French."""

LABEL_FALLBACKS: tuple[str, ...] = ("fr", "it", "es", "en")
"""The languages whose label or alias names a thing, in order (this one first): the
closest languages, then English (:data:`qa.label.LABEL_FALLBACKS`)."""
