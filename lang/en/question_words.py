"""English question words and the kind of answer each asks for (``which``: one thing of the
class noun that follows, when that noun is singular)."""

QUESTION_WORDS: dict[str, str] = {
    'which': 'which',
    'what': 'which',
    'who': 'person',
    'whom': 'person',
    'where': 'place',
    'when': 'date',
    'how many': 'count',
}
