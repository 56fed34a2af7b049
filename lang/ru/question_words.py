"""Russian question words and the kind of answer each asks for (``which``: one thing of the
class noun that follows, when that noun is singular)."""

QUESTION_WORDS: dict[str, str] = {
    'какой': 'which',
    'какая': 'which',
    'какое': 'which',
    'какую': 'which',
    'каком': 'which',
    'кто': 'person',
    'где': 'place',
    'когда': 'date',
    'сколько': 'count',
}
