"""English questions the product answers, shown under the question box (``tests/chat/test_examples.py``
asks each through the real pipeline and checks the answer's Wikidata ids)."""

from lang.base import Example

SWISS_LANGUAGES = ("Q188", "Q652", "Q150")  # German, Italian, French

EXAMPLES: tuple[Example, ...] = (
    Example.of('Where was Albert Einstein born?', "Q3012"),
    Example.of('What is the capital of Germany?', "Q64"),
    Example.of('What is the official language of Switzerland?', *SWISS_LANGUAGES),
    Example.of('Where was Fernando Pessoa born?', "Q597"),
)
