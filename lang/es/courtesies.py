"""Spanish courtesies around a question in a chat (:func:`qa.reading.detect.strip_courtesies`)."""

from lang.base import Courtesies, request_questions

COURTESIES = Courtesies(
    greetings=("hola", "buenos días", "buenas"),
    requests=(
        "por favor", "puedes decirme", "me puedes decir", "dime", "quiero saber", "me gustaría saber", "nómbrame",
        "indícame", "dígame", "cuéntame",
    ),
    please=("por favor",),
    thanks=("gracias",),
)

REQUEST_QUESTIONS = request_questions(
    ("dame", "dime", "nombra", "nómbrame", "menciona", "lista", "enumera", "muéstrame", "muestra"),
    {"todos los": "¿Cuáles son los {}?", "todas las": "¿Cuáles son las {}?", "los": "¿Cuáles son los {}?",
     "las": "¿Cuáles son las {}?", "el": "¿Cuál es el {}?", "la": "¿Cuál es la {}?"},
    bare=("todos los", "todas las"),
)
"""A request for answers and the question it stands for (:attr:`lang.base.Language.request_questions`)."""
