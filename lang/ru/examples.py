"""Russian questions the product answers, shown under the question box (``tests/chat/test_examples.py``
asks each through the real pipeline and checks the answer's Wikidata ids)."""

from lang.base import Example

EXAMPLES: tuple[Example, ...] = (
    Example.of('Где родился Альберт Эйнштейн?', "Q3012"),
    Example.of('Какая столица Германии?', "Q64"),
    Example.of('Где родился Моцарт?', "Q34713"),
    Example.of('Где родился Достоевский?', "Q649"),
)
