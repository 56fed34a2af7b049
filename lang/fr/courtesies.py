"""French courtesies around a question in a chat (:func:`qa.reading.detect.strip_courtesies`)."""

from lang.base import Courtesies, request_questions

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

REQUEST_QUESTIONS = request_questions(
    ("donne-moi", "donnez-moi", "cite", "citez", "cite-moi", "citez-moi", "liste", "listez", "énumère", "énumérez",
     "nomme", "nommez", "montre-moi", "montrez-moi", "indique-moi", "indiquez-moi"),
    {"tous les": "Quels sont les {} ?", "toutes les": "Quelles sont les {} ?", "les": "Quels sont les {} ?",
     "le": "Quel est le {} ?", "la": "Quelle est la {} ?"},
    bare=("tous les", "toutes les"),
)
"""A request for answers and the question it stands for (:attr:`lang.base.Language.request_questions`)."""
