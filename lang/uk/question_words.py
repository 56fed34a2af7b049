"""Ukrainian question words and the kind of answer each asks for (``which``: one thing of the
class noun that follows, when that noun is singular)."""

QUESTION_WORDS: dict[str, str] = {
    'який': 'which',
    'яка': 'which',
    'яке': 'which',
    'яку': 'which',
    'хто': 'person',
    'де': 'place',
    'коли': 'date',
    'скільки': 'count',
}
