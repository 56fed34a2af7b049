"""Japanese question words and the kind of answer each asks for (``which``: one thing of the
class noun that follows, when that noun is singular)."""

QUESTION_WORDS: dict[str, str] = {
    '誰': 'person',
    'どこ': 'place',
    'いつ': 'date',
    'いくつ': 'count',
}
