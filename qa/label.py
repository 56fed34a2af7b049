"""Stage 7, label: name answer entities in (or near) the user's language."""

from __future__ import annotations

LABEL_FALLBACKS: dict[str, tuple[str, ...]] = {
    "uk": ("uk", "ru", "en"),
    "ru": ("ru", "uk", "en"),
    "be": ("be", "ru", "uk", "en"),
    "de": ("de", "en", "fr"),
    "es": ("es", "pt", "it", "en"),
    "pt": ("pt", "es", "it", "en"),
    "it": ("it", "es", "fr", "en"),
    "fr": ("fr", "it", "es", "en"),
    "zh": ("zh", "zh-hans", "zh-cn", "ja", "en"),
    "ja": ("ja", "zh", "en"),
}


def pick_label(labels: dict[str, list[str]], lang: str) -> tuple[str | None, str | None]:
    """The best label along ``lang -> related -> en -> any``; returns (label, its lang)."""
    chain = LABEL_FALLBACKS.get(lang, (lang, "en"))
    for code in (*chain, "en"):
        if labels.get(code):
            return labels[code][0], code
    for code in sorted(labels):
        if labels[code]:
            return labels[code][0], code or None
    return None, None
