"""Portuguese questions the product answers, shown under the question box (``tests/chat/test_examples.py``
asks each through the real pipeline and checks the answer's Wikidata ids)."""

from lang.base import Example

EXAMPLES: tuple[Example, ...] = (
    Example.of('Onde nasceu Fernando Pessoa?', "Q597"),
    Example.of('Onde nasceu Albert Einstein?', "Q3012"),
    Example.of('Qual é a capital da Itália?', "Q220"),
    Example.of('Onde nasceu Jorge Luis Borges?', "Q1486"),
)
