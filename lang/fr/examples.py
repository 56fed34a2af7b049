"""French questions the product answers, shown under the question box (``tests/chat/test_examples.py``
asks each through the real pipeline and checks the answer's Wikidata ids)."""

from lang.base import Example

EXAMPLES: tuple[Example, ...] = (
    Example.of("Quelle est la capitale de l'Espagne ?", "Q2807"),
    Example.of('Où est né Albert Einstein ?', "Q3012"),
    Example.of("Quelle est la capitale de l'Italie ?", "Q220"),
    Example.of('Où est né Karl Marx ?', "Q3138"),
)
