"""Spanish courtesies around a question in a chat (:func:`qa.reading.detect.strip_courtesies`)."""

from lang.base import Courtesies

COURTESIES = Courtesies(
    greetings=("hola", "buenos días", "buenas"),
    requests=(
        "por favor", "puedes decirme", "me puedes decir", "dime", "quiero saber", "me gustaría saber", "nómbrame",
        "indícame", "dígame", "cuéntame",
    ),
    please=("por favor",),
    thanks=("gracias",),
)
