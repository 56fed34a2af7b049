"""Portuguese courtesies around a question in a chat (:func:`qa.reading.detect.strip_courtesies`)."""

from lang.base import Courtesies

COURTESIES = Courtesies(
    greetings=("olá", "oi", "bom dia"),
    requests=(
        "por favor", "você sabe", "pode me dizer", "me diga", "diga-me", "quero saber", "gostaria de saber",
        "dê-me", "me dê", "diz-me", "me diz", "me conta", "conte-me",
    ),
    please=("por favor",),
    thanks=("obrigado", "obrigada"),
)
