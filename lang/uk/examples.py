"""Ukrainian questions the product answers, shown under the question box (``tests/chat/test_examples.py``
asks each through the real pipeline and checks the answer's Wikidata ids)."""

from lang.base import Example

EXAMPLES: tuple[Example, ...] = (
    Example.of('Яка столиця Франції?', "Q90"),
    Example.of('Яка офіційна мова України?', "Q8798"),
    Example.of('Де народився Моцарт?', "Q34713"),
    Example.of('Яка столиця Італії?', "Q220"),
)
