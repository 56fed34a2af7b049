"""English question words and the kind of answer each asks for (``which``: one thing of the
class noun that follows, when that noun is singular; ``what``: a thing of that class, one or
more)."""

QUESTION_WORDS: dict[str, str] = {
    'which': 'which',
    'what': 'what',
    'who': 'person',
    'whom': 'person',
    'where': 'place',
    'when': 'date',
    'how many': 'count',
}
