"""Portuguese question words and the kind of answer each asks for (``which``: one thing of the
class noun that follows, when that noun is singular)."""

QUESTION_WORDS: dict[str, str] = {
    'qual': 'which',
    'que': 'which',
    'quem': 'person',
    'onde': 'place',
    'quando': 'date',
    'quantos': 'count',
    'quantas': 'count',
}
