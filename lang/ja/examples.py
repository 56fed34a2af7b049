"""Japanese questions the product answers, shown under the question box (``tests/chat/test_examples.py``
asks each through the real pipeline and checks the answer's Wikidata ids)."""

from lang.base import Example

SWISS_LANGUAGES = ("Q188", "Q652", "Q150")  # German, Italian, French

EXAMPLES: tuple[Example, ...] = (
    Example.of('スイスの公用語は何ですか？', *SWISS_LANGUAGES),
    Example.of('イタリアの首都はどこですか？', "Q220"),
)
