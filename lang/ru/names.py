"""Russian names: where a name comes from when the KG has none in Russian."""

LABEL_FALLBACKS: tuple[str, ...] = ("ru", "uk", "en")
"""The languages whose label or alias names a thing, in order (this one first): the
closest languages, then English (:data:`qa.label.LABEL_FALLBACKS`)."""
