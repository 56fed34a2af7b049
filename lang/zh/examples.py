"""Chinese questions the product answers, shown under the question box (``tests/chat/test_examples.py``
asks each through the real pipeline and checks the answer's Wikidata ids)."""

from lang.base import Example

SWISS_LANGUAGES = ("Q188", "Q652", "Q150")  # German, Italian, French

EXAMPLES: tuple[Example, ...] = (
    Example.of('瑞士的官方语言是什么？', *SWISS_LANGUAGES),
    Example.of('爱因斯坦出生在哪里？', "Q3012"),
)
