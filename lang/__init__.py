"""Each supported language in one place.

As spaCy's ``lang/xx/``: ``lang/de/`` holds everything German (its word lists and rules,
one module per kind: ``stop_words.py``, ``examples.py`` …) and builds one
:class:`~lang.base.Language`.  This registry finds the supported languages, its packages
(:data:`SUPPORTED`); the rest of the code asks it (``lang.get("de")``) instead of keeping
its own tables keyed by language codes.  (``lang`` is also everybody's name for a language
code: import names from it, ``from lang import SUPPORTED, get as language``, not the module.)

Adding a language: create ``lang/xx/__init__.py`` defining ``LANGUAGE = Language("xx", …)``
(and its catalog, ``python -m chat.catalogs update``); the registry finds every package of
``lang/`` (and of a ``lang/`` folder on ``sys.path``: :func:`pkgutil.extend_path`), and every
list of languages the code keeps is derived from it.  Language names come from CLDR
(Babel), scripts from the ``regex`` module, stemmers and morphology from Snowball and
pymorphy3: none of that is written here.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from lang.base import Language

__path__ = pkgutil.extend_path(__path__, __name__)  # a lang/ folder on sys.path adds its languages

__all__ = ["MAIN", "SEED", "SUPPORTED", "Language", "get", "is_supported", "supported"]

ORDER: tuple[str, ...] = ("en", "de", "ru", "zh", "fr", "es", "uk", "ja", "it", "pt",
                          "be", "lt", "hy", "ba", "ar", "hi", "bn", "am", "nl")
"""The order the languages are listed in (the language menu, the messages that name them); a
language not named here comes after these, by code."""


def _found() -> tuple[str, ...]:
    codes = {name for _, name, is_package in pkgutil.iter_modules(__path__) if is_package}
    return tuple(sorted(codes, key=lambda code: (ORDER.index(code) if code in ORDER else len(ORDER), code)))


SUPPORTED: tuple[str, ...] = _found()
"""Every language the product reads and speaks (UI text, messages, language selector): each
package of ``lang/``."""


def is_supported(code: str | None) -> bool:
    """Whether ``code`` is one of :data:`SUPPORTED`."""
    return code in SUPPORTED


@cache
def get(code: str) -> Language:
    """The :class:`Language` of ``code``; raises :class:`KeyError` for an unsupported one."""
    if code not in SUPPORTED:
        raise KeyError(code)
    module = importlib.import_module(f"lang.{code}")
    language: Language = module.LANGUAGE
    return language


def supported() -> tuple[Language, ...]:
    """Every supported language, in :data:`SUPPORTED` order."""
    return tuple(get(code) for code in SUPPORTED)


SEED: tuple[str, ...] = tuple(code for code in SUPPORTED if get(code).seed)
"""Languages of the seed challenges (QALD-9-plus, QALD-10 task 2, QALD-3) the KG has few names in."""

MAIN: tuple[str, ...] = tuple(code for code in SUPPORTED if not get(code).seed)
"""The main languages (the widest word lists and the written test questions)."""
