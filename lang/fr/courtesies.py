"""French courtesies around a question in a chat (:func:`qa.reading.detect.strip_courtesies`)."""

from lang.base import Courtesies

COURTESIES = Courtesies(
    greetings=("bonjour", "salut"),
    requests=(
        "s'il vous plaît", "s'il te plaît", "pouvez-vous me dire", "peux-tu me dire", "dis-moi", "dites-moi",
        "savez-vous", "sais-tu", "je voudrais savoir", "je veux savoir", "donne-moi", "donnez-moi", "indique-moi",
        "indiquez-moi", "cite-moi", "citez-moi",
    ),
    please=("s'il vous plaît", "s'il te plaît"),
    thanks=("merci",),
)
