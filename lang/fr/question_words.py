"""French question words and the kind of answer each asks for (``which``: one thing of the
class noun that follows, when that noun is singular)."""

QUESTION_WORDS: dict[str, str] = {
    'quel': 'which',
    'quelle': 'which',
    'qui': 'person',
    'où': 'place',
    'quand': 'date',
    'combien': 'count',
}
