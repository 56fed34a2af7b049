"""Spanish question words and the kind of answer each asks for (``which``: one thing of the
class noun that follows, when that noun is singular)."""

QUESTION_WORDS: dict[str, str] = {
    'qué': 'which',
    'cuál': 'which',
    'quién': 'person',
    'dónde': 'place',
    'cuándo': 'date',
    'cuántos': 'count',
    'cuántas': 'count',
}
