"""Spanish questions the product answers, shown under the question box (``tests/chat/test_examples.py``
asks each through the real pipeline and checks the answer's Wikidata ids)."""

from lang.base import Example

EXAMPLES: tuple[Example, ...] = (
    Example.of('¿Cuál es la capital de Italia?', "Q220"),
    Example.of('¿Dónde nació Albert Einstein?', "Q3012"),
    Example.of('¿Dónde nació Mozart?', "Q34713"),
    Example.of('¿Dónde nació Karl Marx?', "Q3138"),
)
