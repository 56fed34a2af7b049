"""German question words and the kind of answer each asks for (``which``: one thing of the
class noun that follows, when that noun is singular)."""

QUESTION_WORDS: dict[str, str] = {
    'welcher': 'which',
    'welche': 'which',
    'welches': 'which',
    'welchen': 'which',
    'welchem': 'which',
    'wer': 'person',
    'wo': 'place',
    'wann': 'date',
    'wie viele': 'count',
}
