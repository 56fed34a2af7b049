"""German questions the product answers, shown under the question box (``tests/chat/test_examples.py``
asks each through the real pipeline and checks the answer's Wikidata ids)."""

from lang.base import Example

SWISS_LANGUAGES = ("Q188", "Q652", "Q150")  # German, Italian, French

EXAMPLES: tuple[Example, ...] = (
    Example.of('Was ist die Hauptstadt von Polen?', "Q270"),
    Example.of('Welche Amtssprache hat die Schweiz?', *SWISS_LANGUAGES),
    Example.of('Wo wurde Goethe geboren?', "Q1794"),
    Example.of('Wo wurde Karl Marx geboren?', "Q3138"),
)
