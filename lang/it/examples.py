"""Italian questions the product answers, shown under the question box (``tests/chat/test_examples.py``
asks each through the real pipeline and checks the answer's Wikidata ids)."""

from lang.base import Example

SWISS_LANGUAGES = ("Q188", "Q652", "Q150")  # German, Italian, French

EXAMPLES: tuple[Example, ...] = (
    Example.of('Dove è nato Albert Einstein?', "Q3012"),
    Example.of('Quali sono le lingue ufficiali della Svizzera?', *SWISS_LANGUAGES),
    Example.of("Qual è la capitale dell'Italia?", "Q220"),
    Example.of('Dove è nato Paolo Veronese?', "Q2028"),
)
