"""Chinese question words and the kind of answer each asks for (``which``: one thing of the
class noun that follows, when that noun is singular)."""

QUESTION_WORDS: dict[str, str] = {
    '哪个': 'which',
    '谁': 'person',
    '哪里': 'place',
    '什么时候': 'date',
    '多少': 'count',
}
