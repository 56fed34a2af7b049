"""Portuguese courtesies around a question in a chat (:func:`qa.reading.detect.strip_courtesies`)."""

from lang.base import Courtesies, request_questions

COURTESIES = Courtesies(
    greetings=("olá", "oi", "bom dia"),
    requests=(
        "por favor", "você sabe", "pode me dizer", "me diga", "diga-me", "quero saber", "gostaria de saber",
        "dê-me", "me dê", "diz-me", "me diz", "me conta", "conte-me",
    ),
    please=("por favor",),
    thanks=("obrigado", "obrigada"),
)

REQUEST_QUESTIONS = request_questions(
    ("me dê", "dê-me", "me diga", "diga-me", "liste", "lista", "mostre-me", "me mostre", "cite", "nomeie", "enumere"),
    {"todos os": "Quais são os {}?", "todas as": "Quais são as {}?", "os": "Quais são os {}?",
     "as": "Quais são as {}?", "o": "Qual é o {}?", "a": "Qual é a {}?"},
    bare=("todos os", "todas as"),
)
"""A request for answers and the question it stands for (:attr:`lang.base.Language.request_questions`)."""
