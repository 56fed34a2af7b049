"""Italian courtesies around a question in a chat (:func:`qa.reading.detect.strip_courtesies`)."""

from lang.base import Courtesies, request_questions

COURTESIES = Courtesies(
    greetings=("ciao", "buongiorno"),
    requests=("per favore", "puoi dirmi", "dimmi", "vorrei sapere", "dammi", "mi dica", "mi dici", "indicami"),
    please=("per favore",),
    thanks=("grazie",),
)

REQUEST_QUESTIONS = request_questions(
    ("dammi", "dimmi", "elenca", "elencami", "nomina", "mostrami", "indicami", "citami"),
    {"tutti i": "Quali sono i {}?", "tutte le": "Quali sono le {}?", "tutti gli": "Quali sono gli {}?",
     "i": "Quali sono i {}?", "le": "Quali sono le {}?", "gli": "Quali sono gli {}?",
     "il": "Qual è il {}?", "lo": "Qual è lo {}?", "la": "Qual è la {}?"},
    bare=("tutti i", "tutte le", "tutti gli"),
)
"""A request for answers and the question it stands for (:attr:`lang.base.Language.request_questions`)."""
