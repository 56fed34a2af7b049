"""Italian question words and the kind of answer each asks for (``which``: one thing of the
class noun that follows, when that noun is singular)."""

QUESTION_WORDS: dict[str, str] = {
    'quale': 'which',
    'che': 'which',
    'chi': 'person',
    'dove': 'place',
    'quando': 'date',
    'quanti': 'count',
    'quante': 'count',
}
