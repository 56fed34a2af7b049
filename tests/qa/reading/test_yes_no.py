"""One reading of a yes/no question: the analysis and the lexicon agree (both read the
language's own openers and marks, ``lang/<code>/shape_words.py``)."""

from __future__ import annotations

import pytest

from core.text import normalize_cue_text
from qa.reading.analysis import analyze
from qa.reading.lexicon import default_lexicon

QUESTIONS = [
    ("Gehört Bayern zu Deutschland?", "de", True),
    ("Kann man in Berlin wohnen?", "de", True),
    ("Wer hat Faust geschrieben?", "de", False),
    ("Is Berlin the capital of Germany?", "en", True),
    ("Will the Eiffel Tower be in Paris?", "en", True),
    ("Who directed Titanic?", "en", False),
    ("Является ли Москва столицей России?", "ru", True),
    ("Кто написал «Войну и мир»?", "ru", False),
    ("Чи є Київ столицею України?", "uk", True),
    ("Хто написав «Кобзар»?", "uk", False),
    ("Est-ce que Paris est la capitale de la France ?", "fr", True),
    ("Qui a écrit Les Misérables ?", "fr", False),
    ("¿Hay un río en Madrid?", "es", True),
    ("¿Quién escribió Don Quijote?", "es", False),
    ("¿Nació Tim Burton en Burbank?", "es", True),  # opened by its verb
    ("nacio tim burton en burbank?", "es", True),
    ("¿Dónde nació Tim Burton?", "es", False),
    ("Nasceu Tim Burton em Burbank?", "pt", True),
    ("Onde nasceu Tim Burton?", "pt", False),
    ("Nacque Verdi a Busseto?", "it", True),
    ("¿Rainer Maria Rilke nació en Viena?", "es", True),  # a statement asked with its question mark
    ("kareem abdul jabbar nacio en los angeles?", "es", True),
    ("cuantos hijos tiene obama?", "es", False),  # a question word typed without its accent
    ("capital de francia?", "es", False),  # no verb: a noun asked for
    ("Tim Burton nacio en Burbank", "es", False),  # no question mark
    ("Verdi è nato a Busseto?", "it", True),
    ("C'è un fiume a Roma?", "it", True),
    ("Pode um gato nadar?", "pt", True),
    ("北京是中国的首都吗？", "zh", True),
    ("谁写了红楼梦？", "zh", False),
    ("東京は日本の首都ですか？", "ja", True),
    ("誰が源氏物語を書きましたか？", "ja", False),
]


@pytest.mark.parametrize(("question", "lang", "expected"), QUESTIONS)
def test_analysis_and_lexicon_read_yes_no_alike(question: str, lang: str, expected: bool) -> None:
    from_analysis = analyze(normalize_cue_text(question), lang).yes_no
    from_lexicon = default_lexicon().is_yes_no(question, lang)
    assert from_analysis == from_lexicon == expected
