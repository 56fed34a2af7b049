"""Russian courtesies around a question in a chat (:func:`qa.reading.detect.strip_courtesies`)."""

from lang.base import Courtesies

COURTESIES = Courtesies(
    greetings=("привет", "здравствуйте", "добрый день"),
    requests=(
        "пожалуйста", "скажите", "скажи", "подскажите", "подскажи", "ты знаешь", "вы знаете", "я хочу знать",
        "хочу знать", "назовите", "назови", "перечислите", "перечисли", "расскажите", "расскажи",
    ),
    please=("пожалуйста",),
    thanks=("спасибо",),
)
